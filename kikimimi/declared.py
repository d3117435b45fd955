"""A game's declarations put to use: its bots by name and its diagram.

A game names these parts as "module:name" strings (`Game.bot_table`,
`Game.ear_table`, `Game.diagram_of`, `Game.report`), and this module is the
one place that loads them from the game's package, refuses an unknown bot in
one line, and says plainly what a game does not have.  So no game writes a
`simulation` or `diagram` wrapper, and a table that only plays never imports
a bot.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from kikimimi.game_files import game_package
from kikimimi.protocol import Game, Simulation

EAR = "ear"


def part(cls: type[Game], ref: str) -> Any:
    """The object a declaration names: ".bots:WitchSimulation" is `WitchSimulation`
    of the `bots` module in the game's package (an absolute module name works too)."""
    module, _, name = ref.partition(":")
    if not module or not name:
        raise ValueError(f"{cls.name}: {ref!r} is not \"module:name\"")
    return getattr(importlib.import_module(module, game_package(cls) if module.startswith(".") else None), name)


def check_bot(cls: type[Game], bot: str | None) -> None:
    """Refuse a bot name the game does not declare (one line, naming the ones it has)."""
    if bot is None or bot in cls.bots:
        return
    have = ", ".join(cls.bots) or "none"
    raise ValueError(f"{cls.name} has no bot {bot!r} (have: {have})")


def simulation(cls: type[Game], seed: int, players: int, options: Mapping[str, Any],
               bot: str | None = None) -> Simulation:
    """The physical table and bots of one bot game (`kikimimi sim`)."""
    ref = cls.ear_table if bot == EAR else cls.bot_table
    if ref is None:
        if bot == EAR:
            raise NotImplementedError(f"{cls.name} has no ear bots yet (see docs/ear.md)")
        raise NotImplementedError(f"{cls.name} has no simulator")
    check_bot(cls, bot)
    table: Simulation = part(cls, ref)(seed, players, options, bot)
    return table


def diagram(cls: type[Game], fmt: str = "mermaid") -> str:
    """`kikimimi diagram GAME`: the game's phases as Mermaid text."""
    if cls.diagram_of is None:
        raise NotImplementedError(f"{cls.name} draws no diagram")
    if fmt != "mermaid":
        raise ValueError(f"{cls.name} draws only Mermaid diagrams, not {fmt!r}")
    text: str = part(cls, cls.diagram_of)()
    return text
