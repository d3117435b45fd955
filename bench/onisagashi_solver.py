"""Solver speed over whole simulated 鬼探し games: matrix update and best declaration.

Usage: .venv/bin/python bench/onisagashi_solver.py [--games N] [--players K] [--rules advanced|beginner]

For every seat and every knowledge state a real game passes through (after
the deal and after each declaration), times building the exact matrix
("update") and then the best declaration.  Prints median and p95 in ms.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the states as the solver test walks them (tests/onisagashi/views.py)

from kikimimi.design.sim import play
from kikimimi_games.onisagashi.solver import Analysis
from onisagashi.views import seat_views


def pct(values, q):
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--rules", default="advanced", choices=("advanced", "beginner"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", default="best", choices=("best", "random"), help="whose games to measure")
    args = ap.parse_args()
    update, best = [], []
    for g in range(args.seed, args.seed + args.games):
        _, log = play("onisagashi", g, args.players, {"rules": args.rules}, args.bot)
        for k in seat_views(log, args.rules, args.players):
            t0 = time.perf_counter()
            a = Analysis(k)
            a.possible  # the matrix itself, not just the rows
            t1 = time.perf_counter()
            a.best()
            t2 = time.perf_counter()
            update.append((t1 - t0) * 1000)
            best.append((t2 - t1) * 1000)
    print(f"onisagashi solver: {args.games} games, {args.players} players, {args.rules} rules, {args.bot} bots, {len(update)} knowledge states")
    for name, xs in (("matrix update", update), ("best declaration", best)):
        print(f"  {name:17s} median {statistics.median(xs):7.2f} ms   p95 {pct(xs, 95):7.2f} ms   max {max(xs):7.2f} ms")


if __name__ == "__main__":
    main()
