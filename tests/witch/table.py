"""Scripts of 闇に笑う魔女 tables for the tests: fixed decks, the way to day 1, whole nights."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.testkit.roles_script import Script

# seat:          1        2         3         4         5           6        7        8
DECK8 = ["witch", "mirror", "knight", "priest", "familiar", "witch", "human", "human"]
# seat:          1        2         3         4         5      6        7        8        9       10
DECK10 = ["witch", "mirror", "knight", "priest", "imp", "witch", "human", "human", "twin", "twin"]
WITCH_SECRETS = ("role", "partners", "result", "banish", "advise", "exorcise", "mirror", "guard", "hint",
                 "out-cause", "deal-plan", "night-rules", "advisory", "deadroom")


def table(deck: list[str] = DECK8, lang: str = "en", **options: Any) -> Script:
    """Roles dealt by scanning; the day before is still on."""
    options.setdefault("day_acts", "free")  # the rules tested here; tests/witch/test_day_acts.py: together
    s = Script("witch", len(deck), roles=list(deck), **options)
    s.lines[0]["lang"] = lang
    return s.deal("witch", deck)


def day1(deck: list[str] = DECK8, **options: Any) -> Script:
    """Every seat scanned OK: day 1 has begun."""
    s = table(deck, **options)
    for seat in range(1, len(deck) + 1):
        s.hand(seat, "cmd:ok")
    return s


def vote(s: Script, ballots: Mapping[int, int]) -> Script:
    for voter, target in ballots.items():
        s.hand(voter, f"seat:{target}")
    return s


def everyone_votes(s: Script, living: list[int], target: int, fallback: int) -> Script:
    """All living vote `target` (the target itself votes `fallback`)."""
    return vote(s, {v: (fallback if v == target else target) for v in living})


def night(s: Script, living: list[int], acts: Mapping[int, int]) -> Script:
    """Every living seat scans: `acts` for the ones that act, cover (seat 1 or 2) for the rest."""
    for seat in living:
        s.hand(seat, f"seat:{acts.get(seat, 2 if seat == 1 else 1)}")
    return s
