"""Votes: private until the count, changeable, weighted, with revote rules.

A `Vote` is one round.  The game decides when to publish (`totals()` at any
moment gives a live tally where the rules want one) and what a tie means:
`decide` applies the tie rules in order — `"cumulative"` (most votes over all
rounds among the tied), `"lot"` (a draw) — and returns nobody when they run
out (マフィア42's tie: nobody is accused).
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Vote:
    voters: frozenset[int]
    candidates: frozenset[int]
    round: int = 1
    self_vote: bool = False
    weights: Mapping[int, float] = field(default_factory=dict)
    ballots: dict[int, int] = field(default_factory=dict)

    @classmethod
    def open(cls, voters: Iterable[int], candidates: Iterable[int] | None = None, **kw: Any) -> "Vote":
        vs = frozenset(voters)
        return cls(vs, frozenset(candidates) if candidates is not None else vs, **kw)

    def refusal(self, voter: int, target: int) -> str | None:
        """Why this ballot is not allowed (a phrase key), or None."""
        if voter not in self.voters:
            return "vote-no-right"
        if target not in self.candidates:
            return "vote-not-candidate"
        if target == voter and not self.self_vote:
            return "vote-not-self"
        return None

    def cast(self, voter: int, target: int) -> bool:
        """Record or change a ballot (True when it changed anything)."""
        if self.refusal(voter, target):
            raise ValueError(f"seat {voter} may not vote for {target}")
        changed = self.ballots.get(voter) != target
        self.ballots[voter] = target
        return changed

    def withdraw(self, voter: int) -> bool:
        return self.ballots.pop(voter, None) is not None

    @property
    def missing(self) -> list[int]:
        return sorted(self.voters - set(self.ballots))

    @property
    def complete(self) -> bool:
        return not self.missing

    def totals(self) -> dict[int, float]:
        """Votes per target (weighted), only targets with votes, in seat order."""
        out: dict[int, float] = {}
        for voter, target in sorted(self.ballots.items()):
            out[target] = out.get(target, 0) + self.weights.get(voter, 1)
        return {k: _num(v) for k, v in sorted(out.items())}

    def leaders(self) -> list[int]:
        t = self.totals()
        if not t:
            return []
        top = max(t.values())
        return [s for s, v in t.items() if v == top]


@dataclass(frozen=True)
class Decision:
    seat: int | None
    how: str  # "single", "cumulative", "lot", "tie" (no rule left) or "none" (no ballots)


def decide(rounds: Sequence[Vote], tie_rules: Sequence[str] = (), rng: random.Random | None = None) -> Decision:
    """Who the last round (with earlier rounds for "cumulative") removes."""
    leaders = rounds[-1].leaders()
    if not leaders:
        return Decision(None, "none")
    if len(leaders) == 1:
        return Decision(leaders[0], "single")
    for rule in tie_rules:
        if rule == "cumulative":
            sums = {s: sum(r.totals().get(s, 0) for r in rounds) for s in leaders}
            top = max(sums.values())
            leaders = [s for s in leaders if sums[s] == top]
            if len(leaders) == 1:
                return Decision(leaders[0], "cumulative")
        elif rule == "lot":
            return Decision((rng or random.Random(0)).choice(leaders), "lot")
        else:
            raise ValueError(f"unknown tie rule {rule!r}")
    return Decision(None, "tie")


def _num(v: float) -> float:
    return int(v) if float(v).is_integer() else v
