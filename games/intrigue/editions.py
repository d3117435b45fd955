"""The editions of Intrige as data, and the options that override their numbers.

The classic edition (F.X. Schmid 1994, and the online version the seed
describes) and the Amigo reprints differ only in numbers and in the fifth
role, so an edition is a record and every number is also a house rule.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

ALL_ROLES = ("finance", "law", "military", "science", "church")
COPIES = 2  # two advisors of each role per player (the seed)
BRIBE_MODES = ("open", "hidden")


@dataclass(frozen=True)
class Edition:
    name: str
    incomes: tuple[int, ...]  # section 1 (lowest) ... section k (highest), paid per round
    roles: tuple[str, ...]
    start_cash: int
    rounds: int
    step: int
    bribes: str = "open"

    @property
    def sections(self) -> int:
        return len(self.incomes)

    @property
    def advisors_each(self) -> int:
        return len(self.roles) * COPIES


EDITIONS = {
    "classic": Edition("classic", (10_000, 20_000, 30_000, 50_000, 100_000), ALL_ROLES, 320_000, 6, 10_000),
    "amigo": Edition("amigo", (1_000, 3_000, 6_000, 10_000), ALL_ROLES[:4], 32_000, 5, 1_000),
}

OPTION_NAMES = ("edition", "start_cash", "rounds", "step", "bribes", "incomes", "first", "seed")


def _whole(name: str, value: Any, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be a whole number of at least {least}, not {value!r}")
    if value > 10**12:
        raise ValueError(f"{name} is too large: {value!r}")
    return value


def edition_from_options(options: Mapping[str, Any]) -> Edition:
    """The edition a header's options ask for; ValueError names the bad option in one line."""
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} (have: {', '.join(OPTION_NAMES)})")
    name = options.get("edition", "classic")
    if name not in EDITIONS:
        raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, not {name!r}")
    ed = EDITIONS[name]
    changes: dict[str, Any] = {}
    if "start_cash" in options:
        changes["start_cash"] = _whole("start_cash", options["start_cash"], 0)
    if "rounds" in options:
        changes["rounds"] = _whole("rounds", options["rounds"], 1)
        if changes["rounds"] > 100:
            raise ValueError(f"rounds must be at most 100, not {changes['rounds']}")
    if "step" in options:
        changes["step"] = _whole("step", options["step"], 1)
    for name in ("first", "seed"):  # the game's own, not the edition's: checked here all the same
        if name in options:
            _whole(name, options[name], 1 if name == "first" else 0)
    if "bribes" in options:
        if options["bribes"] not in BRIBE_MODES:
            raise ValueError(f"bribes must be open or hidden, not {options['bribes']!r}")
        changes["bribes"] = options["bribes"]
    if "incomes" in options:
        inc = options["incomes"]
        if not isinstance(inc, list) or len(inc) != ed.sections:
            raise ValueError(f"incomes must be a list of {ed.sections} amounts, lowest section first")
        changes["incomes"] = tuple(_whole("incomes", v, 0) for v in inc)
    return replace(ed, **changes)
