"""A game's declarations put to use: its bots by name and its diagram.

A game names these parts as "module:name" strings in its declaration
(`bot_table`, `ear_table`, `diagram`, `report`), and this module is the
one place that loads them from the game's package, refuses an unknown bot in
one line, and says plainly what a game does not have.  So no game writes a
`simulation` or `diagram` wrapper, and a table that only plays never imports
a bot.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import Simulation

EAR = "ear"


def part(decl: Declaration, ref: str) -> Any:
    """The object a declaration names: ".bots:WitchSimulation" is `WitchSimulation`
    of the `bots` module in the game's package (an absolute module name works too);
    ".game:WitchGame.mermaid", an attribute of it (a method the runtime's class gives)."""
    module, _, name = ref.partition(":")
    if not module or not name:
        raise ValueError(f"{decl.name}: {ref!r} is not \"module:name\"")
    found: Any = importlib.import_module(module, decl.package if module.startswith(".") else None)
    for attr in name.split("."):
        found = getattr(found, attr)
    return found


def check_bot(decl: Declaration, bot: str | None) -> None:
    """Refuse a bot name the game does not declare (one line, naming the ones it has)."""
    if bot is None or bot in decl.bots:
        return
    have = ", ".join(decl.bots) or "none"
    raise ValueError(f"{decl.name} has no bot {bot!r} (have: {have})")


def simulation(decl: Declaration, seed: int, players: int, options: Mapping[str, Any],
               bot: str | None = None) -> Simulation:
    """The physical table and bots of one bot game (`kikimimi sim`)."""
    if bot == EAR and (EAR not in decl.bots or decl.ear_table is None):
        raise NotImplementedError(f"{decl.name} has no ear bots yet (see docs/ear.md)")
    ref = decl.ear_table if bot == EAR else decl.bot_table
    if ref is None:
        raise NotImplementedError(f"{decl.name} has no simulator")
    check_bot(decl, bot)
    table: Simulation = part(decl, ref)(seed, players, options, bot)
    reseed = getattr(table, "reseed", None)  # an EarTable (kikimimi.bots.ear, above this module): seats
    if callable(reseed):  # asked in a seeded fresh order each input, so a game's races are fair for free
        reseed(seed)
    return table


def diagram(decl: Declaration, fmt: str = "mermaid") -> str:
    """`kikimimi diagram GAME`: the game's phases as Mermaid text."""
    if decl.diagram is None:
        raise NotImplementedError(f"{decl.name} draws no diagram")
    if fmt != "mermaid":
        raise ValueError(f"{decl.name} draws only Mermaid diagrams, not {fmt!r}")
    text: str = part(decl, decl.diagram)()
    return text
