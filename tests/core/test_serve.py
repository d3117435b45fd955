"""`kikimimi serve` as a real process: journal first, resume after a kill."""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import public_view
from kikimimi.table.engine import ScriptRun
from kikimimi.contract.script import Header, read_script
from kikimimi.testkit.tables import sim_table_toml
from kikimimi.testkit.script import wait_until

TOY = [sys.executable, str(Path(__file__).parent / "toy_kikimimi.py")]
CONFIG = sim_table_toml("toy", 2, journal="journal.jsonl")


def _serve(tmp: Path) -> subprocess.Popen:
    return subprocess.Popen(
        TOY + ["serve", str(tmp / "table.toml"), "--voice", "text", "--events", str(tmp / "events.jsonl")],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp)


def _journal_inputs(tmp: Path) -> list[dict]:
    return [item for _, item in read_script(tmp / "journal.jsonl").lines]


def _acknowledged(tmp: Path) -> int:
    path = tmp / "events.jsonl"
    if not path.exists():
        return 0
    return len({json.loads(l)["in"] for l in path.read_text().splitlines() if l.strip()} - {None, 1})


@pytest.mark.parametrize("seed", [11, 12])
def test_killed_serve_resumes_with_no_input_lost(tmp_path, seed):
    rng = random.Random(seed)
    (tmp_path / "table.toml").write_text(CONFIG)
    typed = [f"{rng.choice(['1', '2'])} stone-{rng.randint(1, 6)}" for _ in range(40)]
    proc = _serve(tmp_path)
    kill_after = rng.randint(5, 30)
    for i, line in enumerate(typed[:kill_after]):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        if i < 3:
            wait_until(lambda: _acknowledged(tmp_path) >= i + 1, "the served table")
    time.sleep(rng.random() * 0.05)  # a random moment, maybe mid-input
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    first = _journal_inputs(tmp_path)
    assert len(first) >= 3  # everything acknowledged before the kill is there
    # every journaled input is exactly one that was typed, in order
    assert [f"{d['seat']} {d['tag'].split(':')[1]}" for d in first] == typed[: len(first)]

    proc = _serve(tmp_path)
    rest = ["f stone-1", "f stone-2"]
    for line in rest:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    wait_until(lambda: len(_journal_inputs(tmp_path)) == len(first) + 2, "the served table")
    proc.stdin.close()
    assert proc.wait(timeout=20) == 0
    err = proc.stderr.read()
    assert f"resumed" in err and f"({len(first)} inputs replayed)" in err
    inputs = _journal_inputs(tmp_path)
    assert inputs[: len(first)] == first
    assert [d["tag"] for d in inputs[len(first):]] == ["toy:stone-1", "toy:stone-2"]
    assert all(b["t"] >= a["t"] for a, b in zip(inputs, inputs[1:]))  # time never runs back
    # the resumed game knew the first part: the replay of the whole journal plays both stones
    replay = subprocess.run(TOY + ["replay", str(tmp_path / "journal.jsonl")],
                            capture_output=True, text=True, check=True)
    plays = [json.loads(l)["tag"] for l in replay.stdout.splitlines() if '"play"' in l]
    assert plays == ["toy:stone-1", "toy:stone-2"]


def test_a_journal_torn_mid_line_is_cut_back_and_resumed(tmp_path, toy):
    journal = tmp_path / "j.jsonl"
    header = Header("toy", 2)
    d = Daemon(header, journal)
    d.open()
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    d.close()
    with open(journal, "a") as f:
        f.write('{"t": 9, "reader": "fie')
    d = Daemon(header, journal)
    warnings = d.open()
    assert warnings and "cut off" in warnings[0] and "fie" in warnings[0]
    d.submit({"reader": "field", "tag": "toy:stone-2"})
    d.close()
    parsed = read_script(journal)
    assert not parsed.warnings
    assert [item["tag"] for _, item in parsed.lines] == ["toy:stone-1", "toy:stone-2"]


def test_a_journal_of_another_game_is_refused(tmp_path, toy):
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"game": "toy", "players": 3}\n')
    with pytest.raises(Exception, match="not this table's toy for 2"):
        Daemon(Header("toy", 2), journal).open()


def test_undo_restores_the_state_of_the_shortened_script(tmp_path, toy):
    d = Daemon(Header("toy", 2), tmp_path / "j.jsonl")
    d.open()
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    before = d.snapshot()["game"]
    d.submit({"reader": "field", "tag": "toy:stone-2"})
    assert d.snapshot()["game"] != before
    assert d.last_input()[1]["tag"] == "toy:stone-2"
    d.submit({"reader": "hand", "seat": 1, "tag": "toy:stone-5"})  # a secret, then taken back
    events = d.submit({"console": "undo"})
    undo = next(ev for ev in events if ev["type"] == "undo")
    assert undo["input"]["tag"] == "toy:stone-5" and undo["private"] == "referee"
    assert [ev["key"] for ev in public_view(events)] == ["undone"]  # the table hears only that
    d.submit({"console": "undo"})
    assert d.snapshot()["game"] == before
    d.close()
    # the journal keeps the undo; a replay of it applies the undo the same way
    lines = read_script(tmp_path / "j.jsonl").lines
    assert lines[-1][1]["console"] == "undo"
    replay = ScriptRun(Header("toy", 2))
    for number, item in lines:
        replay.feed(number, item)
    assert [item["tag"] for _, item in replay.standing] == ["toy:stone-1"]


def test_new_game_keeps_the_finished_journal_and_starts_afresh(tmp_path, toy):
    journal = tmp_path / "j.jsonl"
    d = Daemon(Header("toy", 2), journal)
    d.open()
    seen = []
    d.subscribe(lambda line, events: seen.append(line))
    for i in range(1, 6):
        d.submit({"reader": "field", "tag": f"toy:stone-{i}"})
    assert d.snapshot()["over"]
    d.submit({"console": "new"})
    assert not d.snapshot()["over"] and d.snapshot()["inputs"] == 0
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    d.close()
    first = read_script(tmp_path / "j.game1.jsonl")
    assert [item["tag"] for _, item in first.lines] == [f"toy:stone-{i}" for i in range(1, 6)]
    assert [item["tag"] for _, item in read_script(journal).lines] == ["toy:stone-1"]
    assert {"console": "new"} in seen
