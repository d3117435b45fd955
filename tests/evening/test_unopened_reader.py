"""A configured reader that cannot be opened: the OS reason once on the terminal and to
the referee, with what to run; the speaker names the reader in the table's language."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

MISSING = "/dev/ttyUSB-kikimimi-missing"


def _config(lang: str) -> str:
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "rdm6300"\npath = "{MISSING}-{s}"\n'
                      for s in (1, 2))  # each its own path: two readers on one device are refused
    return (f'[table]\ngame = "trident"\nplayers = 2\nlang = "{lang}"\nready_wait = 1\njournal = "var/j.jsonl"\n{readers}'
            f'[readers.field]\nrole = "field"\ndriver = "rdm6300"\npath = "{MISSING}-f"\n')


@pytest.mark.parametrize("lang, spoken", [
    ("en", {"The hand reader of seat 1 cannot be opened. The referee has the reason.",
            "The hand reader of seat 2 cannot be opened. The referee has the reason.",
            "The field reader cannot be opened. The referee has the reason."}),
    ("ja", {"1番の席の手元のリーダーを開けません。理由は審判に伝えました。",
            "2番の席の手元のリーダーを開けません。理由は審判に伝えました。",
            "場のリーダーを開けません。理由は審判に伝えました。"}),
])
def test_a_reader_that_cannot_be_opened_is_said_once_with_the_reason_and_doctor(tmp_path, lang, spoken):
    (tmp_path / "table.toml").write_text(_config(lang))
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text",
                             "--quiet", "--events", "events.jsonl"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    events_path = tmp_path / "events.jsonl"

    def events():  # complete lines only: the table may be writing the next one
        text = events_path.read_text() if events_path.exists() else ""
        return [json.loads(l) for l in text[: text.rfind("\n") + 1].splitlines()]

    end = time.monotonic() + 20
    while sum(ev["type"] == "reader" for ev in events()) < 3:
        assert proc.poll() is None and time.monotonic() < end, proc.stderr.read() if proc.poll() else "timeout"
        time.sleep(0.05)
    time.sleep(0.5)  # the drivers retry meanwhile: nothing more may be said
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0
    err = proc.stderr.read()
    lines = [l for l in err.splitlines() if "cannot be opened" in l]
    assert len(lines) == 3, err
    for line in lines:
        assert MISSING in line and "No such file or directory" in line
        assert "run kikimimi doctor" in line and "table.toml" in line
    said = [ev["text"] for ev in events() if ev["type"] == "say" and ev["to"] == "table" and ev["key"].startswith("reader")]
    assert sorted(said) == sorted(spoken)  # each once, in the table's language
    readers = [ev for ev in events() if ev["type"] == "reader"]
    assert all("run kikimimi doctor" in ev["detail"] for ev in readers)  # the referee's console shows it
