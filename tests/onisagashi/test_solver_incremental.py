"""The analysis a bot extends declaration by declaration equals the one built from nothing.

`Analysis.following` keeps the rows of the declared cards and applies only the
newest declarations (docs/onisagashi.md, Deduction); these tests hold it to
`Analysis(knowledge)` after every observation: the same rows in the same order
(so the same floating-point sums), weights, representatives, matrix and best
declaration, over seeded bot games and random positions of every size.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from kikimimi.design.sim import play
from kikimimi_games.onisagashi.knowledge import Declaration, Knowledge
from kikimimi_games.onisagashi.solver import Analysis, Contradiction
from .views import seat_views

from . import brute


def assert_same(inc: Analysis, scratch: Analysis) -> None:
    a, b = inc._rows, scratch._rows
    assert a.cards == b.cards
    assert a.free_rest == b.free_rest
    assert a.own.dtype == b.own.dtype and np.array_equal(a.own, b.own)
    assert np.array_equal(a.weight, b.weight)
    assert inc.rep == scratch.rep
    assert inc.deals == scratch.deals
    assert inc.matrix() == scratch.matrix()
    assert inc.information() == scratch.information()
    assert inc.best() == scratch.best()


@pytest.mark.parametrize("rules,players,seeds", [("beginner", 5, range(1, 4)), ("advanced", 5, range(1, 4)),
                                                 ("advanced", 3, range(4, 6)), ("beginner", 6, range(6, 8))])
def test_following_equals_scratch_over_bot_games(rules, players, seeds):
    """One analysis per seat carried over whole games (rounds too): equal to a fresh one every time."""
    for seed in seeds:
        _, log = play("onisagashi", seed, players, {"rules": rules}, "best")
        last: dict[int, Analysis] = {}
        views = 0
        for k in seat_views(log, rules, players):
            inc = last[k.me] = Analysis.following(k, last.get(k.me))
            assert_same(inc, Analysis(k))
            views += 1
        assert views > players * 3


@pytest.mark.parametrize("rules,players", [("beginner", 3), ("beginner", 4), ("beginner", 6),
                                           ("advanced", 3), ("advanced", 4), ("advanced", 6)])
def test_following_equals_scratch_on_random_positions(rules, players):
    """Random truthful histories, one declaration at a time, and on the empty start as well."""
    rng = random.Random(f"{rules}-{players}")
    for _ in range(12):
        k, _hands = brute.random_position(rng, rules, players, rng.randint(1, 10))
        inc = None
        for n in range(len(k.history) + 1):
            step = Knowledge(k.rules, k.players, k.me, k.hand, k.history[:n], k.counts)
            inc = Analysis.following(step, inc)
            assert_same(inc, Analysis(step))
        assert_same(Analysis.following(k), Analysis(k))


def test_a_changed_hand_or_history_starts_again():
    """The last analysis is used only when the new knowledge extends it: another round's hand, or a
    history it is not the start of, must not be filtered from it."""
    rng = random.Random(7)
    k1, _ = brute.random_position(rng, "beginner", 5, 6)
    k2, _ = brute.random_position(rng, "beginner", 5, 4)
    k2 = Knowledge(k2.rules, k2.players, k1.me, k2.hand, k2.history, k2.counts) if k2.hand == k1.hand else k2
    assert_same(Analysis.following(k2, Analysis(k1)), Analysis(k2))
    other = Knowledge(k1.rules, k1.players, k1.me, k1.hand, k2.history, k1.counts)
    try:
        expected = Analysis(other)
    except Contradiction:
        with pytest.raises(Contradiction):
            Analysis.following(other, Analysis.following(k1))
    else:
        assert_same(Analysis.following(other, Analysis.following(k1)), expected)


def test_a_contradiction_is_found_step_by_step():
    """A "have" for cards all in one's own hand is refused as `Analysis` refuses it."""
    k = Knowledge("beginner", 5, 1, frozenset({"mion", "tofu", "swamp"}))
    first = Analysis.following(k)
    bad = Knowledge("beginner", 5, 1, k.hand, (Declaration(2, ("mion", "tofu", "swamp"), frozenset({3})),), k.counts)
    with pytest.raises(Contradiction):
        Analysis(bad)
    with pytest.raises(Contradiction):
        Analysis.following(bad, first)
