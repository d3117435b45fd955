"""How fast `kikimimi replay` runs: script lines per second, this tree beside a git revision.

The real command (`kikimimi.cli.play.cmd_replay`: read and parse the script,
`ScriptRun.feed` every line, `dumps` every event, write to stdout) is timed
in-process over recorded bot games, stdout sent to /dev/null, so process
start-up (bench/startup.py) is not in the figure.  The games are recorded
once with this tree's bots; every side replays the same files.

The anchor ("today's" figure) is the same measuring code run under another
revision's code, default `anchor_revision.BEFORE` (main before the engine
work of docs/speed.md), unpacked by `anchor_revision.Revision`: the sides
alternate in fresh subprocesses `--rounds` times, each round timing
`PASSES` passes.  The figure is each side's fastest pass (on a shared,
loaded machine the noise only ever adds time), with the median of the
rounds' fastest beside it.  The bench also checks that both sides printed
the same bytes.

    .venv/bin/python bench/replay.py [GAMES] [--players N] [--public] [--anchor REV] [--rounds N]
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from anchor_revision import BEFORE, Revision, code_of, run_python

PASSES = 5


def measure(folder: str, public: bool) -> dict[str, object]:
    """One round under whatever code is importable."""
    from kikimimi.cli.play import cmd_replay

    files = sorted(Path(folder).glob("*.jsonl"))
    lines = sum(len(f.read_bytes().splitlines()) for f in files)

    def replay_all(sink: io.TextIOBase) -> None:
        saved = sys.stdout
        sys.stdout = sink
        try:
            for f in files:
                cmd_replay(argparse.Namespace(script=str(f), public=public, tagmap=None))
        finally:
            sys.stdout = saved

    captured = io.StringIO()
    replay_all(captured)  # also warms the catalogues and imports, as a second replay in a process would be
    times = []
    with open(os.devnull, "w", encoding="utf-8") as null:
        for _ in range(PASSES):
            t0 = time.perf_counter()
            replay_all(null)
            times.append(time.perf_counter() - t0)
    out = captured.getvalue()
    return {"lines": lines, "events": out.count("\n"), "us_per_line": 1e6 * min(times) / lines,
            "sha256": hashlib.sha256(out.encode("utf-8")).hexdigest()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=100)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--public", action="store_true", help="replay --public (only what a spectator sees)")
    ap.add_argument("--anchor", default=BEFORE,
                    help=f"git revision measured beside this tree (default: {BEFORE}, main before the work)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--measure", metavar="FOLDER", help=argparse.SUPPRESS)  # one round, in a subprocess
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.public)))
        return

    from kikimimi.contract.script import dumps
    from kikimimi.design.sim import play

    with tempfile.TemporaryDirectory() as tmp, Revision(args.anchor) as anchor:
        for seed in range(args.games):
            script, _ = play("trident", seed, args.players)
            Path(tmp, f"game-{seed:05d}.jsonl").write_text("".join(dumps(l) + "\n" for l in script),
                                                           encoding="utf-8")
        sides: dict[str, Revision | None] = {"this tree": None, args.anchor: anchor}
        for name, rev in sides.items():
            print(f"{name:>10} ({rev.commit if rev else 'worktree'}): {code_of('kikimimi.cli.play', rev)}")
        runs: dict[str, list[dict[str, object]]] = {name: [] for name in sides}
        extra = ["--public"] if args.public else []
        for _ in range(args.rounds):
            for name, rev in sides.items():
                runs[name].append(json.loads(run_python([__file__, "--measure", tmp, *extra], rev)))
    new, old = runs["this tree"], runs[args.anchor]
    lines, events = new[0]["lines"], new[0]["events"]
    same = len({r["sha256"] for side in (new, old) for r in side}) == 1
    print(f"kikimimi replay{' --public' if args.public else ''} of {args.games} Trident bot games "
          f"({args.players} players): {lines} script lines, {events} log lines; "
          f"{args.rounds} alternating rounds of {PASSES} passes")
    a, b = (min(float(r["us_per_line"]) for r in side) for side in (new, old))  # type: ignore[arg-type]
    am, bm = (statistics.median(float(r["us_per_line"]) for r in side) for side in (new, old))  # type: ignore[arg-type]
    print(f"{'':14} {'fastest':>16} {'':>14}   {'median of rounds':>16}")
    print(f"this tree      {a:7.2f} us/line  {1e6 / a:9.0f} lines/s   {am:7.2f} us/line")
    print(f"{args.anchor:14} {b:7.2f} us/line  {1e6 / b:9.0f} lines/s   {bm:7.2f} us/line")
    print(f"speed-up {b / a:.2f}x (fastest), {bm / am:.2f}x (median); "
          f"output identical on both sides: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
