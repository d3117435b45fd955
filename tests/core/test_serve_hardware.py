"""A real `kikimimi serve` process reading four PN532 readers (emulated on
pseudo-terminals) through nfcpy: placements, uids through the tag map, a
reader unplugged and back — all journaled as table-script lines."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from kikimimi.testkit.script import journal_inputs, pn532_trident_table, wait_until


def _config(tmp_path) -> str:
    return pn532_trident_table(tmp_path, poll_ms=20)


def _inputs(tmp_path) -> list[dict]:
    return journal_inputs(tmp_path / "journal.jsonl")


def test_serve_turns_reader_events_into_journaled_inputs(tmp_path):
    (tmp_path / "table.toml").write_text(_config(tmp_path))
    emus = {name: PN532Emulator(str(tmp_path / name)).start() for name in ("hand-1", "hand-2", "hand-3", "field")}
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(tmp_path / "table.toml"),
                             "--voice", "text", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # every reader connected and polling (a tag resting at connect would be ignored)
        wait_until(lambda: all(e.commands["InListPassiveTarget"] >= 2 for e in emus.values()), "the readers' inputs", timeout=30)
        emus["hand-1"].place(Ntag213("04aa000000000a", text="trident:heart-3"))
        wait_until(lambda: len(_inputs(tmp_path)) >= 1, "the readers' inputs")
        emus["hand-2"].place(Ntag213("04c0ffee000001"))  # no NDEF: the tag map names it
        wait_until(lambda: len(_inputs(tmp_path)) >= 2, "the readers' inputs")
        time.sleep(0.5)  # resting: no repeats
        emus["hand-1"].remove()
        wait_until(lambda: len(_inputs(tmp_path)) >= 3, "the readers' inputs")
        emus["hand-3"].vanish()
        wait_until(lambda: any(i.get("lost") for i in _inputs(tmp_path)), "the readers' inputs")
        emus["hand-3"].come_back()
        wait_until(lambda: any(i.get("back") for i in _inputs(tmp_path)), "the readers' inputs", timeout=20)
        time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        for emu in emus.values():
            emu.stop()
    got = [{k: v for k, v in i.items() if k not in ("t", "detail")} for i in _inputs(tmp_path)]
    assert got == [
        {"reader": "hand", "seat": 1, "tag": "trident:heart-3"},
        {"reader": "hand", "seat": 2, "uid": "04c0ffee000001"},
        {"reader": "hand", "seat": 1, "tag": "trident:heart-3", "removed": True},
        {"reader": "hand", "seat": 3, "lost": True},
        {"reader": "hand", "seat": 3, "back": True},
    ]
