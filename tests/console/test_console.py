"""The console, headless (Textual's pilot), against a real `kikimimi serve` process.

A two-player Trident table with simulated readers: the deal is typed on the
serve process's stdin (as the readers would send it), and everything the
referee does goes through the console's command line.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kikimimi.api import paths
from kikimimi.console.app import ConfirmUndo, ConsoleApp
from kikimimi.table.engine import Table
from kikimimi.contract.script import read_script, without_undone
from kikimimi.testkit.tables import sim_table_toml

CONFIG = sim_table_toml("trident", 2, journal="j.jsonl")
DEAL = [f"1 heart-{i}" for i in range(1, 6)] + [f"2 spade-{i}" for i in range(1, 6)]
HAND_PIECES = [line.split()[1] for line in DEAL]


@pytest.fixture
def served(tmp_path):
    """A real table process; yields (tmp dir, process); stopped by closing stdin."""
    (tmp_path / "table.toml").write_text(CONFIG)
    kikimimi = Path(sys.executable).with_name("kikimimi")
    proc = subprocess.Popen([str(kikimimi), "serve", "table.toml", "--voice", "text", "--quiet"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path)
    sock = paths.referee_socket(tmp_path / "j.jsonl")
    end = time.monotonic() + 20
    while not paths.public_socket(tmp_path / "j.jsonl").exists():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < end, "serve never opened its API"
        time.sleep(0.05)
    yield tmp_path, proc, sock
    proc.stdin.close()
    assert proc.wait(timeout=20) == 0
    assert not sock.exists()  # the API cleaned up after itself


async def _until(pilot, predicate, what, timeout=10.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await pilot.pause(0.05)


async def _type(pilot, text):
    pilot.app.query_one("#command").value = text
    await pilot.press("enter")


def _replayed_game(journal: Path) -> dict:
    parsed = read_script(journal)
    table = Table(parsed.header)
    table.start()
    for number, item in without_undone(parsed.lines):
        table.feed(number, item)
    return json.loads(json.dumps(table.game.snapshot()))


async def test_referees_and_a_spectator_follow_one_real_table(served):
    tmp, proc, sock = served
    referee, second = ConsoleApp(sock), ConsoleApp(sock)
    spectator = ConsoleApp(paths.public_socket(tmp / "j.jsonl"), spectator=True)
    async with referee.run_test(size=(120, 40)) as pilot, second.run_test(size=(120, 40)) as p2, \
            spectator.run_test(size=(120, 40)) as p3:
        await _until(pilot, lambda: referee.snapshot and spectator.header, "the welcome")
        for line in DEAL:  # the readers deal five pieces to each seat
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        await _until(pilot, lambda: referee.snapshot["game"]["phase"] == "opening", "the deal")
        assert "seat 1: 5 pieces (heart-1, heart-2, heart-3, heart-4, heart-5)" in referee.table_view

        await _type(pilot, "penalty 2")  # a command changes the game...
        await _until(pilot, lambda: referee.snapshot["game"]["owed"]["2"] == 2, "the penalty")
        assert "penalty 2: done" in referee.status_text
        # ...and the second console sees it
        await _until(p2, lambda: "seat 2: 5 pieces (spade-1, spade-2, spade-3, spade-4, spade-5) owes 2"
                     in second.table_view, "the second console")
        await _type(pilot, "lost 1")  # a reader marked lost is an input too
        await _until(p2, lambda: second.health.get("hand 1") == "lost", "reader health")
        assert "hand 1: LOST" in str(second.query_one("#health").content)
        await _type(pilot, "suit purple")  # the game refuses; the console says why
        await _until(pilot, lambda: "refused" in referee.status_text, "the refusal")
        assert "'purple' is not one of heart" in referee.status_text

        # the spectator saw the public side of all that, never a piece in a hand
        await _until(p3, lambda: any("penalty seat=2" in line for line in spectator.spoken), "public events")
        seen = "\n".join(spectator.spoken) + spectator.table_view
        assert not any(piece in seen for piece in HAND_PIECES), seen
        assert "pieces (" not in spectator.table_view and not spectator.query("#command")  # watch only
        assert any(piece in "\n".join(referee.spoken) for piece in HAND_PIECES)  # the referee hears them

    journal = [item for _, item in read_script(tmp / "j.jsonl").lines]
    assert {"console": "penalty 2"}.items() <= journal[-3].items()  # logged like any input
    assert {"reader": "hand", "seat": 1, "lost": True}.items() <= journal[-2].items()


async def test_undo_shows_what_it_takes_back_asks_once_and_restores_the_replay(served):
    tmp, proc, sock = served
    referee = ConsoleApp(sock)
    async with referee.run_test(size=(120, 40)) as pilot:
        await _until(pilot, lambda: referee.snapshot, "the welcome")
        for line in DEAL:
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        await _until(pilot, lambda: referee.snapshot["game"]["phase"] == "opening", "the deal")
        before = referee.snapshot["game"]
        assert before == _replayed_game(tmp / "j.jsonl")
        await _type(pilot, "penalty 1")
        await _until(pilot, lambda: referee.snapshot["game"]["owed"]["1"] == 2, "the penalty")

        await _type(pilot, "undo")  # shown, and "no" sends nothing
        await _until(pilot, lambda: "Undo line 12: the console command 'penalty 1'?" in referee.status_text,
                     "the question")
        assert isinstance(referee.screen, ConfirmUndo)
        assert "penalty 1" in str(referee.screen.query_one("#question").content)
        await pilot.press("n")
        await _until(pilot, lambda: "cancelled" in referee.status_text, "the cancel")
        assert len(read_script(tmp / "j.jsonl").lines) == 11

        await _type(pilot, "undo")
        await _until(pilot, lambda: "Undo line 12" in referee.status_text, "the question again")
        await pilot.press("y")
        await _until(pilot, lambda: referee.snapshot["game"]["owed"]["1"] == 0, "the undo")
        assert referee.snapshot["game"] == before == _replayed_game(tmp / "j.jsonl")
        assert any("undo: line 12 taken back: the console command 'penalty 1'" in line
                   for line in referee.spoken)
        assert "Undo would take back line 11: spade-5 put on seat 2's hand reader" in str(
            referee.query_one("#last").content)


async def test_a_console_without_the_secret_is_refused(served):
    tmp, proc, sock = served
    app = ConsoleApp(sock, secret="not-the-secret")
    async with app.run_test() as pilot:
        await _until(pilot, lambda: app.return_code is not None, "the refusal")
    assert app.return_code == 2 and "secret" in app.return_value
    assert app.snapshot is None and app.spoken == []
    assert stat_mode(sock) == 0o600


def stat_mode(path: Path) -> int:
    return os.stat(path).st_mode & 0o777
