"""Table scripts for マフィア42's tests, on the layer's `Script`: a deal, then
nights and days in a few calls.

Phases are ended by the referee's `next`, as a table does when everyone has
acted; the timer tests let the clock run instead.  Lines are half a second
apart unless a test says otherwise.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.testkit.roles_script import Script, internal_errors, of, public_view, said

STEP = 0.5


class Table(Script):
    step = STEP
    def __init__(self, jobs: Sequence[str], lang: str = "en", **options: Any):
        super().__init__("mafia42", len(jobs), jobs=list(jobs), **options)
        self.lines[0]["lang"] = lang
        self.deal("mafia42", jobs, kind="job")

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


__all__ = ["Table", "of", "said", "power", "over", "internal_errors", "public_view"]
