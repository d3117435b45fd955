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

The machine's own ceiling is measured in the same rounds: two one-worker
reports of the same plan started together, as two designers would run them.
Two independent processes share nothing but the machine (its caches, its
memory bus, a host that may not give a virtual machine two whole cores), so
`2 x one worker / the pair` is the most any split of this work into two
processes can gain here; the speedup is printed beside it and as a share of it.

    .venv/bin/python bench/report_workers.py [--game witch] [--games 200] [--players 6,8,10] [--rounds 3]
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


def report(game: str, games: int, players: str, workers: int, out: Path) -> subprocess.Popen[bytes]:
    """`kikimimi report` writing `out` (one name in each side's folder: the page quotes it)."""
    return subprocess.Popen([str(KIKIMIMI), "report", game, "--games", str(games), "--players", players,
                             "--workers", str(workers), "-o", out.name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=out.parent)


def finished(proc: subprocess.Popen[bytes]) -> None:
    if proc.wait() != 0:
        raise SystemExit(f"kikimimi report exited with {proc.returncode}")


def once(game: str, games: int, players: str, workers: int, out: Path) -> tuple[float, float, str]:
    start, cpu = time.perf_counter(), _cpu()
    finished(report(game, games, players, workers, out))
    took = time.perf_counter() - start
    return took, _cpu() - cpu, hashlib.sha256(out.read_bytes()).hexdigest()


def pair(game: str, games: int, players: str, folder: Path) -> float:
    """Wall seconds for two one-worker reports of the same plan, started together."""
    start = time.perf_counter()
    procs = []
    for side in ("a", "b"):
        out = folder / f"pair-{side}" / "report.html"
        out.parent.mkdir(exist_ok=True)
        procs.append(report(game, games, players, 1, out))
    for proc in procs:
        finished(proc)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="witch")
    ap.add_argument("--games", type=int, default=200)  # the report's own default
    ap.add_argument("--players", default="6,8,10")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    times: dict[int, list[float]] = {1: [], args.workers: []}
    busy: dict[int, list[float]] = {1: [], args.workers: []}  # CPU seconds per wall second: cores kept busy
    fixed: dict[int, list[float]] = {1: [], args.workers: []}  # one game per count: what cores cannot share
    digests: set[str] = set()
    load_before = os.getloadavg()[0]
    rounds: list[str] = []
    speedups: list[float] = []  # each round's own: the machine's speed drifts from minute to minute
    ceilings: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            took_in: dict[int | str, float] = {}
            sides: list[int | str] = [1, args.workers] + (["pair"] if args.workers == 2 else [])
            for w in (sides if r % 2 == 0 else sides[::-1]):  # half the rounds the other way round
                if w == "pair":
                    took_in[w] = pair(args.game, args.games, args.players, Path(tmp))
                    continue
                assert isinstance(w, int)
                out = Path(tmp) / f"w{w}" / "report.html"
                out.parent.mkdir(exist_ok=True)
                took, cpu, digest = once(args.game, args.games, args.players, w, out)
                took_in[w] = took
                times[w].append(took)
                busy[w].append(cpu / took)
                digests.add(digest)
            speedups.append(took_in[1] / took_in[args.workers])
            line = (f"  round {r + 1}: 1 worker {took_in[1]:.2f} s, {args.workers} workers "
                    f"{took_in[args.workers]:.2f} s ({speedups[-1]:.2f}x)")
            if "pair" in took_in:
                ceilings.append(2 * took_in[1] / took_in["pair"])
                line += f", two one-worker runs at once {took_in['pair']:.2f} s (ceiling {ceilings[-1]:.2f}x)"
            rounds.append(line)
        for w in times:
            for _ in range(args.rounds):
                out = Path(tmp) / f"w{w}" / "one.html"
                fixed[w].append(once(args.game, 1, args.players, w, out)[0])
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
    print("\n".join(rounds))
    one, many = statistics.median(times[1]), statistics.median(times[args.workers])
    print(f"speedup: median of the rounds' own {statistics.median(speedups):.2f}x (of the medians {one / many:.2f}x; "
          f"target 1.8x on {args.workers} free cores)")
    if ceilings:
        ceiling = statistics.median(ceilings)
        print(f"the machine's ceiling: two one-worker runs at once did {ceiling:.2f}x the work of one in its time "
              f"(median of the rounds); --workers {args.workers} gets "
              f"{statistics.median(s / c for s, c in zip(speedups, ceilings)):.0%} of it")
    print("pages identical: " + ("yes" if len(digests) == 1 else f"NO ({len(digests)} different)"))
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
