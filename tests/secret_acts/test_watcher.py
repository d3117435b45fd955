"""The watcher's adversaries (bench/watcher.py runs them on 1,000 games per game).

A few dozen ear-bot games here: each adversary runs, the same-motions rule keeps the
priest's day scans at the base rate, and the old rule (a power used whenever its holder
likes, `day_acts = "free"`) is caught."""
from __future__ import annotations

import random

from kikimimi.design.sim import play
from support.watcher import (ADVERSARIES, Score, TrainedGuess, Watched, intrigue_bribe_trials,
                                      witch_priest_by_day_scans)

GAMES = 15


def _priest_score(options: dict) -> Score:
    score = Score("priest by day scans", "a role")
    rng = random.Random(7)
    for seed in range(1, GAMES + 1):
        script, log = play("witch", seed, 8, options, "ear")
        score.add(witch_priest_by_day_scans(Watched.of(script, log), log, rng))
    return score


def test_the_watcher_never_sees_a_hand_scans_piece():
    script, log = play("witch", 1, 8, {}, "ear")
    watched = Watched.of(script, log)
    assert watched.scans and all(s.piece is None for s in watched.scans if s.seat is not None)
    assert all("private" not in e and e.get("to", "table") == "table" for e in watched.public)


def test_the_priest_adversary_catches_the_old_rule_and_not_the_new():
    leaky = _priest_score({"day_acts": "free"})
    assert not leaky.holds and leaky.accuracy.low > leaky.base, leaky.line()
    kept = _priest_score({})
    assert kept.holds, kept.line()


def test_every_adversary_runs_on_a_few_games():
    for game, (options, adversaries) in ADVERSARIES.items():
        rng = random.Random(1)
        for seed in (1, 2, 3):
            script, log = play(game, seed, {"witch": 8, "mafia42": 8, "onisagashi": 5}[game], options, "ear")
            watched = Watched.of(script, log)
            for _name, _secret, adversary in adversaries:
                for trial in adversary(watched, log, rng):
                    assert 0 <= trial.base <= 1
    guess = TrainedGuess()
    script, log = play("intrigue", 1, 4, {"bribes": "hidden"}, "ear")
    pairs = intrigue_bribe_trials(Watched.of(script, log), log)
    assert pairs
    guess.learn(pairs)
    assert all(0 < t.base <= 1 for t in guess.trials(pairs))


def test_the_declarers_card_adversary_reads_a_lifted_own_token():
    """The leaky motion left by the ruling: a declarer that puts its own card down and takes
    it back shows it.  (Ear bots never do: they ask their assistant first.)"""
    from kikimimi.table.engine import run_script
    from support.watcher import oni_declarer_card

    from .test_leaks import oni_dealt

    lines = oni_dealt()
    t = float(len(lines))
    for tag, removed in (("mion", False), ("mion", True), ("rena", False), ("nata", False), ("dam", False)):
        t += 1
        lines.append({"t": t, "reader": "field", "tag": f"oni:token-{tag}", **({"removed": True} if removed else {})})
    lines.append({"t": t + 1, "console": "next"})  # the referee calls the settled declaration
    log = run_script(lines)
    trials = oni_declarer_card(Watched.of(lines, log), log, random.Random(1))
    assert trials and trials[0].hit and trials[0].base < 0.5


def test_only_an_interval_above_the_base_rate_is_a_leak():
    from support.watcher import Trial

    def score(hits: int, of: int, base: float) -> Score:
        s = Score("a", "a secret")
        s.add(Trial(i < hits, base) for i in range(of))
        return s

    above, level, below = score(600, 1000, 0.5), score(500, 1000, 0.5), score(400, 1000, 0.5)
    assert above.leaks and not above.holds and "LEAKS" in above.line()
    assert level.holds and not level.leaks and "holds" in level.line()
    assert not below.holds and not below.leaks and "no leak" in below.line()
