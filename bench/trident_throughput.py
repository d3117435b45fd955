"""How fast The Trident runs bot games: games per second and microseconds per input.

Two figures, because they answer different questions:
- game: `TridentGame.handle` alone, fed the recorded inputs of bot games
  (what the rules cost; compare RLCard's UNO at about 12.6 us a step);
- engine: the same scripts through `kikimimi.engine.Table` (validation,
  numbering, phrase rendering), i.e. what `kikimimi replay` costs.
Bots are not timed: their scripts are recorded first.

    .venv/bin/python bench/trident_throughput.py [GAMES] [PLAYERS]
"""
from __future__ import annotations

import json
import sys
import time

from kikimimi.engine import Table
from kikimimi.protocol import Input
from kikimimi.script import Header, dumps
from kikimimi.sim import play
from kikimimi_games.trident import TridentGame


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    t0 = time.perf_counter()
    scripts = [play("trident", seed, players)[0] for seed in range(games)]
    sim_s = time.perf_counter() - t0
    inputs = sum(len(s) - 1 for s in scripts)
    as_inputs = [
        [Input(t=l["t"], line=i, reader=l.get("reader"), seat=l.get("seat"), tag=l.get("tag"),
               console=l.get("console")) for i, l in enumerate(s[1:], start=2)]
        for s in scripts
    ]

    t0 = time.perf_counter()
    for script in as_inputs:
        game = TridentGame(players, {})
        game.start(0.0)
        for inp in script:
            game.handle(inp)
    game_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    for script in scripts:
        table = Table(Header.parse(script[0]))
        table.start()
        for n, line in enumerate(script[1:], start=2):
            table.feed(n, line)
    engine_s = time.perf_counter() - t0

    events = [ev for script in scripts[:50] for ev in _events(script)]
    t0 = time.perf_counter()
    for ev in events:
        json.dumps(ev, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    per_call_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for ev in events:
        dumps(ev)
    dumps_s = time.perf_counter() - t0

    print(f"{games} bot games, {players} players, {inputs} inputs ({inputs / games:.1f} per game)")
    print(f"sim    (bots + engine, kikimimi.sim.play): {games / sim_s:8.0f} games/s")
    print(f"game   (TridentGame.handle): {games / game_s:8.0f} games/s  {1e6 * game_s / inputs:6.2f} us/input")
    print(f"engine (Table.feed):         {games / engine_s:8.0f} games/s  {1e6 * engine_s / inputs:6.2f} us/input")
    print(f"log line (kikimimi.script.dumps, one encoder): {1e6 * dumps_s / len(events):5.2f} us/event; "
          f"json.dumps with options per call (the anchor): {1e6 * per_call_s / len(events):5.2f} us/event; "
          f"ratio {per_call_s / dumps_s:.2f}x")


def _events(script: list) -> list:
    table = Table(Header.parse(script[0]))
    out = table.start()
    for n, line in enumerate(script[1:], start=2):
        out += table.feed(n, line)
    return out


if __name__ == "__main__":
    main()
