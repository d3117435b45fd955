"""A timed phase's limit of N s ends N s after its announcement has finished playing on
the speaker, in a served マフィア42 whose sound is read back from virtual sound cards: the
clips on the card are the lengths the table counted, the journal holds the moment, and the
replay is exact (docs/rules/mafia42.md: limits count from when the announcement has been heard)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.table.engine import log_line
from kikimimi.testkit.script import replay_journal
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, locate_clip

RATE = 48000
CHILD = Path(__file__).with_name("heard_phase_child.py")
JOBS = ["mafia", "police", "citizen", "citizen"]
NIGHT = 6  # seconds: the night's limit at this table


def test_the_nights_limit_counts_from_the_end_of_its_call_on_the_speaker_card(tmp_path, clip_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    devices = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkseats": 8}, rate=RATE)
    audio = {"outputs": {"speaker": {"device": "kkspk", "channels": [1, 2]},
                         **{f"seat-{n}": {"device": "kkseats", "channels": [2 * n - 1, 2 * n]} for n in range(1, 5)}}}
    journal = tmp_path / "table.jsonl"
    cards = [(0.0, {"reader": "hand", "seat": n, "tag": f"mafia42:job-{job}-{JOBS[:n].count(job)}"})
             for n, job in enumerate(JOBS, start=1)]  # the whole deal at t=0: its lines queue on the speaker
    job = {"header": {"game": "mafia42", "players": 4, "options": {"jobs": JOBS, "night": NIGHT},
                      "lang": "en", "seed": 7},
           "journal": str(journal), "audio": audio, "cache_dir": str(clip_cache), "lines": cards, "until": 40}
    (tmp_path / "job.json").write_text(json.dumps(job))
    proc = subprocess.run([sys.executable, str(CHILD), str(tmp_path / "job.json")], env=devices.env(),
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    live = json.loads(proc.stdout.strip().splitlines()[-1])

    night = next(e for e in live if e["type"] == "phase" and e["phase"] == "night")
    call = next(e for e in live if e["type"] == "say" and e["key"] == "night-start")
    queued = [e for e in live if e["type"] == "say" and e["to"] == "table" and e["seq"] <= call["seq"]]
    assert night["t"] == 0.0 and [e["key"] for e in queued][-1] == "night-start" and len(queued) > 3
    speaker = devices.read("kkspk")[:, 0]
    clips = [expected_clip(e["text"], clip_cache, RATE) for e in queued]
    starts = [locate_clip(speaker, clip) for clip in clips]
    assert all(s >= 0 for s in starts) and starts == sorted(starts)  # each clip on the card, in order
    # queued together at t=0, they play one after another: the call has been heard when all of
    # them have (a file card has no clock: between clips it streams silence while the next one
    # renders, so the clips' lengths as found on it are compared, not their places)
    played = sum(clip.size for clip in clips) / RATE
    assert played > 3.0
    print(f"the night's call heard {played:.2f} s after t=0 ({len(queued)} clips on the speaker)")  # docs/choices.md
    lines = [json.loads(x) for x in journal.read_text().splitlines()[1:]]
    mark = next(x for x in lines if x.get("timer") == "heard:phase-1")
    assert mark["t"] == pytest.approx(played, abs=0.06)  # the next tick of a 0.05 s clock
    clock = next(e for e in live if e["type"] == "phase-clock")
    assert (clock["phase"], clock["t"], clock["seconds"]) == ("night", mark["t"], NIGHT)
    up = next(e for e in live if e["type"] == "say" and e["key"] == "time-up")
    assert up["t"] == pytest.approx(mark["t"] + NIGHT)  # N s after heard, not N s after asked
    assert up["t"] > night["t"] + NIGHT + 3.0
    ten = [e for e in live if e["type"] == "say" and e["key"] == "ten-seconds"]
    assert not ten  # a 6-second night has no "ten seconds left"
    # the replay: the journal's moment, so the same log, byte for byte
    assert [log_line(e) for e in replay_journal(journal)] == [log_line(e) for e in live]
