"""Kill-after-timer at scale: a real `kikimimi serve` SIGKILLed right
after each timer in the real-time games, restarted, and held to "nothing
announced is taken back" (support.killtimer: every event told before
any kill is the event of that `seq` after the last resume).

Prints, per game: the kills by kind of timer, the events told, how many were
told twice (a kill between telling and marking them told) and how many were
first told by a restarted daemon (applied, never told before the kill), the
problems found (must be 0), and the median restart (process start, journal
replay, the probe's answer) beside the anchor measured in the same run: the
median of a plain start and stop of the same table with an empty journal.

    .venv/bin/python bench/kill_after_timer.py [--kills 100] [--games mafia42,witch,onisagashi]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

from support.killtimer import PLANS, run
from kikimimi.testkit.tables import sim_table_toml


def cold_start(folder: Path, game: str, players: int, times: int = 5) -> float:
    """The anchor: `serve` started on an empty journal and stopped by end of input."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "table.toml").write_text(sim_table_toml(game, players), encoding="utf-8")
    seconds = []
    for i in range(times):
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text", "--quiet",
                        "--fresh", "--sim-readers", "interactive"], cwd=folder, input=b"",
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=60)
        seconds.append(time.monotonic() - started)
    return statistics.median(seconds)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--games", default=",".join(PLANS))
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    with tempfile.TemporaryDirectory() as tmp:
        anchor = cold_start(Path(tmp) / "anchor", "mafia42", 4)
        with ThreadPoolExecutor(len(games)) as pool:
            futures = {g: pool.submit(run, PLANS[g](), Path(tmp) / g, args.kills, None, 3600.0) for g in games}
            outcomes = {g: f.result() for g, f in futures.items()}
    failed = 0
    print(f"anchor: a cold start and stop of serve, median of 5: {anchor:.2f} s")
    for game, o in outcomes.items():
        restart = statistics.median(o.restart_seconds) if o.restart_seconds else float("nan")
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(o.kills.items()))
        print(f"{game}: {sum(o.kills.values())} kills ({kinds}); {o.told} events told, {o.repeated} told twice, "
              f"{o.unspoken_told} first told on resume; problems: {len(o.problems)}; "
              f"restart median {restart:.2f} s = {restart / anchor:.2f}x the anchor; {o.seconds:.0f} s in all")
        for problem in o.problems[:5]:
            print(f"  {problem}")
        failed += bool(o.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
