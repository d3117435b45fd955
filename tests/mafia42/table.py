"""Table scripts for マフィア42's tests, on the layer's `Script`: a deal, then
nights and days in a few calls.

Phases are ended by the referee's `next`, as a table does when everyone has
acted; the timer tests let the clock run instead.  Lines are half a second
apart unless a test says otherwise.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.table.engine import run_script
from kikimimi.testkit.roles_script import Script, internal_errors, of, public_view, said

STEP = 0.5


class Table(Script):
    step = STEP
    def __init__(self, jobs: Sequence[str], lang: str = "en", **options: Any):
        super().__init__("mafia42", len(jobs), jobs=list(jobs), **options)
        self.lines[0]["lang"] = lang
        self.deal("mafia42", jobs, kind="job")

    def heard(self) -> "Table":
        """Let the clock run to the moment the phase begun last has been heard (its limit
        counts from then): the next line's `dt` is from that moment.  The moment is the
        table's own, read from a probe run that lets the clock run on."""
        begun = len(of(run_script(self.lines), "phase"))
        probe = run_script(self.lines + [{"t": self.t + 60, "reader": "hand", "seat": 1, "tag": "seat:1",
                                          "removed": True}])
        phase = of(probe, "phase")[begun - 1]
        at = next(e["t"] for e in of(probe, "phase-clock") if e["seq"] > phase["seq"])
        self.t = math.ceil(at * 1000) / 1000
        return self

    def next(self) -> "Table":
        return self.console("next")

    def night(self, acts: Mapping[int, int] | None = None) -> "Table":
        """Night acts (seat -> target), then the night ends: the morning's news."""
        for seat, target in (acts or {}).items():
            self.hand(seat, f"seat:{target}")
        return self.next()

    def day(self, votes: Mapping[int, int] | None = None, yes: Iterable[int] = (), no: Iterable[int] = ()) -> "Table":
        """From the morning: discussion, the vote, and (when ballots are given: someone
        is accused) the last defence and the approval."""
        yes, no = list(yes), list(no)
        self.next().next()  # morning -> discussion -> vote
        for seat, target in (votes or {}).items():
            self.hand(seat, f"seat:{target}")
        self.next()  # the vote closes
        if yes or no:
            self.next()  # defence -> approval
            for seat in yes:
                self.hand(seat, "cmd:yes")
            for seat in no:
                self.hand(seat, "cmd:no")
            self.next()  # the approval closes
        return self

    def quiet(self, rounds: int = 1) -> "Table":
        """Nights and days in which nobody acts."""
        for _ in range(rounds):
            self.night().day()
        return self


def power(log: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The latest `power` event's sides."""
    return of(log, "power")[-1]["sides"]


def over(log: list[dict[str, Any]]) -> dict[str, Any] | None:
    ends = of(log, "game-over")
    return ends[-1] if ends else None


__all__ = ["Table", "of", "said", "power", "over", "internal_errors", "public_view", "clocks", "ends"]


def clocks(log: list[dict[str, Any]], phase: str | None = None) -> list[dict[str, Any]]:
    """The public `phase-clock` events: when each phase's limit started counting (its
    announcement heard) and its seconds from then."""
    return [e for e in of(log, "phase-clock") if phase is None or e["phase"] == phase]


def ends(log: list[dict[str, Any]], phase: str, n: int = 0) -> float:
    """When the `n`th `phase` ends on its limit: its clock's start plus its seconds."""
    clock = clocks(log, phase)[n]
    return float(clock["t"]) + float(clock["seconds"])
