"""Issue 34: the watcher who recomputes the hidden-bribe dial's start assuming the default
seed (the adversary the issue first found; bench/watcher.py runs it on 1,000 games).  On a
table that kept the default it reads most first offers exactly; on a served table, whose
seed is drawn at random (kikimimi/secret_seed.py), it is at its blind twin's rate."""
from __future__ import annotations

import random

from kikimimi.script import Header
from kikimimi.secret_seed import with_secret_seed
from kikimimi.sim import play
from kikimimi.testing.watcher import Score, Watched, intrigue_bribe_by_default_seed

GAMES = 6
HIDDEN = {"bribes": "hidden"}


def _score(served: bool) -> Score:
    score = Score("first bribe's amount from the default seed", "a bribe's amount")
    rng = random.Random(3)
    for seed in range(1, GAMES + 1):
        options = dict(with_secret_seed(Header("intrigue", 4, dict(HIDDEN))).options) if served else {**HIDDEN, "seed": 0}
        script, log = play("intrigue", seed, 4, options, "ear")
        score.add(intrigue_bribe_by_default_seed(Watched.of(script, log), log, rng))
    return score


def test_the_default_seed_gave_the_first_bribe_away():
    leaky = _score(served=False)
    assert len(leaky.trials) == GAMES
    assert not leaky.holds and leaky.accuracy.low > leaky.base, leaky.line()


def test_a_served_tables_secret_seed_keeps_it():
    kept = _score(served=True)
    assert kept.trials and kept.holds and sum(t.hit for t in kept.trials) <= 2, kept.line()
