"""How fast The Trident runs: microseconds per input, this tree beside a git revision.

Four figures, because they answer different questions:
- game: `TridentGame.handle` alone, fed the recorded inputs of bot games
  (what the rules cost; RLCard's UNO step measured ~10 us on this machine);
- engine: the same scripts through `kikimimi.table.engine.Table.feed` (validation,
  numbering, phrase rendering, timers): the path of `serve` and `replay`;
- log line: `kikimimi.contract.script.dumps` of the events those scripts make;
- sim: bot games played end to end (`kikimimi.design.sim.play`).
Bots are not timed in the first three: their scripts are recorded once (with
this tree's code) and every side replays the same scripts.

The anchor is the same measuring code run under another revision's code
(default `anchor_revision.BEFORE`: main before the engine work of docs/speed.md),
unpacked by `anchor_revision.Revision`; the sides alternate in fresh subprocesses, `--rounds` times, each round keeping the best of
`PASSES` passes; a figure is each side's best round (on a shared, loaded
machine the noise only ever adds time), with the median of the rounds beside it.

    .venv/bin/python bench/trident_throughput.py [GAMES] [PLAYERS] [--anchor REV] [--rounds N]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from anchor_revision import BEFORE, Revision, code_of, run_python

PASSES = 5


def measure(scripts_file: str, sim_games: int) -> dict[str, float]:
    """One round under whatever code is importable: the figures, as JSON-able numbers."""
    from kikimimi.table.engine import Table
    from kikimimi.contract.protocol import Input
    from kikimimi.contract.script import Header, dumps
    from kikimimi.design.sim import play
    from kikimimi_games.trident import TridentGame

    scripts = json.loads(Path(scripts_file).read_text(encoding="utf-8"))
    players = scripts[0][0]["players"]
    inputs = sum(len(s) - 1 for s in scripts)
    as_inputs = [
        [Input(t=l["t"], line=i, reader=l.get("reader"), seat=l.get("seat"), tag=l.get("tag"),
               console=l.get("console")) for i, l in enumerate(s[1:], start=2)]
        for s in scripts
    ]

    def game() -> None:
        for script in as_inputs:
            g = TridentGame(players, {})
            g.start(0.0)
            for inp in script:
                g.handle(inp)

    def engine() -> None:
        for script in scripts:
            table = Table(Header.parse(script[0]))
            table.start()
            for n, line in enumerate(script[1:], start=2):
                table.feed(n, line)

    events = []
    for script in scripts[:50]:
        table = Table(Header.parse(script[0]))
        events += table.start()
        for n, line in enumerate(script[1:], start=2):
            events += table.feed(n, line)

    def log_lines() -> None:
        for ev in events:
            dumps(ev)

    def json_per_call() -> None:
        for ev in events:
            json.dumps(ev, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)

    def sim() -> None:
        for seed in range(sim_games):
            play("trident", seed, players)

    def best(fn: object) -> float:
        times = []
        for _ in range(PASSES):
            t0 = time.perf_counter()
            fn()  # type: ignore[operator]
            times.append(time.perf_counter() - t0)
        return min(times)

    return {
        "handle_us": 1e6 * best(game) / inputs,
        "feed_us": 1e6 * best(engine) / inputs,
        "dumps_us": 1e6 * best(log_lines) / len(events),
        "json_dumps_us": 1e6 * best(json_per_call) / len(events),
        "sim_games_s": sim_games / best(sim),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=200)
    ap.add_argument("players", type=int, nargs="?", default=3)
    ap.add_argument("--anchor", default=BEFORE,
                    help=f"git revision measured beside this tree (default: {BEFORE}, main before the work)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sim-games", type=int, default=100, help="bot games per sim pass")
    ap.add_argument("--measure", metavar="SCRIPTS", help=argparse.SUPPRESS)  # one round, in a subprocess
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.sim_games)))
        return

    from kikimimi.design.sim import play

    scripts = [play("trident", seed, args.players)[0] for seed in range(args.games)]
    inputs = sum(len(s) - 1 for s in scripts)
    with tempfile.TemporaryDirectory() as tmp, Revision(args.anchor) as anchor:
        path = Path(tmp) / "scripts.json"
        path.write_text(json.dumps(scripts), encoding="utf-8")
        sides: dict[str, Revision | None] = {"this tree": None, f"{args.anchor} ({anchor.commit})": anchor}
        for name, rev in sides.items():
            print(f"{name:>24}: {code_of('kikimimi.table.engine', rev)}")
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
        for _ in range(args.rounds):
            for name, rev in sides.items():
                out = run_python([__file__, "--measure", str(path), "--sim-games", str(args.sim_games)], rev)
                runs[name].append(json.loads(out))
    print(f"{args.games} bot games, {args.players} players, {inputs} inputs ({inputs / args.games:.1f} per game); "
          f"{args.rounds} alternating rounds, best of {PASSES} passes each")
    new, old = runs["this tree"], next(v for k, v in runs.items() if k != "this tree")
    rows = [
        ("game   TridentGame.handle", "handle_us", "us/input", True),
        ("engine Table.feed", "feed_us", "us/input", True),
        ("log line script.dumps", "dumps_us", "us/event", True),
        ("sim    bots + engine (sim.play)", "sim_games_s", "games/s", False),
    ]
    print(f"{'best round':34} {'this tree':>10} {args.anchor:>10}   speed-up   "
          f"(median of rounds: this tree, {args.anchor}, speed-up)")
    for label, key, unit, lower_better in rows:
        pick = min if lower_better else max
        a, b = pick(r[key] for r in new), pick(r[key] for r in old)
        am, bm = statistics.median(r[key] for r in new), statistics.median(r[key] for r in old)
        ratio, ratio_m = (b / a, bm / am) if lower_better else (a / b, am / bm)
        print(f"{label:34} {a:10.2f} {b:10.2f}   {ratio:5.2f}x     ({am:.2f}, {bm:.2f}, {ratio_m:.2f}x)  {unit}")
    a = min(r["json_dumps_us"] for r in new)
    print(f"{'(json.dumps, options per call)':34} {a:10.2f} {'':10}   the log line's in-process anchor (us/event)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
