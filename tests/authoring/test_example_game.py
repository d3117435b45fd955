"""docs/authoring.md's game is real: an outside package (examples/highcard) that adds a game
through its entry point alone, and passes the same contract as every game shipped here."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "highcard"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The example installed as a third party would install it, into a folder of its own."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "-q",
                    "--target", str(target), str(EXAMPLE)], check=True, capture_output=True)
    return target


def _with(site: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_the_installed_game_passes_every_games_contract(site):
    run = _with(site, "-m", "pytest", "tests/test_every_game.py", "-q", "-k", "highcard", "-p", "no:cacheprovider")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", run.stdout).group(1))
    assert passed >= 10  # every contract test ran for it; none was skipped or deselected away


def test_its_own_files_are_found_through_it(site, tmp_path):
    """Phrases in both languages, its simulated table (served by name), its report."""
    ja = _with(site, "-m", "kikimimi.cli", "sim", "highcard", "--lang", "ja", "--narrate", "--seed", "2")
    assert ja.returncode == 0 and "山札から一枚引いて" in ja.stdout and "勝ちです" in ja.stdout, ja.stderr
    probe = "from kikimimi.table.config import load_table_config as l; c = l('highcard'); print(c.game, c.players)"
    table = _with(site, "-c", probe, cwd=tmp_path)
    assert table.stdout.split() == ["highcard", "3"], table.stderr
    report = _with(site, "-m", "kikimimi.cli", "sim", "highcard", "--games", "12")
    assert report.returncode == 0 and report.stdout.startswith("High card: 12 bot games"), report.stderr


def test_the_guide_shows_the_files_as_they_are():
    """Every code block the guide marks with a file is that file, word for word."""
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    for path, body in blocks:
        assert (ROOT / path).read_text(encoding="utf-8") == body, f"docs/authoring.md shows an old {path}"


def test_kikimimi_check_passes_the_installed_example(site):
    run = _with(site, "-m", "kikimimi.cli", "check", "highcard")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "highcard: 12 of 12 parts kept"


def test_hint_and_a_seat_token_on_a_hand_reader_are_no_card(site):
    """HINT on a hand reader is answered in that earphone; a seat token is refused to that seat;
    neither is taken as the seat's card (it once answered "Your card: cmd:hint." and showed it)."""
    probe = ("import json; from kikimimi.table.engine import run_script;"
             "h = {'game': 'highcard', 'players': 2};"
             "hand = lambda t, s, tag: {'t': t, 'reader': 'hand', 'seat': s, 'tag': tag};"
             "print(json.dumps(run_script([h, hand(1, 1, 'cmd:hint'), hand(2, 2, 'seat:2'),"
             " hand(3, 1, 'hc:card-3'), hand(4, 2, 'hc:card-5')])))")
    run = _with(site, "-c", probe)
    assert run.returncode == 0, run.stderr
    log = json.loads(run.stdout)
    hint = [ev for ev in log if ev["in"] == 2]
    assert [ev["type"] for ev in hint][0] == "hint" and all(ev.get("to", ev.get("private")) == "seat:1" for ev in hint)
    assert not any(ev.get("key") == "your-card" and ev["in"] in (2, 3) for ev in log)
    refused = [ev for ev in log if ev["in"] == 3]
    assert refused[0]["type"] == "error" and refused[0]["private"] == "seat:2"
    assert refused[1] == {**refused[1], "to": "seat:2", "key": "tag-not-in-game"}  # by the runtime: not in its kit
    said = [(ev["in"], ev["params"]["card"]) for ev in log if ev.get("key") == "your-card"]
    assert said == [(4, "hc:card-3"), (5, "hc:card-5")]  # both seats still drew their own card
