"""Phases as data: each phase's warnings before its real-time limit, and where it may go.

A game on real timers (マフィア42: night 25 s, vote 15 s, …) declares its
phases once.  The same declaration sets the warning timers when a phase
starts or its limit moves, refuses a move it does not list (so a phase the
code enters is a phase the drawing shows), and draws `kikimimi diagram
GAME`.  The limit itself is the layer's `PhaseTimer`; a warning is a named
runtime timer the game answers in `on_timer` ("ten seconds left", the
tally's hush).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.protocol import Event, cancel_timer, set_timer

#: Warnings closer than this to the limit are not set (float noise: 123.99 + 10 - 10 > 123.99).
EPSILON = 1e-6


@dataclass(frozen=True)
class Warning:
    """A runtime timer `before` seconds ahead of the phase's limit, set only
    when more than that is left (a 10-second phase has no "10 seconds left")."""

    timer: str
    before: float


@dataclass(frozen=True)
class Phase:
    name: str
    warnings: tuple[Warning, ...] = ()
    exits: tuple[tuple[str, str], ...] = ()  # (next phase, what ends this one that way)
    limit: str = ""  # the option that holds its real-time limit in seconds ("" : none)
    per_living: bool = False  # the limit is per living player (マフィア42's discussion)

    def seconds(self, options: Mapping[str, Any], living: int) -> float:
        """The phase's limit at this table."""
        if not self.limit:
            raise ValueError(f"phase {self.name!r} has no real-time limit")
        return float(options[self.limit]) * (living if self.per_living else 1)


class Phases:
    """The declared phases of one game, from the deal to the end."""

    def __init__(self, first: str, why: str, phases: Sequence[Phase], deal: str = "deal", end: str = "over"):
        self.first, self.why, self.deal, self.end = first, why, deal, end
        self.by_name = {p.name: p for p in phases}
        if len(self.by_name) != len(phases):
            raise ValueError("a phase is declared twice")
        names = {deal, end, *self.by_name}
        bad = [to for p in phases for to, _ in p.exits if to not in names]
        if first not in self.by_name or bad:
            raise ValueError(f"phases: an exit goes to an undeclared phase {(bad or [first])[0]!r}")

    def __getitem__(self, name: str) -> Phase:
        return self.by_name[name]

    @property
    def names(self) -> tuple[str, ...]:
        return (self.deal, *self.by_name, self.end)

    def move(self, current: str, to: str) -> None:
        """Refuse a move the declaration does not have (a bug, never a player's act)."""
        if current == self.deal and to == self.first:
            return
        exits = {t for t, _ in self.by_name[current].exits} if current in self.by_name else set()
        if to not in exits:
            raise ValueError(f"phase {current!r} has no declared way to {to!r}")

    def warning_timers(self) -> list[str]:
        """Every warning timer any phase sets, each once, in declared order."""
        return list(dict.fromkeys(w.timer for p in self.by_name.values() for w in p.warnings))

    def warnings(self, phase: str, t: float, deadline: float) -> list[Event]:
        """Set each of the phase's warnings that still has room; cancel the ones that have not
        (the limit moved closer)."""
        out: list[Event] = []
        for w in self.by_name[phase].warnings if phase in self.by_name else ():
            at = deadline - w.before
            out.append(set_timer(w.timer, at) if at - t > EPSILON else cancel_timer(w.timer))
        return out

    def cancel_warnings(self) -> list[Event]:
        return [cancel_timer(name) for name in self.warning_timers()]

    def edges(self) -> Iterable[tuple[str, str, str]]:
        yield self.deal, self.first, self.why
        for p in self.by_name.values():
            for to, why in p.exits:
                yield p.name, to, why

    def mermaid(self) -> str:
        limits = [f"    {p.name}: {p.name}, option {p.limit} s{' per living player' if p.per_living else ''}"
                  for p in self.by_name.values() if p.limit]
        return "\n".join(["stateDiagram-v2", f"    [*] --> {self.deal}"]
                         + [f"    {a} --> {b}: {why}" for a, b, why in self.edges()]
                         + [f"    {self.end} --> [*]"] + limits)
