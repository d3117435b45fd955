"""Inputs per second through a live table, with and without consoles watching.

A real Daemon (Trident, three seats) resumed from a long journal (`--preload`
inputs: a bot game stopped before its end, then a seat scanning its hand over
and over, so a cost that grows with the game shows), then `--inputs` inputs
submitted as fast as they go (a seat scanning a piece in its hand, a private
whisper, alternating with the field reader lost and back, public events): once with no API client, once with a
referee and four spectators connected and reading every push.  Both runs use
the same disk, in the same process, one after the other; the anchor is the
no-client rate (the API's cost is the difference).  Also: an undo's time
(median of 20), and one fsync of the disk used.

    .venv/bin/python bench/api_throughput.py [--preload 10000] [--inputs 2000] [--dir /dev/shm]

The journal goes to --dir (default: /dev/shm when there is one, so the figure
is the runtime's, not the disk's; give a real disk's folder to see fsync's).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kikimimi.api.client import ApiClient
from kikimimi.api.server import start_api
from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import Table
from kikimimi.contract.script import Header
from kikimimi.design.sim import play

HEADER = Header("trident", 3, {}, "en")


def game_in_progress() -> tuple[list[dict], str]:
    """A bot game stopped three inputs before its end, and a piece seat 1 holds."""
    script, _ = play("trident", 1, 3, {}, None)
    lines = script[1:-3]
    table = Table(HEADER)
    table.start()
    for number, line in enumerate(lines, start=2):
        table.feed(number, line)
    hand = table.game.snapshot()["hands"]
    hand = hand.get(1, hand.get("1")) if isinstance(hand, dict) else hand[0]
    return lines, sorted(hand)[0]


def inputs(piece: str):
    """Forever: scan the piece (private), field lost, scan, field back (public)."""
    scan = {"reader": "hand", "seat": 1, "tag": piece}
    cycle = [scan, {"reader": "field", "lost": True}, scan, {"reader": "field", "back": True}]
    i = 0
    while True:
        yield cycle[i % 4]
        i += 1


def write_journal(path: Path, preload: int) -> str:
    """A long game on disk, written directly (resuming it replays every line)."""
    lines, piece = game_in_progress()
    t = lines[-1]["t"]
    more = inputs(piece)
    while len(lines) < preload:
        t += 0.01
        lines.append({"t": round(t, 2), **next(more)})
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(HEADER.to_json()) + "\n")
        for line in lines:
            f.write(json.dumps(line) + "\n")
    return piece


def rate(daemon: Daemon, count: int, piece: str, chunks: int = 5) -> tuple[float, float, float]:
    """Inputs/s (the median of `chunks` runs, so a neighbour's burst on a shared
    machine moves it less) and the median and p95 time of one input, in us."""
    more = inputs(piece)
    rates, took = [], []
    for _ in range(chunks):
        start = time.perf_counter()
        for _ in range(count // chunks):
            t = time.perf_counter()
            daemon.submit(next(more))
            took.append(time.perf_counter() - t)
        rates.append((count // chunks) / (time.perf_counter() - start))
    took.sort()
    return statistics.median(rates), took[len(took) // 2] * 1e6, took[int(len(took) * 0.95)] * 1e6


def undo_ms(daemon: Daemon, piece: str, times: int = 20) -> float:
    took = []
    for _ in range(times):
        daemon.submit({"reader": "hand", "seat": 1, "tag": piece})
        start = time.perf_counter()
        daemon.submit({"console": "undo"})
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1e3


class Watchers:
    """A referee and spectators in another process (as consoles are), reading every push."""

    def __init__(self, api, spectators: int):
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--watch", str(api.socket_path), str(api.public_path), str(spectators)],
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "ready"

    def close(self) -> int:
        """Stop them; how many pushes they read."""
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=30)
        return int(out.split()[-1]) if out.split() else 0


async def watch(socket: str, public: str, spectators: int) -> None:
    """The watchers' process: connect, say ready, count pushes until told to stop."""
    count = 0

    def counted(message) -> None:
        nonlocal count
        count += 1

    clients = [await ApiClient.connect(socket)]
    clients += [await ApiClient.connect(public, spectator=True) for _ in range(spectators)]
    for client in clients:
        client.on_push = counted
    print("ready", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    print(count, flush=True)


def fsync_us(folder: Path) -> float:
    fd, name = tempfile.mkstemp(dir=folder)
    try:
        start = time.perf_counter()
        for _ in range(50):
            os.write(fd, b"x" * 80)
            os.fsync(fd)
        return (time.perf_counter() - start) / 50 * 1e6
    finally:
        os.close(fd)
        os.unlink(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preload", type=int, default=10_000)
    ap.add_argument("--inputs", type=int, default=2000)
    ap.add_argument("--spectators", type=int, default=4)
    ap.add_argument("--dir", default="/dev/shm" if Path("/dev/shm").is_dir() else None)
    ap.add_argument("--watch", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.watch:
        asyncio.run(watch(args.watch[0], args.watch[1], int(args.watch[2])))
        return
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        journal = Path(tmp) / "bench.jsonl"
        piece = write_journal(journal, args.preload)
        daemon = Daemon(HEADER, journal)
        start = time.perf_counter()
        daemon.open()
        resumed = time.perf_counter() - start
        bare = rate(daemon, args.inputs, piece)
        bare_undo = undo_ms(daemon, piece)
        api = start_api(daemon)
        watchers = Watchers(api, args.spectators)
        watched = rate(daemon, args.inputs, piece)
        watched_undo = undo_ms(daemon, piece)
        time.sleep(0.5)
        pushes = watchers.close()
        api.stop()
        daemon.close()
        disk = fsync_us(Path(tmp))
    print(f"journal of {args.preload} inputs resumed in {resumed:.2f} s; "
          f"one write+fsync here: {disk:.0f} us ({args.dir or 'tmp'})")
    for name, (per_s, median, p95), undo in (("no API client", bare, bare_undo),
                                             (f"referee + {args.spectators} spectators", watched, watched_undo)):
        print(f"{name:<26} {per_s:7.0f} inputs/s  (one input: median {median:4.0f} us, p95 {p95:5.0f} us)"
              f"  undo median {undo:6.1f} ms")
    print(f"ratio watched/bare: {watched[0] / bare[0]:.2f}   ({pushes} pushes read by the clients, in their own process)")

if __name__ == "__main__":
    main()
