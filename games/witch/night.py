"""The night's resolution, in the seed's priority order (能力発動の優先順位).

Each step is one rule of `rules/witch.md`; `STEPS` is their order.  A step
reads the night's choices and the island's roles and writes only to the
`Settlement`: who leaves (the cause stays the referee's), which finding
reaches whom, which rule fired (the designer's report counts them).
"""
from __future__ import annotations

from collections.abc import Callable

from kikimimi.roles import Night, Roster, Settlement

from .rules import finding


def steps(roster: Roster, exorcism: int | None) -> list[Callable[[Night, Settlement], None]]:
    """The night's steps for this island; `exorcism` is the priest's standing mark."""

    def exorcise(night: Night, result: Settlement) -> None:
        # The mark was made by day and survives the priest's banishment tonight.
        if exorcism is None:
            return
        if roster.role(exorcism) in ("imp", "familiar") and roster.is_alive(exorcism):
            result.remove(exorcism, "exorcised")
            result.fire("exorcism-hit")
        else:
            result.fire("exorcism-miss")

    def mirror(night: Night, result: Settlement) -> None:
        for seat, target in night.choices("mirror").items():
            result.notes["mirror"] = (seat, target, finding(roster.role(target)))
            if roster.role(target) == "imp":
                result.remove(target, "mirrored")  # even if the imp is banished tonight
                result.fire("mirror-imp")

    def guard(night: Night, result: Settlement) -> None:
        result.notes["guarded"] = night.target("guard")

    def banish(night: Night, result: Settlement) -> None:
        target = night.target("banish")
        if target is None:
            result.fire("banish-none")
        elif target == result.notes.get("guarded"):
            result.fire("guard-saved")
        elif roster.role(target) == "imp":
            result.fire("banish-imp-immune")
        else:
            result.remove(target, "banished")
            result.fire("banish")

    def tell(night: Night, result: Settlement) -> None:
        # A mirror-user who leaves tonight is never told (priority rules 1 and 2).
        seen = result.notes.get("mirror")
        if not seen:
            return
        seat = seen[0]  # type: ignore[index]
        if seat in result.removed:
            result.fire("mirror-untold")
            result.notes.pop("mirror")
        if roster.role(seen[1]) == "imp" and seat in result.removed:  # type: ignore[index]
            result.fire("mirror-imp-both-leave")

    return [exorcise, mirror, guard, banish, tell]
