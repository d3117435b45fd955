"""A driver that replays timed raw observations, for testing the runner.

It plays a list of `(at, kind, uid, tag)` steps relative to its start, on the
runner's own clock, so a test can describe "a tag rests 2 s, is lifted for
50 ms, ..." without hardware, while still going through `ReaderRunner.start`.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kikimimi.readers.base import Emit, RawEvent, RawKind


@dataclass(frozen=True)
class Step:
    at: float  # seconds after the driver starts
    kind: RawKind
    uid: str | None = None
    tag: str | None = None
    present: tuple[tuple[str, str | None], ...] = ()
    detail: str = ""


class ReplayDriver:
    """Emits its steps at their times, then idles until stopped."""

    def __init__(self, reader: str, steps: Sequence[Step],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.reader = reader
        self.steps = sorted(steps, key=lambda s: s.at)
        self.clock = clock
        self.done = threading.Event()

    def run(self, emit: Emit, stop: threading.Event) -> None:
        start = self.clock()
        for step in self.steps:
            delay = start + step.at - self.clock()
            if delay > 0 and stop.wait(delay):
                return
            emit(RawEvent(self.reader, step.kind, start + step.at, uid=step.uid, tag=step.tag,
                          present=step.present, detail=step.detail))
        self.done.set()
        stop.wait()
