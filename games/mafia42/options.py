"""The header options of a マフィア42 table, checked once (CONTRACT.md).

Every value comes from a script header, a config file or the console, so
each is bounded and refused with one line naming the option.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .jobs import Catalogue, CatalogueError, default_catalogue
from .power import MODES, SKILLS

TIMERS = {"night": 25, "discussion_per_player": 15, "vote": 15, "defence": 15, "approval": 10, "morning": 5}
DEFAULTS: dict[str, Any] = {"mode": "classic", "jobs": None, "skills": {}, "job_changes": {}, **TIMERS}
CULT_PLAYERS = range(9, 13)


def cult_deck(deck: list[str], players: int) -> list[str]:
    """The seed's cult: 9-11 players one cult leader, 12 a cult leader and a fanatic,
    in place of the deck's last citizens."""
    cult = ["cult-leader"] + (["fanatic"] if players == 12 else [])
    out = list(deck)
    for job in cult:
        spot = max((i for i, j in enumerate(out) if j == "citizen"), default=None)
        if spot is None:
            spot = max(i for i, j in enumerate(out)
                       if j not in ("mafia", "police", "doctor", "cult-leader", "lover", "society"))
        out[spot] = job
    return out


def parse_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated options with the catalogue and the deck filled in; ValueError names the bad one."""
    unknown = set(options) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]!r} (have: {', '.join(DEFAULTS)})")
    out = {**DEFAULTS, **options}
    if out["mode"] not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {out['mode']!r}")
    if out["mode"] == "cult" and players not in CULT_PLAYERS:
        raise ValueError("cult mode is for 9 to 12 players")
    for key in TIMERS:
        v = out[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 1 <= v <= 600:
            raise ValueError(f"{key} must be a number of seconds from 1 to 600, not {v!r}")
    changes = out["job_changes"]
    if isinstance(changes, Mapping):
        for name, fields in changes.items():
            if name not in default_catalogue():
                raise ValueError(f"job_changes: {str(name)[:32]!r} is not a job of the catalogue "
                                 "(a new job and its cards go into jobs.toml)")
            if isinstance(fields, Mapping) and {"team", "helper", "contact"} & set(fields):
                raise ValueError(f"job_changes: {name}'s team is printed on its card; change the catalogue")
    try:
        catalogue: Catalogue = default_catalogue()
        if changes:
            catalogue = catalogue.changed(out["job_changes"])
    except CatalogueError as exc:
        raise ValueError(str(exc)) from None
    out["catalogue"] = catalogue
    deck = out["jobs"]
    if deck is None:
        deck = list(catalogue.deals.get(players, ()))
        if out["mode"] == "cult":
            deck = cult_deck(deck, players)
    if not isinstance(deck, list) or len(deck) != players or not all(isinstance(j, str) for j in deck):
        raise ValueError(f"jobs must list one job name per player ({players})")
    bad = [j for j in deck if j not in catalogue]
    if bad:
        raise ValueError(f"jobs: unknown job {bad[0][:32]!r}")
    counts = Counter(deck)
    over = [j for j, n in counts.items() if n > catalogue[j].count]
    if over:
        raise ValueError(f"jobs: at most {catalogue[over[0]].count} {over[0]} in a deck")
    if not any(catalogue[j].team == "mafia" and not catalogue[j].helper for j in deck):
        raise ValueError("jobs: the deck needs at least one mafia")
    if out["mode"] != "cult" and any(catalogue[j].team == "cult" for j in deck):
        raise ValueError("jobs: the cult plays only in cult mode")
    for pair in ("lover", "society"):
        if counts.get(pair, 0) not in (0, 2):
            raise ValueError(f"jobs: {pair} come in pairs")
    out["jobs"] = deck
    skills = out["skills"]
    if not isinstance(skills, Mapping) or len(skills) > players:
        raise ValueError("skills must be a table {seat: skill}")
    parsed: dict[int, str] = {}
    for k, v in skills.items():
        if not str(k).isdigit() or not 1 <= int(k) <= players or v not in SKILLS[1:]:
            raise ValueError(f"skills: {str(k)[:8]!r} = {str(v)[:16]!r} (seat 1-{players}, "
                             f"skill {' or '.join(SKILLS[1:])})")
        parsed[int(k)] = str(v)
    out["skills"] = parsed
    return out
