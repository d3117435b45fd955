"""How much `kikimimi report --workers 2` gains over one worker, on the same plan.

The anchor is the single-worker run of the same report, measured in the same
run: the two sides alternate, each a fresh `kikimimi report` process (so its
start-up, the spawn of its workers and the page's drawing are in the figure,
as a designer waits for them), `--rounds` times.  It prints each side's
median and fastest wall time and the speedup of the medians (target: 1.8x on
2 free cores; on a shared machine the other load only ever takes from the
workers), how many cores each side kept busy (its processes' CPU seconds per
wall second: near 2 for two workers when the cores are free), and checks that
both sides wrote the same bytes.  It also times each side's fixed cost, a
report of one game per count (start-up, imports, the workers' spawn and the
page), so the part of a short run that more cores cannot share is in sight,
and prints the load average before and after.

    .venv/bin/python bench/report_workers.py [--game witch] [--games 60] [--players 6,8,10] [--rounds 3]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIKIMIMI = Path(sys.executable).with_name("kikimimi")


def _cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def once(game: str, games: int, players: str, workers: int, out: Path) -> tuple[float, float, str]:
    cmd = [str(KIKIMIMI), "report", game, "--games", str(games), "--players", players,
           "--workers", str(workers), "-o", out.name]  # one name in each side's folder: the page quotes it
    start, cpu = time.perf_counter(), _cpu()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=out.parent)
    took = time.perf_counter() - start
    return took, _cpu() - cpu, hashlib.sha256(out.read_bytes()).hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="witch")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", default="6,8,10")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    times: dict[int, list[float]] = {1: [], args.workers: []}
    busy: dict[int, list[float]] = {1: [], args.workers: []}  # CPU seconds per wall second: cores kept busy
    fixed: dict[int, list[float]] = {1: [], args.workers: []}  # one game per count: what cores cannot share
    digests: set[str] = set()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for w in times:
                out = Path(tmp) / f"w{w}" / "report.html"
                out.parent.mkdir(exist_ok=True)
                took, cpu, digest = once(args.game, args.games, args.players, w, out)
                times[w].append(took)
                busy[w].append(cpu / took)
                digests.add(digest)
                fixed[w].append(once(args.game, 1, args.players, w, out.with_name("one.html"))[0])
    games = args.games * len(args.players.split(","))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    print(f"kikimimi report {args.game}: {games} games, {args.rounds} rounds alternating, {cores} cores visible, "
          f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    for w, ts in times.items():
        label = "1 worker (anchor)" if w == 1 else f"{w} workers"
        print(f"  {label:<18} median {statistics.median(ts):6.2f} s   fastest {min(ts):6.2f} s   "
              f"cores busy (CPU s / wall s) median {statistics.median(busy[w]):.2f}   "
              f"fixed cost (1 game per count) median {statistics.median(fixed[w]):.2f} s")
    one, many = statistics.median(times[1]), statistics.median(times[args.workers])
    print(f"speedup of the medians: {one / many:.2f}x (fastest: {min(times[1]) / min(times[args.workers]):.2f}x; "
          f"target 1.8x on {args.workers} free cores)")
    print("pages identical: " + ("yes" if len(digests) == 1 else f"NO ({len(digests)} different)"))
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
