"""The ear bots' ballots come in over the vote, as a table's do, at moments drawn
alike whatever the job (before, every ballot was cast in the vote's first second, so no
live tally reading ever had a ballot to tell and the watcher's vote adversary no trial)."""
from __future__ import annotations

import random

from kikimimi.bots.ear import Heard
from kikimimi.design.sim import play
from kikimimi_games.mafia42.ear import Mafia42Ear, VotePace

TEAMS = {"mafia": "mafia", "police": "citizens"}
JOBS = {"Mafia": "mafia", "Police": "police"}


def _moment(job: str) -> float:
    pace = VotePace()
    bot = Mafia42Ear(1, 8, TEAMS, JOBS, random.Random(11), pace)
    bot.hear(Heard("seat:1", "your-role", {"role": job}, ""))
    bot.hear(Heard("table", "vote-start", {"day": 1, "seconds": 15}, ""))
    return pace.due[1]


def test_a_ballots_moment_does_not_depend_on_the_job():
    assert _moment("Mafia") == _moment("Police")


def test_ballots_are_spread_over_the_vote_and_some_come_after_a_reading_moment():
    offsets: list[float] = []
    for seed in range(1, 6):
        script, log = play("mafia42", seed, 8, {}, "ear")
        opens = [e["t"] for e in log if e["type"] == "phase" and e["phase"] == "vote"]
        ends = [e["t"] for e in log if e["type"] == "phase" and e["t"] > min(opens, default=0)]
        for start in opens:
            end = min((t for t in ends if t > start), default=start + 15)
            offsets += [line["t"] - start for line in script[1:]
                        if line.get("reader") == "hand" and start < line["t"] <= end]
    assert offsets and min(offsets) < 2 and max(offsets) > 5  # not all in the first second
    assert all(o < 14 for o in offsets)  # never after the vote's end (a refused scan)
    assert len({round(o, 1) for o in offsets}) > len(offsets) // 3
