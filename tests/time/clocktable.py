"""A マフィア42 table on a hand-driven clock, for the time tests: a 4-seat deal,
short phases, and helpers to let the clock run and to crash the daemon."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from kikimimi.table.daemon import Daemon
from kikimimi.contract.script import Header
from kikimimi.testkit.script import replay_journal as replay

JOBS = ["mafia", "citizen", "citizen", "police"]
#: Night 3 s, morning 1 s, discussion 1 s a head, vote 2 s, defence 1 s, approval 2 s.
SHORT = {"jobs": JOBS, "night": 3, "morning": 1, "discussion_per_player": 1, "vote": 2,
         "defence": 1, "approval": 2}


def header(**options: Any) -> Header:
    return Header("mafia42", 4, {**SHORT, **options}, "en", {})


class Clocked:
    """A daemon whose clock the test moves; `tick` is the ticker thread's call."""

    def __init__(self, journal: Path, head: Header | None = None, now: float = 0.0) -> None:
        self.now = [now]
        self.d = Daemon(head or header(), journal, clock=lambda: self.now[0])
        self.warnings = self.d.open()
        self.heard: list[dict[str, Any]] = []  # every event told to the listeners
        self.d.subscribe(lambda _item, events: self.heard.extend(events))

    def deal(self) -> "Clocked":
        copies: Counter[str] = Counter()
        for seat, job in enumerate(JOBS, start=1):
            copies[job] += 1
            self.hand(seat, f"mafia42:job-{job}-{copies[job]}")
        return self

    def hand(self, seat: int, tag: str, dt: float = 0.1) -> list[dict[str, Any]]:
        self.now[0] += dt
        return self.d.submit({"reader": "hand", "seat": seat, "tag": tag})

    def console(self, text: str, dt: float = 0.1) -> list[dict[str, Any]]:
        self.now[0] += dt
        return self.d.submit({"console": text})

    def run(self, until: float, step: float = 0.25) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while self.now[0] < until:
            self.now[0] = round(self.now[0] + step, 2)
            out += self.d.tick()
        return out

    def hear(self, phase: str, n: int = 0, step: float = 0.25) -> dict[str, Any]:
        """Let the clock run until the `n`th `phase` has been heard: its public `phase-clock`
        (its limit counts from then, so the test reads each end from the table, never a figure)."""
        for _ in range(4000):
            clocks = [ev for ev in self.d.log if ev["type"] == "phase-clock" and ev["phase"] == phase]
            if len(clocks) > n:
                return clocks[n]
            self.now[0] = round(self.now[0] + step, 2)
            self.d.tick()
        raise AssertionError(f"the {phase} was never heard")

    def end_of(self, phase: str, n: int = 0) -> float:
        """When the `n`th `phase` ends on its timer (the clock runs until it was heard)."""
        clock = self.hear(phase, n)
        return float(clock["t"]) + float(clock["seconds"])

    def crash(self) -> None:
        """SIGKILL, in process: nothing closed cleanly, nothing more told."""
        self.d.listeners.clear()
        assert self.d._journal is not None
        self.d._journal.close()
        if self.d._said is not None:
            self.d._said.close()




def of(log: list[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [ev for ev in log if ev["type"] == type_]


def keys(log: list[dict[str, Any]]) -> list[str]:
    return [ev["key"] for ev in log if ev["type"] == "say"]
