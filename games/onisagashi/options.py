"""鬼探し's table options and their check, apart from the game so the bots
and the ear bots can read them without importing the game that loads them."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.options import Options, anything, choice, number, seat, whole

MODES = ("off", "matrix", "full")
OPTIONS = Options(
    choice("rules", ("beginner", "advanced"), "the rules file's beginner or advanced game"),
    anything("assistant", "full", "the deduction assistant: off|matrix|full, a list per seat, or {seat: mode}"),
    whole("rounds", 3, "rounds played (unless target ends the game first)", low=1, optional=True),
    whole("target", None, "points that end the game", low=1, optional=True),
    seat("first", 1, "the seat that declares first"),
    number("raise_window", 8.0, "seconds the raise-hand window stays open", low=0.001),
)
DEFAULTS = OPTIONS.defaults


def parse_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated options; ValueError names the bad one (the assistant's shapes are checked here)."""
    out = OPTIONS.parse(players, options)
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
    return out
