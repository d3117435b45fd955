"""A real `kikimimi serve` (simulated readers) SIGKILLed
right after each kind of timer in every real-time game — マフィア42's six
phases twice each, 闇に笑う魔女's night five times and 鬼探し's raise window twice
— and nothing announced is contradicted: every event told before any
kill is the event of that `seq` after every resume
(support.killtimer.check).

A kill costs a restart of `serve` (about a second), so the suite kills few:
the bug this guards (a timer not journaled) shows at the first kill after a
timer, which every kind gets here.  The three games run at once; about half a
minute in all.  Every limit counts from when its call has been heard, so the served
tables speak at 600 words a minute (`[audio] rate`, modelled: support.killtimer.RATE):
at the default 175 the modelled speech made the test take 132 s, at 600 it takes 49 s.
鬼探し's window counts from when the speaker has said the turn, the tokens and the
declaration, so it is killed twice.  `bench/kill_after_timer.py --kills 60` runs the big numbers."""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from support.killtimer import PLANS, check, run

#: Kills per game: every kind of timer at least twice in マフィア42 (its phases come round in turn).
KILLS = {"mafia42": 12, "witch": 5, "onisagashi": 2}


def test_a_kill_right_after_each_kind_of_timer_takes_nothing_back(tmp_path):
    with ThreadPoolExecutor(len(PLANS)) as pool:
        runs = {game: pool.submit(run, make(), tmp_path / game, KILLS[game], timeout=300)
                for game, make in PLANS.items()}
        outcomes = {game: future.result() for game, future in runs.items()}
    for game, outcome in outcomes.items():
        plan = PLANS[game]()
        assert outcome.problems == [], game
        assert sum(outcome.kills.values()) >= KILLS[game], (game, outcome.kills)
        assert set(outcome.kills) == set(plan.kinds), (game, outcome.kills)  # every kind of timer
        assert outcome.told > 10 * KILLS[game]  # a real game was played, not a table stuck at its deal


def test_the_check_finds_an_announcement_taken_back(tmp_path):
    """The harness itself can fail: a told event that the journal contradicts."""
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"game": "mafia42", "players": 4, "options": {"jobs": ["mafia", "citizen", "citizen", "police"]}}\n'
                       '{"t": 0.1, "reader": "hand", "seat": 2, "tag": "cmd:hint"}\n')
    told = [{"seq": 1, "t": 0.0, "type": "say", "in": 1, "to": "table", "key": "x", "text": "Seat 4 died."}]
    assert check(journal, told) and "not the journal's" in check(journal, told)[0]
