"""What every installed game must do through the real CLI (CONTRACT.md)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kikimimi.phrases import Phrasebook
from kikimimi.registry import game_class, game_names

GAMES = [name for name in game_names() if name != "toy"]


def kikimimi(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("game", GAMES)
def test_sim_record_then_replay_prints_the_identical_log(game, tmp_path):
    record = tmp_path / "game.jsonl"
    sim = kikimimi("sim", game, "--seed", "4", "--record", str(record))
    assert sim.returncode == 0, sim.stderr
    replay = kikimimi("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == sim.stdout
    log = [json.loads(line) for line in sim.stdout.splitlines()]
    assert log[-1]["type"] == "game-over" or any(ev["type"] == "game-over" for ev in log)
    assert not [ev for ev in log if ev["type"] == "error" and ev["message"].startswith("internal error")]


@pytest.mark.parametrize("game", GAMES)
def test_public_replay_holds_no_private_event(game, tmp_path):
    record = tmp_path / "game.jsonl"
    assert kikimimi("sim", game, "--seed", "2", "--record", str(record)).returncode == 0
    public = [json.loads(line) for line in kikimimi("replay", "--public", str(record)).stdout.splitlines()]
    assert public
    assert all("private" not in ev for ev in public)
    assert all(ev["to"] == "table" for ev in public if ev["type"] == "say")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_game_has_phrases_in_both_languages(game, lang):
    book = Phrasebook(lang, ("core", game_class(game).name))
    assert len(book.phrases) > 5
    # Japanese may use kanji: Open JTalk reads it (tests/voice/test_japanese.py pins readings).
