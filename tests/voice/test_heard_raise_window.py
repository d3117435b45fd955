"""鬼探し's raise-hand window counts from when the speaker has said the declaration, the
"have" and the invitation, not from the declaration (docs/rules/onisagashi.md): a raise
scanned N s after the declaration was *said*, but before N s after it was *heard*, is still
in the window.  Served with sound read back from virtual sound cards, in the model (the
engine's modelled lengths), and in the replay of the journal."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.contract import heard
from kikimimi.contract.script import dumps
from kikimimi.table.engine import log_line, run_script
from kikimimi.testkit.script import replay_journal
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, locate_clip

RATE = 48000
CHILD = Path(__file__).with_name("heard_child.py")
WINDOW, SETTLE = 2.0, 1.0
#: Seat 1 holds mion, tofu, swamp; the answer is shion, kuwa, riverbank.
HANDS = {1: ["mion", "tofu", "swamp"], 2: ["rena", "nata", "dam"], 3: ["keiichi", "kugi", "phonebox"],
         4: ["satoko", "kame", "roadside"], 5: ["rika", "bat", "forest"]}
HEADER = {"game": "onisagashi", "players": 5, "options": {"raise_window": WINDOW, "settle": SETTLE},
          "lang": "en"}
LAST_TOKEN = 18.0  # the speaker is quiet by then: the deal's and the turn's lines have played


def _inputs(raise_at: float) -> list[dict]:
    lines = [{"t": round(0.5 + 0.3 * i, 2), "reader": "hand", "seat": s, "tag": f"oni:card-{c}"}
             for i, (s, c) in enumerate((s, c) for s, cards in HANDS.items() for c in cards)]
    lines += [{"t": t, "reader": "field", "tag": f"oni:token-{c}"}
              for t, c in ((12.0, "keiichi"), (15.0, "bat"), (LAST_TOKEN, "forest"))]
    return lines + [{"t": raise_at, "reader": "hand", "seat": 5, "tag": "cmd:raise"}]


def _said(log: list, key: str) -> dict:
    return next(e for e in log if e["type"] == "say" and e["key"] == key)


def _grant_in_time(log: list, raise_at: float) -> None:
    """The raise lies past N s after the declaration was said and before N s after heard,
    and the window, closing on its timer, grants it."""
    declared = _said(log, "declare")
    mark = next(e for e in log if e["type"] == "heard" and e["timer"] == "raise-window")
    assert declared["t"] + WINDOW < raise_at < mark["at"] + WINDOW
    grant = next(e for e in log if e["type"] == "grant")
    assert grant["seat"] == 5 and grant["t"] == pytest.approx(mark["at"] + WINDOW)


def test_a_raise_after_n_seconds_from_said_but_before_n_from_heard_is_in_the_window(tmp_path, clip_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    model = run_script([dumps(HEADER), *(dumps(x) for x in _inputs(60.0))])
    texts = {k: _said(model, k)["text"] for k in ("declare", "have", "raise-invite")}
    token = [e for e in model if e["type"] == "say" and e["key"] == "token"][-1]["text"]
    seconds = {k: expected_clip(v, clip_cache, RATE).size / RATE for k, v in {**texts, "token": token}.items()}
    declared_at = LAST_TOKEN + seconds["token"] + SETTLE  # the settle counts from the token's name heard
    speech = seconds["declare"] + seconds["have"] + seconds["raise-invite"]
    assert speech > 2 * WINDOW
    raise_at = round(declared_at + WINDOW + speech / 2, 2)  # well past N s after said, well before after heard

    devices = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkseats": 10}, rate=RATE)
    audio = {"outputs": {"speaker": {"device": "kkspk", "channels": [1, 2]},
                         **{f"seat-{s}": {"device": "kkseats", "channels": [2 * s - 1, 2 * s]} for s in range(1, 6)}}}
    journal = tmp_path / "table.jsonl"
    job = {"header": HEADER, "journal": str(journal), "audio": audio, "cache_dir": str(clip_cache),
           "until": raise_at + speech + 5, "inputs": _inputs(raise_at)}
    (tmp_path / "job.json").write_text(json.dumps(job))
    proc = subprocess.run([sys.executable, str(CHILD), str(tmp_path / "job.json")], env=devices.env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    live = json.loads(proc.stdout.strip().splitlines()[-1])

    speaker = devices.read("kkspk")[:, 0]
    for key, text in texts.items():  # each line, whole, on the speaker's card
        assert locate_clip(speaker, expected_clip(text, clip_cache, RATE)) >= 0, key
    declared = _said(live, "declare")
    assert declared["t"] == pytest.approx(declared_at, abs=0.06)  # the settle, after the token's clip
    lines = [json.loads(x) for x in journal.read_text().splitlines()[1:]]
    mark = next(x for x in lines if x.get("timer") == "heard:raise-window")
    assert mark["t"] == pytest.approx(declared["t"] + speech, abs=0.06)  # the three clips' lengths
    _grant_in_time(live, raise_at)
    # the replay: the journal's moments, so the same log, byte for byte
    assert [log_line(e) for e in replay_journal(journal)] == [log_line(e) for e in live]

    # the model: the engine's own lengths (`--voice text`, the simulator)
    modelled = run_script([dumps(HEADER), *(dumps(x) for x in _inputs(raise_at)),
                           dumps({"t": raise_at + speech + 5, "console": "pause"})])  # the clock runs on
    said = heard.modelled_seconds
    assert _said(modelled, "declare")["t"] == pytest.approx(LAST_TOKEN + said(token) + SETTLE)
    _grant_in_time(modelled, raise_at)
