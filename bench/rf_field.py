"""The RF field as a measured choice: card-wait, duty-cycled waiting, polling.

An empty reader either keeps its field on and lets the chip wait for a card
(`rf = "wait"`), waits in windows with the field off in between (`"duty"`),
or tries once every `poll_ms` (`"poll"`).  For each, on the real-timing PN532
emulator through our driver and runner (an enrolled piece, so a placement is
one chip command): placed -> input latency (median, p95), the field's on-time
per minute of an empty reader, and the chip commands per minute it costs.

    .venv/bin/python bench/rf_field.py [--placements 60] [--idle-seconds 20]

The anchor, in the same run: nfcpy alone polling every 30 ms on the same
emulator (`clf.sense`, which mutes the field between polls), placed -> uid
(bench/reader_latency.py's anchor, without the NDEF read).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

from kikimimi.readers.factory import make_driver
from kikimimi.readers.runner import ReaderSettings
from support.chip_timing import REAL
from support.collect import Table
from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from reader_latency import nfcpy_latency  # the same nfcpy anchor (bench/ is the script's folder)

UID = "04c0ffee000001"
MODES: list[tuple[str, dict[str, object]]] = [
    ("card-wait (rf = \"wait\", the default)", {"rf": "wait"}),
    ("duty-cycled 100 ms on / 100 ms off", {"rf": "duty", "rf_on_ms": 100, "rf_off_ms": 100}),
    ("duty-cycled 100 ms on / 400 ms off", {"rf": "duty", "rf_on_ms": 100, "rf_off_ms": 400}),
    ("polling every 30 ms (rf = \"poll\")", {"rf": "poll", "poll_ms": 30}),
    ("polling every 100 ms", {"rf": "poll", "poll_ms": 100}),
]


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(q * len(s))) - 1)]


def measure(section: dict[str, object], placements: int, idle_s: float, tmp: str, name: str) -> dict:
    emu = PN532Emulator(os.path.join(tmp, name), timing=REAL).start()
    table = Table([ReaderSettings("r", "hand", 1, debounce_ms=50)])
    table.runner.start([make_driver("r", {"driver": "pn532", "path": emu.path, **section}, known={UID})])
    rng = random.Random(23)
    try:
        time.sleep(1.0)
        on0, c0, t0 = emu.field_on_seconds(), emu.command_count(), time.monotonic()
        time.sleep(idle_s)
        span = time.monotonic() - t0
        field_share = (emu.field_on_seconds() - on0) / span
        per_min = (emu.command_count() - c0) / span * 60
        lat = []
        for k in range(placements):
            time.sleep(rng.uniform(0.05, 0.6))  # any phase of a poll or a duty cycle
            t = time.monotonic()
            emu.place(Ntag213(UID))
            lat.append(table.arrival(2 * k + 1, timeout=10) - t)
            emu.remove()
            table.arrival(2 * k + 2, timeout=10)
    finally:
        table.runner.stop()
        emu.stop()
    return {"lat": lat, "field": field_share, "cmds": per_min}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--placements", type=int, default=60)
    ap.add_argument("--idle-seconds", type=float, default=20.0)
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, (label, section) in enumerate(MODES):
            rows.append((label, measure(section, a.placements, a.idle_seconds, tmp, f"m{k}")))
        anchor = nfcpy_latency(a.placements, 30, tmp, timing=REAL, read=False)
    print(f"real-timing PN532 emulator, enrolled piece, {a.placements} placements, {a.idle_seconds:g} s idle each")
    print("| mode | placed -> input median | p95 | field on, empty reader | field-on s per minute | chip commands per minute, empty |")
    print("|---|---|---|---|---|---|")
    for label, r in rows:
        ms = [x * 1000 for x in r["lat"]]
        print(f"| {label} | {statistics.median(ms):.1f} ms | {_pct(ms, 0.95):.1f} ms | {r['field'] * 100:.0f} % "
              f"| {r['field'] * 60:.0f} s | {r['cmds']:.0f} |")
    ams = [x * 1000 for x in anchor]
    print(f"anchor, same run: nfcpy alone, clf.sense every 30 ms, placed -> uid: median {statistics.median(ams):.1f} ms, "
          f"p95 {_pct(ams, 0.95):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
