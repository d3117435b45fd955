"""イントリーゲ's table options, and the edition they ask for: parsed once, here.

Every game keeps its `OPTIONS` in `options.py`; the play, the bots and the
ear bots read an edition through `edition_from_options`, never the raw mapping.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kikimimi.game import Options, anything, choice, whole

from .editions import BRIBE_MODES, EDITIONS, Edition

#: Every number of the edition is also a house rule; unset, the edition's own.
OPTIONS = Options(
    choice("edition", tuple(EDITIONS), "the edition whose numbers and roles are played"),
    whole("start_cash", None, "each player's cash at the start", low=0, high=10**12, optional=True),
    whole("rounds", None, "rounds played", low=1, high=100, optional=True),
    whole("step", None, "the step a bribe is raised by", low=1, high=10**12, optional=True),
    choice("bribes", BRIBE_MODES, "offers said on the speaker (open) or only to the two seats (hidden)"),
    anything("incomes", None, "the sections' incomes, lowest section first (one per section)"),
    whole("first", 1, "the seat that begins every round", low=1, high=5),
    whole("seed", 0, "the table's secret seed of the hidden-bribe dial (kept from spectators)", low=0, high=2**62),
)


def _income(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**12:
        raise ValueError(f"incomes must be whole numbers of at least 0, not {value!r}")
    return value


def edition_from_options(options: Mapping[str, Any]) -> Edition:
    """The edition a header's options ask for; ValueError names the bad option in one line."""
    given = {k: v for k, v in OPTIONS.parse(0, options).items() if k in options and v is not None}
    name = given.get("edition", "classic")
    ed = EDITIONS[name]
    changes = {k: v for k, v in given.items() if k in ("start_cash", "rounds", "step", "bribes")}
    if "incomes" in given:
        inc = given["incomes"]
        if not isinstance(inc, list) or len(inc) != ed.sections:
            raise ValueError(f"incomes must be a list of {ed.sections} amounts, lowest section first")
        changes["incomes"] = tuple(_income(v) for v in inc)
    return replace(ed, **changes)
