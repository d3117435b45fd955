"""A 10 s window gives every asked seat 10 s after its prompt has been heard, in a
served game whose sound is read back from virtual sound cards: the clips on the cards are
the lengths the table counted, the journal holds the moment, and the replay is exact."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from heard_game import CLAIM
from kikimimi.contract import registry
from kikimimi.table.engine import log_line
from kikimimi.testkit.script import replay_journal
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, locate_clip

RATE = 48000
CHILD = Path(__file__).with_name("heard_child.py")


def test_a_ten_second_window_counts_from_the_end_of_the_prompt_on_the_cards(tmp_path, clip_cache, monkeypatch):
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    registry.register(CLAIM)
    need("espeak-ng", "libportaudio2", "alsa")
    devices = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkseats": 6}, rate=RATE)
    audio = {"outputs": {"speaker": {"device": "kkspk", "channels": [1, 2]},
                         "seat-1": {"device": "kkseats", "channels": [1, 2]},
                         "seat-2": {"device": "kkseats", "channels": [3, 4]},
                         "seat-3": {"device": "kkseats", "channels": [5, 6]}}}
    journal = tmp_path / "table.jsonl"
    job = {"header": {"game": "heardclaim", "players": 3, "options": {"seed": 7}, "lang": "en"},
           "journal": str(journal), "audio": audio, "cache_dir": str(clip_cache), "until": 30}
    (tmp_path / "job.json").write_text(json.dumps(job))
    proc = subprocess.run([sys.executable, str(CHILD), str(tmp_path / "job.json")], env=devices.env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    live = json.loads(proc.stdout.strip().splitlines()[-1])

    claim = next(e for e in live if e["type"] == "say" and e["key"] == "claim-made")
    prompt = next(e for e in live if e["type"] == "reveal")
    speaker, seats = devices.read("kkspk"), devices.read("kkseats")
    said = expected_clip(claim["text"], clip_cache, RATE)
    asked = expected_clip(prompt["text"], clip_cache, RATE)
    # the streams play silence between clips (a file card has no clock): each clip is found whole
    assert locate_clip(speaker[:, 0], said) >= 0  # the claim, on the speaker
    for left in (2, 4):  # seat 2's and seat 3's earphones: the prompt; seat 1's: nothing
        assert locate_clip(seats[:, left], asked) >= 0
    assert not seats[:, 0].any()
    heard_at = max(said.size, asked.size) / RATE  # both began at t=0: heard when both have played
    assert heard_at > 0.5
    lines = [json.loads(x) for x in journal.read_text().splitlines()[1:]]
    mark = next(x for x in lines if x.get("timer") == "heard:window:challenge")
    assert mark["t"] == pytest.approx(heard_at, abs=0.06)  # the next tick of a 0.05 s clock
    closed = next(e for e in live if e["type"] == "say" and e["key"] == "choice-window-closed")
    assert closed["t"] == pytest.approx(mark["t"] + 10)
    assert sum(1 for e in live if e["type"] == "say" and "Time is up" in e["text"]) == 1  # one line, on the speaker
    assert closed["to"] == "table"
    # the replay: the journal's moment, so the same log, byte for byte
    assert [log_line(e) for e in replay_journal(journal)] == [log_line(e) for e in live]
