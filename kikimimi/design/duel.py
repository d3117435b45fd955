"""One bot kind against another, deal by deal: the designer's report of a bot's skill.

A contender bot takes one seat (rotated with the seed, so no seat's advantage
counts as skill) among the baseline bots; every seed is then played again
with a baseline bot in that seat.  The same seed deals the same game, so the
difference of the two plays is the contender's doing plus the bots' own
chance, and its interval (paired by seed) says whether it is real.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kikimimi.design import confidence
from kikimimi.design.tuning import CONTENDER, Row, Trial, focal_seat, paired_trials

__all__ = ["CONTENDER", "focal_seat", "outcomes", "paired_trials", "place_shares", "text"]


def outcomes(rows: Sequence[Row], place: Callable[[Trial, Any], int]) -> dict[str, list[tuple[int, int]]]:
    """(won, place) of the focal seat, by label, in seed order."""
    by: dict[str, list[tuple[int, int]]] = {}
    for trial, stats in rows:
        p = place(trial, stats)
        by.setdefault(str(trial.label), []).append((int(p == 1), p))
    return by


def text(title: str, contender: str, baseline: str, by: dict[str, list[tuple[int, int]]], players: int) -> str:
    """The two plays side by side and their paired difference, with 95 % intervals."""
    a, b = by.get(CONTENDER, []), by.get(baseline, [])
    lines = [f"{title}: {len(a)} deals, each played both ways, {players} players"]
    for who, xs in ((contender, a), (baseline, b)):
        wins = sum(w for w, _ in xs)
        lines.append(f"  {who:>8}: win rate {confidence.rate(wins, len(xs)).percent()}, "
                     f"mean place {confidence.mean([p for _, p in xs]).mean()}")
    if a and len(a) == len(b):
        win = confidence.paired([w for w, _ in a], [w for w, _ in b])
        place = confidence.paired([p for _, p in a], [p for _, p in b])
        lines.append(f"  {contender} − {baseline}: win rate {win.points()}, {confidence.verdict(win)}; "
                     f"mean place {place.plain()}, {confidence.verdict(place)}")
    lines.append(f"  (fair share of wins: {1 / players:.1%}; intervals are 95 %, paired by deal)")
    return "\n".join(lines)


def place_shares(by: dict[str, list[tuple[int, int]]], players: int) -> dict[str, list[float]]:
    """Each label's share of games at each place (the duel's plot)."""
    return {who: [sum(p == k for _, p in xs) / len(xs) for k in range(1, players + 1)]
            for who, xs in by.items() if xs}
