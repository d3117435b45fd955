"""Night actions with cover, settled in the game's declared order.

Cover: every living seat scans a seat token at night, whether or not its role
acts, so the sound of scanning gives nobody away; the night is complete when
every living seat has scanned.  A role's action kind may be `joint` (one
choice for the whole team: whoever scans last sets it; each scan is counted,
闇に笑う魔女's laughs) or `final` (acts at once and cannot be changed, the
mirror).  Settling runs the game's steps in order on one `Settlement`, which
records who leaves and why (the cause stays the referee's) and which rules
fired (for the designer's report).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar


@dataclass
class Night:
    living: frozenset[int]
    kinds: Mapping[int, str | None]  # seat -> its action kind tonight, None = cover only
    joint: frozenset[str] = frozenset()
    final: frozenset[str] = frozenset()
    scanned: dict[int, int] = field(default_factory=dict)  # seat -> its latest scan
    team_choice: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind -> (target, by seat)
    acts: Counter = field(default_factory=Counter)  # kind -> scans that set or changed it

    @classmethod
    def open(cls, living: Iterable[int], kinds: Mapping[int, str | None], *,
             joint: Collection[str] = (), final: Collection[str] = ()) -> "Night":
        alive = frozenset(living)
        return cls(alive, {s: kinds.get(s) for s in alive}, frozenset(joint), frozenset(final))

    def kind(self, seat: int) -> str | None:
        return self.kinds.get(seat)

    def refusal(self, seat: int, target: int) -> str | None:
        if seat not in self.living:
            return "night-not-living"
        kind = self.kinds.get(seat)
        if kind in self.final and seat in self.scanned:
            return "night-final"
        if kind is not None and target not in self.living:
            return "night-not-living-target"
        return None

    def choose(self, seat: int, target: int) -> bool:
        """Record a scan (True when it set or changed an action)."""
        if self.refusal(seat, target):
            raise ValueError(f"seat {seat} may not choose {target} tonight")
        kind = self.kinds.get(seat)
        before = self.scanned.get(seat)
        self.scanned[seat] = target
        if kind is None:
            return False
        if kind in self.joint:
            changed = self.team_choice.get(kind, (None, 0))[0] != target
            self.team_choice[kind] = (target, seat)
        else:
            changed = before != target
        if changed:
            self.acts[kind] += 1
        return changed

    def target(self, kind: str) -> int | None:
        """The team's choice for a joint kind; for a single holder, its choice."""
        if kind in self.joint:
            return self.team_choice.get(kind, (None, 0))[0]
        picks = self.choices(kind)
        return next(iter(picks.values()), None)

    def choices(self, kind: str) -> dict[int, int]:
        """seat -> target for every seat that chose as `kind`."""
        return {s: t for s, t in sorted(self.scanned.items()) if self.kinds.get(s) == kind}

    @property
    def waiting(self) -> list[int]:
        return sorted(self.living - set(self.scanned))

    @property
    def complete(self) -> bool:
        return not self.waiting


@dataclass
class Settlement:
    removed: dict[int, str] = field(default_factory=dict)  # seat -> cause, first cause kept
    fired: Counter = field(default_factory=Counter)
    notes: dict[str, object] = field(default_factory=dict)

    def remove(self, seat: int, cause: str) -> None:
        self.removed.setdefault(seat, cause)

    def fire(self, rule: str) -> None:
        self.fired[rule] += 1


N = TypeVar("N")
Step = Callable[[N, Settlement], None]


def settle(night: N, steps: Sequence[Step[N]]) -> Settlement:
    """Run the game's resolution steps in their declared order.  `night` is
    usually a `Night`; a game whose night records more (マフィア42's dead
    targets for the medium and the clergy, abilities lost mid-night) passes
    its own record, and its steps read that."""
    result = Settlement()
    for step in steps:
        step(night, result)
    return result
