"""Run a command (by default the whole test suite) beside a CPU burner, and say what load it held at.

The build machine is shared: CI runs while other work takes the cores, so a
test that waits on wall-clock time instead of events fails there and passes
on a rerun.  This bench makes that machine on purpose: it starts `--burners`
busy processes (pure Python loops, the same priority as the suite), runs the
command beside them, samples the 1-minute load average every few seconds,
and prints the command's exit status with the load it ran at (median, p95,
highest) and the figure it is anchored to (the load before the burner
started, same run).

    .venv/bin/python bench/suite_under_load.py [--burners 8] [--sample-seconds 5] [-- CMD ...]

With no CMD it runs `scripts/test -q` (the README's test
command).  The burners are killed when the command ends, whatever happens.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _burn() -> None:
    """A busy loop: one runnable process, as a compile or another suite would be."""
    while True:
        pass


def _load_average() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def _sample(stop: threading.Event, every: float, into: list[float]) -> None:
    while not stop.wait(every):
        into.append(_load_average())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=8, help="busy processes beside the command (default 8)")
    parser.add_argument("--sample-seconds", type=float, default=5.0)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run (after --)")
    args = parser.parse_args(argv)
    if not 0 <= args.burners <= 64:
        parser.error("--burners: 0 to 64")
    command = [c for c in args.command if c != "--"] or [str(ROOT / "scripts" / "test"), "-q"]

    before = _load_average()
    burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(args.burners)]
    for burner in burners:
        burner.start()
    samples: list[float] = []
    stop = threading.Event()
    sampler = threading.Thread(target=_sample, args=(stop, args.sample_seconds, samples), daemon=True)
    sampler.start()
    started = time.monotonic()
    try:
        status = subprocess.call(command, cwd=ROOT)
    finally:
        stop.set()
        for burner in burners:
            burner.kill()
        for burner in burners:
            burner.join()
    minutes = (time.monotonic() - started) / 60
    print(f"command: {' '.join(command)}")
    print(f"exit status {status} after {minutes:.1f} min beside {args.burners} burners on {os.cpu_count()} cores")
    if samples:
        ordered = sorted(samples)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        print(f"load average (1 min) while it ran: median {statistics.median(samples):.1f}, "
              f"p95 {p95:.1f}, highest {max(samples):.1f} ({len(samples)} samples); "
              f"before the burner: {before:.1f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
