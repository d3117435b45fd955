"""Durability: `serve` killed at random points, a disk that fills mid-game, undos.

After every run: the journal holds exactly the inputs the table applied (an
input refused for want of space is in neither the journal nor the log), and
every event the live table wrote (`--events`) is the event a replay of the
journal gives, `seq` for `seq`, across undos and restarts.

The disk is a real one when it can be: a 128 KiB tmpfs mounted for the test
(needs root); otherwise that case is skipped and the in-process variant,
with a fault-injecting write, still runs.
"""
from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from kikimimi.table.daemon import Daemon, JournalUnwritable
from kikimimi.contract.script import Header, read_script
from kikimimi.table.sim_readers import parse_typed
from kikimimi.testkit.tables import sim_table_toml

from hardening_helpers import TOY_CLI, replay

STONES = {f"toy:stone-{i}" for i in range(1, 7)}


def _typed(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.6:
        return f"{rng.choice('12')} stone-{rng.randint(1, 6)}"
    if r < 0.8:
        return f"f stone-{rng.randint(1, 6)}"
    if r < 0.9:
        return "> undo"
    return rng.choice(["1 nothing", "> bogus"])  # refused by the table: never an undo's target


_RUNNING: list[subprocess.Popen] = []


def _kill_running() -> None:
    while _RUNNING:  # a failed test must not leave a table running
        proc = _RUNNING.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(autouse=True)
def _no_serve_left_behind():
    yield
    _kill_running()


class _Serve:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.proc = subprocess.Popen(
            TOY_CLI + ["serve", "table.toml", "--voice", "text", "--quiet", "--events", str(tmp / "events.jsonl")],
            cwd=tmp, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _RUNNING.append(self.proc)
        self.err: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for raw in self.proc.stderr:
            self.err.append(raw.decode("utf-8", "replace"))

    def type(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def alerts(self) -> int:
        return sum("cannot write the journal" in line for line in self.err)


def _wait(predicate, timeout=20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def _journal_inputs(journal: Path) -> list[dict]:
    try:
        return [item for _, item in read_script(journal).lines]
    except ValueError:
        return []


def _events(tmp: Path) -> list[dict]:
    path = tmp / "events.jsonl"
    return [json.loads(l) for l in path.read_text().splitlines() if l.strip()] if path.exists() else []


def _check(tmp: Path, journal: Path, killed_lines: set[int]) -> None:
    log = replay(journal)
    by_seq = {ev["seq"]: ev for ev in log}
    for ev in _events(tmp):  # live log == replay, seq for seq
        if ev["seq"] is None:
            continue  # a line the table says of its own between games (kikimimi.table.evening): no log event
        if ev["seq"] in by_seq:
            assert ev == by_seq[ev["seq"]]
        else:  # only a timer that fired after the last input is beyond the replay
            assert ev["in"] is None and ev["seq"] > len(log)
    applied = {ev["in"] for ev in _events(tmp) if ev["seq"] is not None}
    for number, _ in read_script(journal).lines:  # journal = inputs applied
        assert number in applied or number in killed_lines


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (the in-process variant covers the rest)")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(disk)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    yield disk
    _kill_running()
    subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 512)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_serve_killed_at_random_points_with_a_disk_that_fills(tmp_path, small_disk, seed, toy):
    rng = random.Random(seed)
    journal = small_disk / "journal.jsonl"
    (tmp_path / "table.toml").write_text(sim_table_toml("toy", 2, journal=str(journal)))
    tags = STONES | {"cmd:pass"}
    killed_lines: set[int] = set()
    serve = _Serve(tmp_path)
    sent: list[str] = []

    def acknowledged(n_inputs: int) -> bool:
        return len(_journal_inputs(journal)) >= n_inputs

    for _ in range(rng.randint(3, 10)):
        sent.append(_typed(rng))
        serve.type(sent[-1])
    assert _wait(lambda: acknowledged(len(sent)))
    # the disk fills mid-game: inputs are refused, the table goes on
    before = journal.read_bytes()
    filler = _fill(small_disk)
    for _ in range(400):
        serve.type("1 stone-1")
        if serve.alerts():
            break
        time.sleep(0.005)
    assert _wait(lambda: serve.alerts() >= 1)
    time.sleep(0.2)
    held = journal.read_bytes()
    assert held.startswith(before) and held.endswith(b"\n")  # only whole lines, never a torn one
    assert serve.proc.poll() is None  # still serving
    filler.unlink()  # space returns: inputs are taken again
    expected = len(_journal_inputs(journal))
    for _ in range(rng.randint(2, 8)):
        serve.type(_typed(rng))
        expected += 1
    assert _wait(lambda: acknowledged(expected))
    for _ in range(rng.randint(0, 8)):
        serve.type(_typed(rng))
    time.sleep(rng.random() * 0.1)
    serve.proc.send_signal(signal.SIGKILL)  # a random moment, maybe mid-input
    serve.proc.wait(timeout=10)
    lines = read_script(journal).lines
    if lines:
        killed_lines.add(lines[-1][0])  # journaled, maybe not yet applied when the kill came
    _check(tmp_path, journal, killed_lines)

    serve = _Serve(tmp_path)  # resume, a few more inputs and undos, a clean stop
    for _ in range(rng.randint(2, 6)):
        serve.type(_typed(rng))
    serve.type("> undo")
    serve.proc.stdin.close()
    assert serve.proc.wait(timeout=30) == 0, "".join(serve.err)
    assert not any("Traceback" in line for line in serve.err)
    assert any("resumed" in line for line in serve.err)
    for _, item in read_script(journal).lines:
        assert isinstance(item, dict) and (item.get("tag") in tags | {"nothing", None} or "console" in item)
    _check(tmp_path, journal, killed_lines)


class _FlakyDisk:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.full = False

    def pwrite(self, fd, data, offset):
        if self.full:
            os.pwrite(fd, data[: self.rng.randint(0, len(data) - 1)], offset)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.pwrite(fd, data, offset)


@pytest.mark.parametrize("seed", range(12))
def test_a_table_crashed_torn_and_full_at_random_keeps_live_equal_to_replay(tmp_path, toy, seed):
    """In-process: random inputs, undos, a disk full at random, a crash (the
    daemon abandoned, the journal's tail torn at a random byte), resume."""
    rng = random.Random(seed)
    journal = tmp_path / "j.jsonl"
    live: dict[int, dict] = {}  # every event any run logged, by seq
    now = [0.0]
    for _ in range(4):
        d = Daemon(Header("toy", 2), journal, clock=lambda: now[0])
        d.open()
        for ev in d.log:
            assert live.setdefault(ev["seq"], ev) == ev
        disk = _FlakyDisk(rng)
        d._journal.pwrite = disk.pwrite
        for _ in range(rng.randint(5, 30)):
            disk.full = rng.random() < 0.15
            now[0] += rng.choice([0.2, 1.0, 4.0, 12.0])  # the idle timer (10 s) fires now and then
            if rng.random() < 0.5:
                for ev in d.tick():
                    assert live.setdefault(ev["seq"], ev) == ev
            typed = parse_typed(_typed(rng), STONES | {"toy:nothing"})
            before = journal.read_bytes()
            try:
                events = d.submit(typed)
            except JournalUnwritable:
                assert journal.read_bytes() == before
                continue
            for ev in events:
                assert live.setdefault(ev["seq"], ev) == ev
        if rng.random() < 0.5:  # a power cut mid-write: part of a line that was never applied
            torn = json.dumps({"t": 99, "console": "メモ ✓"}, ensure_ascii=False).encode()
            with open(journal, "ab") as f:
                f.write(torn[: rng.randint(1, len(torn) - 1)])
        d._journal.close()  # crashed: no clean close
    log = replay(journal)
    assert [ev["seq"] for ev in log] == list(range(1, len(log) + 1))
    for ev in log:  # the replay is what the live runs logged, seq for seq
        assert ev == live[ev["seq"]]
