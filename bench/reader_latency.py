"""How quickly a placed tag becomes a table input, and what idle polling costs.

Runs nfcpy's real PN532 driver against the pty emulator (so the figure
includes nfcpy, the serial line, NDEF reading and the runner, but not RF):

    .venv/bin/python bench/reader_latency.py [--placements 100] [--poll-ms 30] [--idle-seconds 10]

Prints the present-to-input latency (median, p95) beside the same measure for
nfcpy alone (the anchor: `clf.sense` every poll, then the NDEF read, no runner),
and the CPU this process uses with four emulated readers and nothing happening
(the emulators run in a child process so they are not counted).  An empty
PN532 waits for a card in the chip (kikimimi/readers/nfc_driver.py, CardWait),
so `--poll-ms` only paces the checks of a resting tag for our driver.

With `--lifts N` (default 5; 0 skips it) it also prints how soon an RDM6300's
lift is heard (its last repeat to the removal reaching the table, repeats
300-500 ms apart), beside the rule's own figure in the same run (the learnt
hold plus the debounce: within a second); tests/readers/test_rdm6300_repeats.py
checks the rule itself without wall time.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time

from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

import nfc.clf
import nfc.tag

from kikimimi.readers.factory import make_driver
from kikimimi.readers.runner import ReaderInput, ReaderRunner, ReaderSettings
from kikimimi.readers.serial_rfid import SerialRfidDriver
from support.chip_timing import ChipTiming
from support.collect import Table
from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from support.rdm6300_emulator import Rdm6300Emulator
from kikimimi.testkit.script import wait_until


class _CountingTable(Table):
    """A Table that also notes the emulator's chip commands when each input arrives."""

    def __init__(self, settings, emu: PN532Emulator) -> None:
        super().__init__(settings)
        self.emu = emu
        self.counts: list[int] = []

    def _on_input(self, inp: ReaderInput) -> None:
        self.counts.append(self.emu.command_count())
        super()._on_input(inp)


def latency(placements: int, poll_ms: int, tmp: str, timing: ChipTiming | None = None,
            commands: list[int] | None = None) -> list[float]:
    """Placed -> input through our driver and runner, pieces not in any tag map (each is
    read for its NDEF name).  `commands`, when given, gets the chip commands from each
    placement to its input (the waiting InListPassiveTarget, sent before, not among them)."""
    emu = PN532Emulator(os.path.join(tmp, "lat-real" if timing else "lat"), timing=timing).start()
    table = _CountingTable([ReaderSettings("hand-1", "hand", 1, debounce_ms=50)], emu)
    table.runner.start([make_driver("hand-1", {"driver": "pn532", "path": emu.path, "poll_ms": poll_ms})])
    time.sleep(0.5)
    out = []
    try:
        for k in range(placements):
            tag = Ntag213(f"04{k + 1:012x}", f"trident:heart-{k % 8 + 1}")
            time.sleep(poll_ms / 1000 * (k % 7) / 7)  # land at different points of the poll cycle
            c0 = emu.command_count()
            t0 = time.monotonic()
            emu.place(tag)
            out.append(table.arrival(2 * k + 1) - t0)
            if commands is not None:
                commands.append(table.counts[2 * k] - c0)
            emu.remove()
            table.arrival(2 * k + 2)
            deadline = time.monotonic() + 5
            while not emu.waiting_for_card and time.monotonic() < deadline:
                time.sleep(0.002)  # the empty reader waits in the chip again
    finally:
        table.runner.stop()
        emu.stop()
    return out


def nfcpy_latency(placements: int, poll_ms: int, tmp: str, timing: ChipTiming | None = None,
                  read: bool = True, commands: list[int] | None = None,
                  faults: list[str] | None = None) -> list[float]:
    """The anchor: nfcpy alone polls every `poll_ms` and reads the NDEF of a new tag (`read`;
    else placed -> uid seen, as bench/rf_field.py takes it).  `commands`, when given, gets
    the chip commands from each placement to its read (nfcpy's sense polls and activation).
    `faults` gets each exception nfcpy raised (a late ACK on a loaded host: EIO); the poll
    goes on, as a program using nfcpy alone would have to, and the placement is timed to
    its read after the fault."""
    from kikimimi.readers.nfc_driver import close_quietly, open_pn532

    emu = PN532Emulator(os.path.join(tmp, ("anchor-real" if timing else "anchor") + ("" if read else "-uid")),
                        timing=timing).start()
    for attempt in range(3):  # a loaded host can miss even the open's answers (nfcpy: ENODEV)
        try:
            clf = open_pn532(emu.path)
            break
        except OSError as exc:
            if faults is None or attempt == 2:
                raise
            faults.append(f"open: {type(exc).__name__}: {exc}")
    read_at: list[float] = []
    count_at: list[int] = []
    placed = threading.Event()
    stop = threading.Event()

    def poll() -> None:
        seen = None
        while not stop.wait(poll_ms / 1000):
            try:
                target = clf.sense(nfc.clf.RemoteTarget("106A"))
                uid = bytes(target.sdd_res) if target is not None else None
                if uid is not None and uid != seen:
                    tag = nfc.tag.activate(clf, target) if read else None
                    if not read or tag is not None and tag.ndef is not None and tag.ndef.records:
                        read_at.append(time.monotonic())
                        count_at.append(emu.command_count())
                        placed.set()
            except OSError as exc:
                if faults is None:
                    raise
                faults.append(f"{type(exc).__name__}: {exc}")
                uid = None
            seen = uid

    th = threading.Thread(target=poll, daemon=True)
    th.start()
    out = []
    try:
        for k in range(placements):
            time.sleep(poll_ms / 1000 * (k % 7) / 7)
            placed.clear()
            c0 = emu.command_count()
            t0 = time.monotonic()
            emu.place(Ntag213(f"04{k + 1:012x}", f"trident:heart-{k % 8 + 1}"))
            if not placed.wait(5):
                raise SystemExit("nfcpy anchor: no read after 5 s")
            out.append(read_at[-1] - t0)
            if commands is not None:
                commands.append(count_at[-1] - c0)
            emu.remove()
            time.sleep(2.5 * poll_ms / 1000)  # the poller sees the empty field
    finally:
        stop.set()
        th.join(5)
        close_quietly(clf)
        emu.stop()
    return out


def several_pieces(trials: int, poll_ms: int, tmp: str, timing: ChipTiming | None = None) -> dict:
    """Two pieces on one reader, through our driver and runner.

    Per trial: two pieces put down at the same instant (both heard? the
    second's delay); then a piece put beside a resting one, where the newcomer
    wins the chip's anticollision (a one-target poll then no longer sees the
    resting piece): the resting piece's lifts reported while it rests (phantom
    lifts), and how soon its real lift is heard.  With the anchor: nfcpy alone,
    `clf.sense` over a few polls of two resting pieces, how many it ever sees."""
    from kikimimi.readers.nfc_driver import close_quietly, open_pn532

    emu = PN532Emulator(os.path.join(tmp, "several"), timing=timing).start()
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=150)])
    table.runner.start([make_driver("hand-1", {"driver": "pn532", "path": emu.path, "poll_ms": poll_ms})])
    both, second, phantoms, lift = 0, [], 0, []

    def count(kind: str, since: int, uid: str | None = None) -> int:
        return sum(1 for i in table.inputs[since:] if i.kind == kind and (uid is None or i.uid == uid))

    def checks(n: int) -> None:  # the driver has looked at the reader `n` more times
        start = emu.commands["InListPassiveTarget"]
        end = time.monotonic() + 10
        while emu.commands["InListPassiveTarget"] < start + n and time.monotonic() < end:
            time.sleep(0.002)

    try:
        checks(1)
        for k in range(trials):
            # resting's uid ends 02, newcomer's 01: the newcomer wins (the first bit sent differs)
            a = Ntag213(f"04{k + 1:010x}02", f"trident:heart-{k % 8 + 1}")
            b = Ntag213(f"04{k + 1:010x}01", f"trident:spade-{k % 8 + 1}")
            n = len(table.inputs)
            t0 = time.monotonic()
            emu.add(a, b)  # put down together
            try:
                table.wait(lambda ins: sum(1 for i in ins[n:] if i.kind == "placed") >= 2, timeout=2)
                both += 1
                second.append(table.arrived[n + 1] - t0)
            except AssertionError:
                pass
            emu.remove()
            table.wait(lambda ins: sum(1 for i in ins[n:] if i.kind == "removed") >= count("placed", n))
            n = len(table.inputs)
            emu.place(a)
            table.arrival(n + 1)
            emu.add(b)  # beside the resting one
            table.arrival(n + 2)
            checks(10)
            phantoms += count("removed", n)
            t0 = time.monotonic()
            emu.remove(a)  # the real lift
            table.wait(lambda ins: count("removed", n, a.uid_hex) >= 1)
            lift.append(table.arrived[len(table.inputs) - 1] - t0)
            emu.remove()
            table.wait(lambda ins: count("removed", n) >= 2)
    finally:
        table.runner.stop()
        emu.stop()
    # the anchor: nfcpy alone, one target per poll
    emu = PN532Emulator(os.path.join(tmp, "several-anchor"), timing=timing).start()
    clf = open_pn532(emu.path)
    seen: set[str] = set()
    try:
        emu.add(Ntag213("04000000000102", "trident:heart-1"), Ntag213("04000000000101", "trident:heart-2"))
        for _ in range(20):
            target = clf.sense(nfc.clf.RemoteTarget("106A"))
            if target is not None:
                seen.add(bytes(target.sdd_res).hex())
    finally:
        close_quietly(clf)
        emu.stop()
    return {"trials": trials, "both": both, "second": second, "phantoms": phantoms, "lift": lift,
            "anchor_seen": len(seen)}


def _fmt(xs: list[float]) -> str:
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * len(ms))) - 1)]
    return f"{len(ms)} placements: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def rdm6300_lifts(trials: int, tmp: str, debounce_ms: int = 150) -> tuple[list[float], float]:
    """(last repeat -> removal at the table, per lift; the rule's hold + debounce) for an
    RDM6300 repeating a resting card unevenly, 300-500 ms apart."""
    emu = Rdm6300Emulator(os.path.join(tmp, "rdm6300"), gaps_ms=[300, 500, 420, 340, 480]).start()
    table = Table([ReaderSettings("field", "field", None, debounce_ms=debounce_ms)])
    driver = make_driver("field", {"driver": "rdm6300", "path": emu.path, "retry_ms": 50})
    assert isinstance(driver, SerialRfidDriver)
    table.runner.start([driver])
    heard = []
    try:
        if table.runner.wait_first_connect(30):
            raise SystemExit("the emulated RDM6300 did not connect")
        for k in range(trials):
            emu.place(f"00000000{k:02x}")
            table.wait_count("field", 2 * k + 1, timeout=30)
            since = emu.frames_sent
            wait_until(lambda: emu.frames_sent >= since + 5, "five repeats", 30)
            emu.remove()
            table.wait_count("field", 2 * k + 2, timeout=30)
            assert emu.last_frame_at is not None
            heard.append(table.arrived[-1] - emu.last_frame_at)
    finally:
        table.runner.stop()
        emu.stop()
    return heard, driver.hold() + debounce_ms / 1000


def _emulators(paths: list[str], ready, done) -> None:
    emus = [PN532Emulator(p).start() for p in paths]
    ready.set()
    done.wait()
    for e in emus:
        e.stop()


def idle_cpu(seconds: float, poll_ms: int, tmp: str) -> tuple[float, int]:
    paths = [os.path.join(tmp, f"idle-{k}") for k in range(4)]
    ready, done = multiprocessing.Event(), multiprocessing.Event()
    child = multiprocessing.Process(target=_emulators, args=(paths, ready, done), daemon=True)
    child.start()
    ready.wait(10)
    inputs: list[ReaderInput] = []
    settings = [ReaderSettings(f"r{k}", "hand", k + 1) for k in range(4)]
    runner = ReaderRunner(settings, inputs.append)
    runner.start([make_driver(f"r{k}", {"driver": "pn532", "path": p, "poll_ms": poll_ms})
                  for k, p in enumerate(paths)])
    time.sleep(1.0)  # let all four open
    c0, w0 = time.process_time(), time.monotonic()
    time.sleep(seconds)
    cpu = (time.process_time() - c0) / (time.monotonic() - w0)
    runner.stop()
    done.set()
    child.join(5)
    return cpu, len(inputs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--placements", type=int, default=100)
    ap.add_argument("--poll-ms", type=int, default=30)
    ap.add_argument("--idle-seconds", type=float, default=10.0)
    ap.add_argument("--lifts", type=int, default=5, help="RDM6300 lifts to time (0: none)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        lat = latency(a.placements, a.poll_ms, tmp)
        anchor = nfcpy_latency(a.placements, a.poll_ms, tmp)
        print(f"present-to-input latency, PN532 via our driver + runner + emulator, poll {a.poll_ms} ms, "
              f"{_fmt(lat)}")
        print(f"anchor, same run: nfcpy alone, clf.sense every {a.poll_ms} ms + NDEF read, {_fmt(anchor)}")
        cpu, n = idle_cpu(a.idle_seconds, a.poll_ms, tmp)
        print(f"idle CPU with four empty readers (poll_ms {a.poll_ms}) for {a.idle_seconds:.0f} s: "
              f"{cpu * 100:.1f}% of one core (inputs during idle: {n})")
        if a.lifts > 0:
            lifts, rule = rdm6300_lifts(a.lifts, tmp)
            print(f"RDM6300 lift heard (its last repeat -> the removal at the table), repeats 300-500 ms apart, "
                  f"{_fmt(lifts).replace('placements', 'lifts')}")
            print(f"anchor, same run: the rule, learnt hold + debounce, {rule * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
