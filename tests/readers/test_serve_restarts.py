"""The real `kikimimi serve`, stopped and started five times in a row against four
PN532s that take a real chip's time and sleep after every close (nfcpy's close ends
with PowerDown).  Before the HSU wake-up preamble the second start found every
reader dead until it was power-cycled."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

from support.chip_timing import REAL
from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from kikimimi.testkit.script import journal_inputs, pn532_trident_table

READERS = ("hand-1", "hand-2", "hand-3", "field")
PIECE = Ntag213("04c0ffee000001")  # enrolled in the tag map: read by uid


def _config(tmp_path) -> str:
    return pn532_trident_table(tmp_path)


def _inputs(tmp_path) -> list[dict]:
    return journal_inputs(tmp_path / "journal.jsonl")


def _wait(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.02)


def test_serve_restarted_five_times_against_sleeping_chips_loses_no_reader(tmp_path):
    (tmp_path / "table.toml").write_text(_config(tmp_path))
    emus = {n: PN532Emulator(str(tmp_path / n), timing=REAL, asleep=True).start() for n in READERS}
    try:
        for k in range(5):
            proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(tmp_path / "table.toml"),
                                     "--voice", "text", "--quiet"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            try:
                _wait(lambda: all(e.waiting_for_card for e in emus.values()))
                emu = emus[READERS[k % 4]]
                seen = len(_inputs(tmp_path))
                emu.place(PIECE)
                _wait(lambda: len(_inputs(tmp_path)) >= seen + 1)
                emu.remove()
                _wait(lambda: len(_inputs(tmp_path)) >= seen + 2)
            finally:
                proc.send_signal(signal.SIGTERM)
                assert proc.wait(timeout=30) == 0, proc.stderr.read() if proc.stderr else ""
            assert all(e.asleep for e in emus.values())  # every close put its chip to sleep
    finally:
        for emu in emus.values():
            emu.stop()
    assert all(e.wakeups == 5 for e in emus.values())
    got = [{k: v for k, v in i.items() if k not in ("t", "detail")} for i in _inputs(tmp_path)]
    where = [{"reader": "hand", "seat": s} for s in (1, 2, 3)] + [{"reader": "field"}]
    expected = []
    for k in range(5):
        expected += [{**where[k % 4], "uid": PIECE.uid_hex}, {**where[k % 4], "uid": PIECE.uid_hex, "removed": True}]
    assert got == expected  # 0 readers lost, 0 ghost placements
