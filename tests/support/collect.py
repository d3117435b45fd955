"""A reader runner whose inputs a test (or bench) can wait for."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from kikimimi.readers.runner import ReaderInput, ReaderRunner, ReaderSettings


class Table:
    """A runner collecting inputs, with a wait that fails loudly."""

    def __init__(self, settings: Sequence[ReaderSettings]) -> None:
        self.inputs: list[ReaderInput] = []
        #: When each input reached the table (time.monotonic), for the benches' latencies.
        self.arrived: list[float] = []
        self._cond = threading.Condition()
        self.runner = ReaderRunner(settings, self._on_input)

    def _on_input(self, inp: ReaderInput) -> None:
        with self._cond:
            self.arrived.append(time.monotonic())
            self.inputs.append(inp)
            self._cond.notify_all()

    def wait(self, pred: Callable[[list[ReaderInput]], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not pred(self.inputs):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; inputs so far: {self.brief()}")
                self._cond.wait(left)

    def arrival(self, n: int, timeout: float = 5.0) -> float:
        """When the `n`th input (1-based) arrived, waiting for it."""
        self.wait(lambda ins: len(ins) >= n, timeout)
        return self.arrived[n - 1]

    def wait_count(self, reader: str, n: int, timeout: float = 5.0) -> None:
        self.wait(lambda ins: len([i for i in ins if i.reader == reader]) >= n, timeout)

    def of(self, reader: str) -> list[tuple]:
        return [(i.kind, i.uid, i.tag) for i in self.inputs if i.reader == reader]

    def brief(self) -> list[tuple]:
        return [(i.reader, i.kind, i.uid, i.tag) for i in list(self.inputs)]
