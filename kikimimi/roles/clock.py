"""Phase clocks: virtual time that speech consumes, and real-time limits.

Virtual time (闇に笑う魔女's 12-hour day) is plain arithmetic on minutes: a
game charges each speech to one or more `VirtualClock`s.  A clock stays open
while its used time is below its length plus its grace, so the last speech
may overrun it (the seed's "最終発言に限り超過が認められます").  Real time
(a night's limit at a table, マフィア42's 25-second night) is a runtime
timer on the script's clock; `PhaseTimer` keeps only the latest one live, so
a timer left over from an earlier phase can never end the current one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from kikimimi.contract.protocol import TABLE, Event, cancel_timer, set_timer, set_timer_after_heard


@dataclass
class VirtualClock:
    """`length` minutes of virtual time; open while used < length + grace."""

    length: int
    grace: int = 0
    used: int = 0

    @property
    def left(self) -> int:
        """Minutes left (negative once overrun)."""
        return self.length - self.used

    @property
    def open(self) -> bool:
        return self.used < self.length + self.grace

    def spend(self, minutes: int) -> list[int]:
        """Charge `minutes`; return the whole hours left that were reached on the way
        (the speaker announces the remaining time on the hour)."""
        before = self.left
        self.used += max(0, int(minutes))
        after = self.left
        return [h for h in range(max(before, 0) // 60, -1, -1) if after <= h * 60 < before]

    def shorten(self, minutes: int) -> None:
        """The clock loses time (the day's silence: one hour)."""
        self.length -= minutes


def chars_to_minutes(text: str, chars_per_minute: int) -> int:
    """Minutes a typed speech costs: a full-width character counts 2, rounded down."""
    width = sum(2 if _full_width(ch) else 1 for ch in text)
    return width // max(1, chars_per_minute)


def _full_width(ch: str) -> bool:
    import unicodedata

    return unicodedata.east_asian_width(ch) in ("W", "F")


def seconds_left(deadline: float, now: float) -> int:
    """Whole seconds left, rounded up: 422.96 + 105 - 422.96 is 105.00000000000006 in floats,
    which rounded up said "106 seconds left" for a 105-second phase."""
    return max(0, math.ceil(round(deadline - now, 6)))


class PhaseTimer:
    """One real-time limit per phase, named so a stale timer is recognised.

    `start_when_heard(seconds)` asks the runtime for the limit counted from when the
    phase's announcement has been heard (docs/rules: a player cannot use time they spend
    hearing what the phase is); `heard(name, t)` is the runtime's moment (`Play.clock_started`),
    when the deadline becomes known.  `start(t, seconds)` counts from `t` at once.
    `is_current(name)` tells whether a fired timer is this phase's; `stop` cancels it.
    """

    def __init__(self, prefix: str = "phase") -> None:
        self.prefix = prefix
        self.generation = 0
        self.live: str | None = None
        #: The live limit's length while it waits to be heard (moved by `move` meanwhile).
        self.seconds = 0.0
        #: When the live limit ends on the game's clock; None until its clock has started.
        self.deadline: float | None = None
        self._asked = 0.0

    def start(self, t: float, seconds: float) -> list[Event]:
        out = self._next(seconds)
        self.deadline = t + float(seconds)
        assert self.live is not None
        return out + [set_timer(self.live, self.deadline)]

    def start_when_heard(self, seconds: float) -> list[Event]:
        """Counted from when the speaker has played what it was told so far: the speaker alone,
        as every seat hears it; a seat's earphone (a finding, a partner) must never move it."""
        out = self._next(seconds)
        self.deadline = None
        assert self.live is not None
        return out + [set_timer_after_heard(self.live, float(seconds), on=(TABLE,))]

    def _next(self, seconds: float) -> list[Event]:
        out = self.stop()
        self.generation += 1
        self.live = f"{self.prefix}-{self.generation}"
        self.seconds = self._asked = float(seconds)
        return out

    def heard(self, name: str, t: float) -> list[Event] | None:
        """The runtime started `name` counting at `t`: None if it is not the live limit, else
        the events that move it when its length changed while it waited (an extension)."""
        if name != self.live or self.deadline is not None:
            return None
        self.deadline = t + self.seconds
        return [] if self.seconds == self._asked else [set_timer(name, self.deadline)]

    def move(self, t: float, delta: float) -> list[Event]:
        """The limit comes `delta` seconds later (earlier if negative), never before `t`."""
        if self.live is None:
            return []
        if self.deadline is None:  # not heard yet: the whole phase, longer or shorter
            self.seconds = max(0.0, self.seconds + delta)
            return []
        self.deadline = max(t, self.deadline + delta)
        return [set_timer(self.live, self.deadline)]

    def left(self, now: float) -> int:
        """Whole seconds left at `now`: before the announcement has been heard, the whole phase."""
        if self.live is None:
            return 0
        return seconds_left(self.deadline if self.deadline is not None else now + self.seconds, now)

    def stop(self) -> list[Event]:
        if self.live is None:
            return []
        name, self.live = self.live, None
        return [cancel_timer(name)]

    def is_current(self, name: str) -> bool:
        if name == self.live:
            self.live = None  # fired: nothing to cancel any more
            return True
        return False
