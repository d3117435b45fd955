"""What a bot in an empty seat costs the table: a resume with one seated, beside the same without.

A resume replays the journal through the daemon, and with a bot seated the
driver follows every line too (the bot hears its seat, and plans its next act
on a copy of itself after each line it heard), which is also its work per
input at a live table.  The games are ear-bot games of `GAME` recorded once;
each journal is resumed twice: as recorded (the anchor, same run) and with
`bot SEAT` as its first input.  The figure is the ratio of the medians, and
the driver's own microseconds per input line.

    .venv/bin/python bench/seat_bot_cost.py [--game witch] [--games 5] [--rounds 5] [--seat 3]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kikimimi.table.daemon import Daemon
from kikimimi.bots.ear import EAR
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Header, dumps
from kikimimi.design.sim import play


def record(game: str, seed: int, players: int, folder: Path, seat: int | None) -> Path:
    """One ear-bot game as a journal; with `seat`, a `bot SEAT` line comes first."""
    script, _ = play(game, seed, players, {}, EAR)
    header, *lines = script
    if seat is not None:
        lines = [{"t": 0.0, "console": f"bot {seat}", "seed": seed}, *lines]
    path = folder / f"{game}-{seed}-{'bot' if seat else 'plain'}.jsonl"
    path.write_text("".join(dumps(line) + "\n" for line in [header, *lines]))
    return path


def resume_seconds(path: Path, header: Header) -> float:
    daemon = Daemon(header, path)
    started = time.perf_counter()
    daemon.open()
    spent = time.perf_counter() - started
    daemon.close()
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="witch")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seat", type=int, default=3)
    args = ap.parse_args()
    decl = declaration(args.game)
    players = decl.default_players
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pairs = [(record(args.game, seed, players, folder, None), record(args.game, seed, players, folder, args.seat))
                 for seed in range(1, args.games + 1)]
        header = Header(args.game, players, {}, "en", {"seed": 1})
        lines = sum(len(p.read_text().splitlines()) - 1 for p, _ in pairs)
        plain, seated = [], []
        for _ in range(args.rounds):
            plain.append(sum(resume_seconds(p, header) for p, _ in pairs))
            seated.append(sum(resume_seconds(b, header) for _, b in pairs))
    a, b = statistics.median(plain), statistics.median(seated)
    print(f"{args.game}, {args.games} ear-bot games, {lines} journal lines, resumed {args.rounds} times each way")
    print(f"  resume without a bot (anchor): median {a * 1e3:.1f} ms ({a / lines * 1e6:.1f} us a line)")
    print(f"  resume with seat {args.seat} a bot:      median {b * 1e3:.1f} ms ({b / lines * 1e6:.1f} us a line)")
    print(f"  ratio {b / a:.2f}x; the bot's own work {(b - a) / lines * 1e6:.1f} us a line")


if __name__ == "__main__":
    main()
