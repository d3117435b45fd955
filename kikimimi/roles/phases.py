"""Each phase's real-time limit and the warnings before it, as data.

Which phase may follow which is `kikimimi.contract.phases.Phases` (a game's `PHASES`:
the layer checks every move, and `kikimimi diagram` draws it).  A game on
real timers (マフィア42: night 25 s, vote 15 s, …) also declares, per phase,
the option that holds its limit and the warnings before it ("ten seconds
left", the tally's hush).  The same declaration sets the warning timers when
a phase starts or its limit moves and says the limits in the drawing.  The
limit itself is the layer's `PhaseTimer`; a warning is a named runtime timer
the game answers in `on_timer`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.contract.protocol import Event, cancel_timer, set_timer

#: Warnings closer than this to the limit are not set (float noise: 123.99 + 10 - 10 > 123.99).
EPSILON = 1e-6


@dataclass(frozen=True)
class Warning:
    """A runtime timer `before` seconds ahead of the phase's limit, set only
    when more than that is left (a 10-second phase has no "10 seconds left")."""

    timer: str
    before: float


@dataclass(frozen=True)
class Clock:
    """One phase's limit (the option holding its seconds) and its warnings."""

    phase: str
    limit: str
    warnings: tuple[Warning, ...] = ()
    per_living: bool = False  # the limit is per living player (マフィア42's discussion)

    def seconds(self, options: Mapping[str, Any], living: int) -> float:
        """The phase's limit at this table."""
        return float(options[self.limit]) * (living if self.per_living else 1)


class Clocks:
    """The clocks of one game's timed phases."""

    def __init__(self, *clocks: Clock):
        self.by_phase = {c.phase: c for c in clocks}
        if len(self.by_phase) != len(clocks):
            raise ValueError("a phase's clock is declared twice")

    def __getitem__(self, phase: str) -> Clock:
        return self.by_phase[phase]

    def warning_timers(self) -> list[str]:
        """Every warning timer any phase sets, each once, in declared order."""
        return list(dict.fromkeys(w.timer for c in self.by_phase.values() for w in c.warnings))

    def warnings(self, phase: str, t: float, deadline: float) -> list[Event]:
        """Set each of the phase's warnings that still has room; cancel the ones that have not
        (the limit moved closer)."""
        out: list[Event] = []
        clock = self.by_phase.get(phase)
        for w in clock.warnings if clock else ():
            at = deadline - w.before
            out.append(set_timer(w.timer, at) if at - t > EPSILON else cancel_timer(w.timer))
        return out

    def cancel_warnings(self) -> list[Event]:
        return [cancel_timer(name) for name in self.warning_timers()]

    def notes(self) -> list[str]:
        """Mermaid state notes naming each phase's limit (appended to the diagram)."""
        return [f"    {c.phase}: {c.phase}, option {c.limit} s{' per living player' if c.per_living else ''}"
                for c in self.by_phase.values()]
