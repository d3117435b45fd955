"""How fast the API carries an input to the consoles, and what it costs the table.

A real Daemon (Trident, two seats, journal fsynced as at a table) with the
API open and R referee + S spectator clients connected over the sockets:

    .venv/bin/python bench/console_api.py [--inputs 200] [--referees 2] [--spectators 4]

Prints: submit() time with no clients vs with clients (the listener only
serialises and queues, so the difference is the API's cost to the input
path), and submit-to-push latency at a referee and a spectator (median, p95).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from pathlib import Path

from kikimimi.api.client import ApiClient
from kikimimi.api.server import start_api
from kikimimi.table.daemon import Daemon
from kikimimi.contract.script import Header

LINES = [{"reader": "hand", "seat": 1 + i % 2, "tag": f"trident:{'heart' if i % 2 == 0 else 'spade'}-{1 + i // 2}"}
         for i in range(10)]


def table(tmp: Path, name: str) -> Daemon:
    d = Daemon(Header("trident", 2), tmp / name)
    d.open()
    for line in LINES:  # the deal: afterwards each console command is a cheap refusal or penalty
        d.submit(line)
    return d


def percentile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1e3:.2f} ms, p95 {percentile(values, 0.95) * 1e3:.2f} ms"


def bare(tmp: Path, inputs: int) -> list[float]:
    d = table(tmp, "bare.jsonl")
    took = []
    for i in range(inputs):
        start = time.perf_counter()
        d.submit({"console": "penalty 1" if i % 2 == 0 else "suit purple"})
        took.append(time.perf_counter() - start)
    d.close()
    return took


async def served(tmp: Path, inputs: int, referees: int, spectators: int) -> tuple[list[float], list[float], list[float]]:
    d = table(tmp, "api.jsonl")
    api = start_api(d)
    refs = [await ApiClient.connect(api.socket_path) for _ in range(referees)]
    specs = [await ApiClient.connect(api.public_path, spectator=True) for _ in range(spectators)]
    took, at_referee, at_spectator = [], [], []
    loop = asyncio.get_running_loop()
    for i in range(inputs):
        sent = {}

        def submit() -> None:
            sent["t"] = time.perf_counter()
            # every other input a penalty (public events), else a refusal (nothing public)
            d.submit({"console": "penalty 1" if i % 2 == 0 else "suit purple"})
            sent["took"] = time.perf_counter() - sent["t"]

        await loop.run_in_executor(None, submit)
        took.append(sent["took"])
        await refs[0].next_push()
        at_referee.append(time.perf_counter() - sent["t"])
        for other in refs[1:]:
            await other.next_push()
        if i % 2 == 0:  # a penalty: spectators hear about it
            for spec in specs:
                await spec.next_push()
            at_spectator.append(time.perf_counter() - sent["t"])
    for client in refs + specs:
        await client.close()
    api.stop()
    d.close()
    return took, at_referee, at_spectator


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=200)
    ap.add_argument("--referees", type=int, default=2)
    ap.add_argument("--spectators", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        base = bare(Path(tmp), args.inputs)
        took, ref, spec = asyncio.run(served(Path(tmp), args.inputs, args.referees, args.spectators))
    print(f"submit() without API clients:             {ms(base)}")
    print(f"submit() with {args.referees} referees + {args.spectators} spectators:  {ms(took)}")
    print(f"submit -> push at a referee:               {ms(ref)}")
    print(f"submit -> push at the last spectator:      {ms(spec)}")
    print(f"({args.inputs} inputs, journal fsynced per input; {threading.active_count()} threads at exit)")


if __name__ == "__main__":
    main()
