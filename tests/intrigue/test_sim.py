"""Bots that play by ear, and the designer's report of `kikimimi sim intrigue --games N`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.table.engine import Table
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.script import Header
from kikimimi_games.intrigue.bots import IntrigueSimulation
from kikimimi_games.intrigue.tuning import game_stats, report


def drive(seed: int, bot: str, **options):
    """The sim driver's loop, keeping the bots in hand to look into their memories."""
    table = Table(Header("intrigue", 4, options, "en", {}))
    sim = IntrigueSimulation(seed, 4, options, bot)
    log = table.start()
    sim.observe(log)
    n, t = 1, 0.0
    while not table.game.over and n < 5000:
        line = sim.next_input()
        assert line is not None
        t += float(line.pop("dt", 1.0))
        n += 1
        events = table.feed(n, {"t": t, **line})
        log += events
        sim.observe(events)
    return table.game, sim, log


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_what_the_bots_heard_is_the_whole_board(bot):
    game, sim, log = drive(7, bot)
    assert game.over and game.result["reason"] == "end"
    snap = game.snapshot()
    for b in sim.bots:
        assert b.gardens == snap["gardens"]
        assert b.sections == snap["sections"]
        assert sorted(b.hand) == sorted(snap["hands"][b.seat])
        assert b.cash == snap["cash"][b.seat]  # its own balance, from its whispers alone


def test_the_bots_hear_only_what_their_seat_may_know(monkeypatch):
    from kikimimi_games.intrigue import bots

    heard: list[tuple[int, dict]] = []
    original = bots.Bot.hear

    def spy(self, ev):
        heard.append((self.seat, dict(ev)))
        return original(self, ev)

    monkeypatch.setattr(bots.Bot, "hear", spy)
    game, sim, log = drive(3, "mixed", bribes="hidden")
    assert game.result["reason"] == "end"
    assert {seat for seat, _ in heard} == {1, 2, 3, 4}
    assert all(visible_to(ev, seat) for seat, ev in heard)
    secret = [ev for _, ev in heard if ev["type"] == "cash"]
    assert secret and all(ev["private"] == f"seat:{seat}" for seat, ev in heard if ev["type"] == "cash")


def test_greedy_bribes_more_in_a_conflict():
    logs = [drive(seed, "greedy")[2] for seed in (11, 12)]
    amounts: dict[bool, list[int]] = {True: [], False: []}
    for log in logs:
        conflict = {}
        for e in log:
            if e["type"] == "say" and e["key"] in ("offer-call", "offer-call-employed"):
                conflict[e["params"]["advisor"]] = e["params"]["conflict"]
            elif e["type"] == "offer":
                amounts[conflict[e["advisor"]]].append(e["amount"])
    assert amounts[True] and amounts[False]
    assert sum(amounts[True]) / len(amounts[True]) > sum(amounts[False]) / len(amounts[False])


def test_report_figures():
    logs = [drive(s, "greedy")[2] for s in (1, 2)]
    text = report([game_stats(log) for log in logs], 4)
    for needle in ("win rate by seat", "final cash", "bribes paid per game", "conflicts per game"):
        assert needle in text


def test_sim_games_prints_the_designers_report():
    run = subprocess.run([sys.executable, "-m", "kikimimi.cli", "sim", "intrigue", "--games", "4",
                          "--bot", "mixed", "--option", "edition=amigo"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "Intrige: 4 bot games, 4 players" in run.stdout
    assert "seat 1 (greedy)" in run.stdout and "seat 2 (random)" in run.stdout


def test_an_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="greedy"):
        IntrigueSimulation(1, 4, {}, "clever")


def test_the_simulated_table_config_serves_a_recorded_game(tmp_path):
    """games/intrigue/sim.toml: four hand readers and no field reader run a whole bot game."""
    config = Path(__file__).parents[2] / "games" / "intrigue" / "sim.toml"
    record, events = tmp_path / "game.jsonl", tmp_path / "events.jsonl"
    sim = subprocess.run([sys.executable, "-m", "kikimimi.cli", "sim", "intrigue", "--seed", "5",
                          "--record", str(record)], capture_output=True, text=True, timeout=120)
    assert sim.returncode == 0, sim.stderr
    served = subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", str(config), "--sim-readers",
                             str(record), "--speed", "0", "--journal", str(tmp_path / "journal.jsonl"),
                             "--voice", "text", "--quiet", "--events", str(events)],
                            capture_output=True, text=True, timeout=120)
    assert served.returncode == 0, served.stderr
    want = [json.loads(line) for line in sim.stdout.splitlines()]
    got = [json.loads(line) for line in events.read_text().splitlines()]
    got = [ev for ev in got if not ev.get("evening")]  # the table's own lines between games (docs/evening.md)
    strip = lambda ev: {k: v for k, v in ev.items() if k not in ("t", "text")}  # noqa: E731
    assert [strip(e) for e in got] == [strip(e) for e in want]
    assert got[-1]["text"].endswith("ducats.")  # the config's table speaks its own language
