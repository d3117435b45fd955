"""闇に笑う魔女's roles, teams, the default deck per player count, and its options.

Everything here is a line of `shared/rules/witch.md` turned into data.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.phases import Phases

ROLES = ("human", "witch", "mirror", "priest", "familiar", "knight", "twin", "imp")
TEAMS = {"human": "islanders", "witch": "witches", "mirror": "islanders", "priest": "islanders",
         "familiar": "witches", "knight": "islanders", "twin": "islanders", "imp": "imp"}
#: Told at the deal: the witches know the witches (never the familiar), the twins each other.
KNOWS = {"witch": ("witch",), "twin": ("twin",)}

MIN_PLAYERS, MAX_PLAYERS = 5, 16

#: The phases and what moves the island from one to the next; the game steps only
#: through these (`Phases.step`) and `kikimimi diagram witch` draws them.  A tie at the
#: count is voted again inside the day (the rules' second round is not a phase).
PHASES = Phases("deal", (
    ("deal", "prologue", "every seat scanned a role card"),
    ("prologue", "day", "all OK / next"),
    ("day", "night", "one player voted out (most votes, most over both rounds, the lot)"),
    ("night", "day", "all scanned / time limit / next (morning)"),
    ("day", "epilogue", "a win after the vote"),
    ("night", "epilogue", "a win in the morning"),
    ("deal", "epilogue", "stop"),
    ("prologue", "epilogue", "stop"),
    ("epilogue", "over", "every role told"),
), "over")


def diagram() -> str:
    return PHASES.mermaid()


def default_deck(players: int) -> list[str]:
    """Ruling: the role mix per player count (a table setting; `roles` overrides it).

    Witches about a quarter of the island; the mirror always; the knight from
    6, the priest from 7, the familiar from 8, the twins from 9, the imp from 10.
    """
    witches = 1 if players <= 7 else 2 if players <= 11 else 3
    deck = ["witch"] * witches + ["mirror"]
    for role, count, from_ in (("knight", 1, 6), ("priest", 1, 7), ("familiar", 1, 8), ("twin", 2, 9), ("imp", 1, 10)):
        if players >= from_:
            deck += [role] * count
    return deck + ["human"] * (players - len(deck))


def finding(role: str | None) -> str:
    """What the mirror and the priest learn: the imp and the familiar read human."""
    return "witch" if role == "witch" else "human"


DEFAULTS: dict[str, Any] = {
    "roles": None, "chars_per_minute": 8, "allowance": 180, "day_minutes": 720, "night_minutes": 360,
    "token_chars_per_second": 8, "night_seconds": 120,
    # beyond CONTRACT.md (table settings the rules file names)
    "overrun": 10, "island_bonus": 30, "advisory_min": 5, "advisory_max": 30, "silence_minutes": 60,
    "preferences": None, "seed": 0,
}
_POSITIVE = ("chars_per_minute", "allowance", "day_minutes", "night_minutes", "token_chars_per_second",
             "night_seconds", "silence_minutes")
_NATURAL = ("overrun", "island_bonus", "advisory_min", "advisory_max", "seed")


def parse_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated options; ValueError names the bad one (one line for the referee)."""
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} (have: {', '.join(DEFAULTS)})")
    out = {**DEFAULTS, **options}
    for key in _POSITIVE + _NATURAL:
        v = out[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < (1 if key in _POSITIVE else 0) or v > 10**6:
            raise ValueError(f"{key} must be a {'positive' if key in _POSITIVE else 'non-negative'} number, not {v!r}")
    for key in ("chars_per_minute", "allowance", "day_minutes", "night_minutes", "overrun", "island_bonus",
                "advisory_min", "advisory_max", "silence_minutes", "seed"):
        if out[key] != int(out[key]):
            raise ValueError(f"{key} must be a whole number, not {out[key]!r}")
        out[key] = int(out[key])
    if out["advisory_min"] > out["advisory_max"]:
        raise ValueError("advisory_min must not exceed advisory_max")
    if out["roles"] is None:
        out["roles"] = default_deck(players)
    prefs = out["preferences"] or {}
    if not isinstance(prefs, Mapping) or not all(
            str(k).isdigit() and 1 <= int(k) <= players and v in ROLES for k, v in prefs.items()):
        raise ValueError("preferences must map seats to role names, e.g. {\"1\": \"mirror\"}")
    out["preferences"] = {int(k): v for k, v in prefs.items()}
    return out
