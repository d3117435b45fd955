"""Table scripts for マフィア42's tests: a deal, then nights and days in a few calls.

Phases are ended by the referee's `next`, as a table does when everyone has
acted; the timer tests let the clock run instead.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.engine import public_view, run_script


class Table:
    def __init__(self, jobs: Sequence[str], lang: str = "en", **options: Any):
        self.lines: list[dict[str, Any]] = [
            {"game": "mafia42", "players": len(jobs), "lang": lang, "options": {"jobs": list(jobs), **options}}]
        self.t = 0.0
        seen: dict[str, int] = {}
        for seat, job in enumerate(jobs, 1):
            seen[job] = seen.get(job, 0) + 1
            self.hand(seat, f"mafia42:job-{job}-{seen[job]}")

    def add(self, line: dict[str, Any], dt: float = 0.5) -> "Table":
        self.t = round(self.t + dt, 3)
        self.lines.append({"t": self.t, **line})
        return self

    def hand(self, seat: int, tag: str, dt: float = 0.5) -> "Table":
        return self.add({"reader": "hand", "seat": seat, "tag": tag}, dt)

    def console(self, text: str, dt: float = 0.5) -> "Table":
        return self.add({"console": text}, dt)

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

    def run(self) -> list[dict[str, Any]]:
        return run_script(self.lines)


def of(log: list[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == type_]


def said(log: list[dict[str, Any]], key: str, to: str | None = None) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == "say" and e["key"] == key and (to is None or e["to"] == to)]


def power(log: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The latest `power` event's sides."""
    return of(log, "power")[-1]["sides"]


def over(log: list[dict[str, Any]]) -> dict[str, Any] | None:
    ends = of(log, "game-over")
    return ends[-1] if ends else None


def internal_errors(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == "error" and e["message"].startswith("internal error")]


__all__ = ["Table", "of", "said", "power", "over", "internal_errors", "public_view"]
