"""鬼探し's table options and their check, apart from the game so the bots
and the ear bots can read them without importing the game that loads them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MODES = ("off", "matrix", "full")
DEFAULTS = {"rules": "beginner", "assistant": "full", "rounds": 3, "target": None, "first": 1, "raise_window": 8.0}


def parse_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated options; ValueError names the bad one."""
    unknown = set(options) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown option {sorted(unknown)[0]!r} (have: {', '.join(DEFAULTS)})")
    out = {**DEFAULTS, **options}
    if out["rules"] not in ("beginner", "advanced"):
        raise ValueError(f"rules must be beginner or advanced, not {out['rules']!r}")
    a = out["assistant"]
    if isinstance(a, str):
        a = {s: a for s in range(1, players + 1)}
    elif isinstance(a, list) and len(a) == players:
        a = {s: m for s, m in enumerate(a, 1)}
    elif isinstance(a, dict):
        a = {s: a.get(str(s), a.get(s, "off")) for s in range(1, players + 1)}
    else:
        raise ValueError("assistant must be off|matrix|full, a list per seat, or {seat: mode}")
    if any(m not in MODES for m in a.values()):
        raise ValueError(f"assistant modes are {', '.join(MODES)}, not {sorted(set(a.values()) - set(MODES))}")
    out["assistant"] = a
    for key in ("rounds", "target"):
        v = out[key]
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise ValueError(f"{key} must be a positive whole number, not {v!r}")
    if not isinstance(out["first"], int) or not 1 <= out["first"] <= players:
        raise ValueError(f"first must be a seat 1..{players}")
    if isinstance(out["raise_window"], bool) or not isinstance(out["raise_window"], (int, float)) or out["raise_window"] <= 0:
        raise ValueError("raise_window must be a positive number of seconds")
    return out
