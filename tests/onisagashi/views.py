"""Every knowledge state a 鬼探し game's seats pass through, read from the game's log.

The solver's test (tests/onisagashi/test_solver_incremental.py) and its bench
(bench/onisagashi_solver.py) walk the same states: a seat's hand as its earphone
heard it, and the public declarations with who said "have".
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from kikimimi_games.onisagashi.cards import CARD_PREFIX, hand_counts
from kikimimi_games.onisagashi.knowledge import Declaration, Knowledge


def seat_views(log: Iterable[Mapping[str, Any]], rules: str, players: int) -> Iterator[Knowledge]:
    """Every (seat, knowledge) after the deal and after each declaration, seat by seat."""
    counts = hand_counts(rules, players)
    hands: dict[int, set[str]] = {}
    history: list[Declaration] = []
    for ev in log:
        if ev["type"] == "round":
            hands, history = {s: set() for s in range(1, players + 1)}, []
        elif ev["type"] == "say" and ev["key"] == "hand-card":
            hands[int(ev["to"].split(":")[1])].add(ev["params"]["card"].removeprefix(CARD_PREFIX))
        elif ev["type"] in ("dealt", "answers"):
            if ev["type"] == "answers":
                history.append(Declaration(ev["seat"], tuple(ev["cards"]), frozenset(ev["have"])))
            for s in range(1, players + 1):
                yield Knowledge(rules, players, s, frozenset(hands[s]), tuple(history), counts)
