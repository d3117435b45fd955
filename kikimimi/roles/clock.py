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

from dataclasses import dataclass

from kikimimi.contract.protocol import Event, cancel_timer, set_timer


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


class PhaseTimer:
    """One real-time limit per phase, named so a stale timer is recognised.

    `start` returns the `set_timer` event for the runtime; `is_current(name)`
    tells whether a fired timer is this phase's; `stop` cancels it.
    """

    def __init__(self, prefix: str = "phase") -> None:
        self.prefix = prefix
        self.generation = 0
        self.live: str | None = None

    def start(self, t: float, seconds: float) -> list[Event]:
        out = self.stop()
        self.generation += 1
        self.live = f"{self.prefix}-{self.generation}"
        return out + [set_timer(self.live, t + float(seconds))]

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
