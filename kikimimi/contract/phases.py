"""A game's phases as data: which phase may follow which, and what moves it on.

A game with plain string phases declares them once, as rows (from, to, why),
and moves through `Phases.step`, which refuses a move the table does not
list.  `kikimimi diagram` draws the same rows, so the drawing is the
machine that runs: a phase that is not stepped into cannot be drawn, and a
move that is not drawn cannot be made.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class PhaseError(RuntimeError):
    """A move the game's table of phases does not list: a bug in the game, never an input."""


@dataclass(frozen=True)
class Move:
    source: str
    dest: str
    why: str


class Phases:
    """The phases of one game: the first, the moves between them, the last."""

    def __init__(self, first: str, moves: Iterable[tuple[str, str, str]], last: str,
                 *, from_any: Iterable[tuple[str, str]] = ()):
        """`from_any`: moves any phase may make, as (to, why) — the referee's `stop`, a game
        that ends the moment a seat wins — written once instead of a row per phase (an
        outside author listed 17).  They go from every phase the rows name but `to` and
        `last`, after the rows, and are drawn like them."""
        self.first, self.last = first, last
        rows = [Move(*row) for row in moves]
        named = list(dict.fromkeys([first, *(p for m in rows for p in (m.source, m.dest))]))
        listed = {(m.source, m.dest) for m in rows}
        for dest, why in from_any:
            rows += [Move(p, dest, why) for p in named if p not in (dest, last) and (p, dest) not in listed]
        self.moves = tuple(rows)
        self._allowed = frozenset((m.source, m.dest) for m in self.moves)
        self.names = tuple(dict.fromkeys([first, *(p for m in self.moves for p in (m.source, m.dest)), last]))

    def step(self, source: str, dest: str) -> str:
        """`dest`, if the table lets `source` move there."""
        if (source, dest) not in self._allowed:
            raise PhaseError(f"no move from phase {source!r} to {dest!r}")
        return dest

    def mermaid(self) -> str:
        """The table as a Mermaid state diagram."""
        return "\n".join(["stateDiagram-v2", f"    [*] --> {self.first}"]
                         + [f"    {m.source} --> {m.dest}: {m.why}" for m in self.moves]
                         + [f"    {self.last} --> [*]"])
