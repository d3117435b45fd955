"""Snap: a race for the bell, the smallest game with a "first answer wins" window.

The speaker says "Snap!"; the first seat to tap the bell with its hand reader wins.  Every
chair has the same odds by the rules, so any edge is the bots' or the harness's: the null
experiment's own test game (tests/report/test_fairness.py).  Its bot kinds: `plain` (a fair
draw of who is quickest), `biased` (chair 1 quickest at 40 % odds beyond its share), `ear`
(ear bots, all tapping at once: the EarTable's asking order decides) and `fixed` (the same
ear bots asked in seat order every input, as the ear table once did).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.bots.ear import EarBot, EarTable, Heard
from kikimimi.contract.protocol import Game, Input, event, say

BELL = "snap:bell"


class SnapGame(Game):
    name = "snap"
    min_players, max_players, official_players = 2, 6, 6
    option_names = frozenset()
    bots = ("plain", "biased", "ear", "fixed")
    bot_table = "report.snapgame:bot_table"
    ear_table = "report.snapgame:ear_table"

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self._over = False

    @classmethod
    def known_tags(cls, players: int) -> frozenset[str]:
        return frozenset({BELL})

    @property
    def over(self) -> bool:
        return self._over

    def start(self, t: float) -> list:
        return [say("table", "go")]

    def handle(self, inp: Input) -> list:
        if inp.console == "stop" or (inp.reader == "hand" and inp.tag == BELL and not inp.removed):
            self._over = True
            winner = inp.seat if inp.console is None else None
            ranking = [{"seat": s, "place": 1 if s == winner else 2} for s in range(1, self.players + 1)]
            return [event("game-over", reason="stopped" if winner is None else "snap", ranking=ranking)]
        return []


class _Draw:
    """The event bots: who is quickest is a draw (`bias`: chair 1's odds beyond its share)."""

    def __init__(self, seed: int, players: int, bias: float):
        self.rng, self.players, self.bias, self.done = random.Random(seed), players, bias, False

    def next_input(self) -> dict[str, Any] | None:
        if self.done:
            return None
        self.done = True
        seat = 1 if self.rng.random() < self.bias else self.rng.randint(1, self.players)
        return {"reader": "hand", "seat": seat, "tag": BELL}

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        pass


class _Bell:
    """The physical table: a bell any seat may tap (a public tag)."""

    over = False

    def follow(self, ev: Mapping[str, Any]) -> None:
        self.over = self.over or ev.get("type") == "game-over"

    def reach(self, seat: int | None) -> None:
        return None

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        return None

    def public_tag(self, tag: str) -> bool:
        return tag == BELL


class Snapper(EarBot):
    def __init__(self, seat: int):
        self.seat, self.heard = seat, False

    def hear(self, heard: Heard) -> None:
        self.heard = self.heard or heard.key == "go"

    def act(self, reach: Any) -> dict[str, Any] | None:
        return {"reader": "hand", "tag": BELL} if self.heard else None


class _Unshuffled(random.Random):
    def shuffle(self, x: Any, *args: Any) -> None:
        """Seat order, every input: seat 1 first."""


def ear_table(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> EarTable:
    return EarTable("snap", _Bell(), [Snapper(s) for s in range(1, players + 1)])


def bot_table(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> Any:
    if bot == "fixed":
        table = ear_table(seed, players, options)
        table.order = _Unshuffled()
        table.reseed = lambda seed: None  # type: ignore[method-assign]
        return table
    return _Draw(seed, players, 0.4 if bot == "biased" else 0.0)
