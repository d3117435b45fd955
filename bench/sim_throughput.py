"""Bot games per second: The Trident through the real driver, beside RLCard's UNO in the same run.

The figure players of the designer's table feel is how many whole bot games
a second `kikimimi.design.sim.play` (and `kikimimi sim trident --games N`) gets
through; RLCard's UNO with random agents (`env.run`) is the anchor, timed in
the same rounds so a loaded machine slows both.  Then the same games split
in two, to say who costs what: the engine alone (`Table.feed` of the
recorded scripts, built as `play` builds it) and the bots alone (the
simulation fed the recorded events).  Every figure is the median of the
rounds; the rounds interleave all rows.  Time is this process's CPU time
(`time.process_time`): the build machine is shared, and wall time there
counts the waits for a free core too (all rows are single-threaded).

    .venv/bin/python bench/sim_throughput.py [--games 100] [--rounds 9] [--players 3] [--before REV]
                                             [--blocks 12]

The headline ratio (Trident games per second over UNO's) comes from its own
interleaved blocks, not from the rows: UNO's random games vary a lot in
length (the first 100 games of seed 0 run at about 0.7x the speed of the
next ones), so a ratio over one fixed set of UNO games says which games were
drawn.  Each block plays the next `--games` UNO games of one seeded stream
and the next `--games` Trident seeds, the two in alternating order (so a
load that rises or falls during the run hits both alike); the ratio is total
CPU time over total CPU time (the same number of games each side), printed
with the median and the spread of the blocks' own ratios.

`--before REV` adds rows for the driver and the bots as they were at git
revision REV (kikimimi/design/sim.py and games/trident/simulation.py read from git,
the engine shared), timed in the same rounds: a before/after ratio on a
noisy machine.  RLCard is optional: `pip install '.[bench]'`.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.util
import io
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from kikimimi.contract.parts import simulation
from kikimimi.cli import main as kikimimi_main
from kikimimi.table.engine import Table, default_tagmap
from kikimimi.contract.registry import declaration, register
from kikimimi.contract.script import Header
from kikimimi.design.sim import play


Recorded = list[tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]]


def record(games: int, players: int, bot: str | None) -> Recorded:
    """Each game's script and the events of each of its lines (header's first)."""
    out: Recorded = []
    for seed in range(games):
        steps: list[list[dict[str, Any]]] = []
        script, _ = play("trident", seed, players, {}, bot, watch=lambda _l, evs: steps.append(list(evs)))
        out.append((script, steps))
    return out


def sim_games(games: int, players: int, bot: str | None) -> Callable[[], None]:
    def run() -> None:
        for seed in range(games):
            play("trident", seed, players, {}, bot)
    return run


def search_decisions(games: int, players: int) -> list[float]:
    """CPU seconds of each of the search bot's decisions over `games` games
    (`--bot search`: one search seat among human bots)."""
    from kikimimi_games.trident.search import SearchBot

    took: list[float] = []
    choose = SearchBot.turn_action

    def timed(self: SearchBot, hand: list[str], basket: int) -> dict[str, Any]:
        t0 = time.process_time()
        try:
            return choose(self, hand, basket)
        finally:
            took.append(time.process_time() - t0)

    SearchBot.turn_action = timed  # type: ignore[method-assign]
    try:
        for seed in range(games):
            play("trident", seed, players, {}, "search")
    finally:
        SearchBot.turn_action = choose  # type: ignore[method-assign]
    return took


def cli_games(games: int, players: int) -> Callable[[], None]:
    argv = ["sim", "trident", "--games", str(games), "--seed", "0", "--players", str(players)]

    def run() -> None:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            if kikimimi_main(argv) != 0:
                raise SystemExit("kikimimi sim --games failed")
    return run


def engine_only(recorded: Recorded) -> Callable[[], None]:
    def run() -> None:
        for script, _ in recorded:
            table = Table(Header.parse(script[0]), tagmap=default_tagmap("trident"))
            table.start()
            for n, line in enumerate(script[1:], start=2):
                table.feed(n, line)
            table.close()
    return run


def bots_only(recorded: Recorded, players: int, bot: str | None) -> Callable[[], None]:
    def run() -> None:
        for seed, (_, steps) in enumerate(recorded):
            sim = simulation(declaration("trident"), seed, players, {}, bot)
            sim.observe(steps[0])
            for events in steps[1:]:
                sim.next_input()
                sim.observe(events)
    return run


def module_at(rev: str, path: str, name: str, package: str) -> ModuleType:
    """A module's source as it was at git revision `rev`, loaded under a name of its own."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=root, capture_output=True,
                            text=True, check=True).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[name] = module  # dataclasses look their module up
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


@contextlib.contextmanager
def bots_of(simulation: ModuleType) -> Iterator[None]:
    """Trident games played by another version's bots for the duration (the
    declaration names them by module: `module_at` put it in sys.modules)."""
    saved = declaration("trident")
    register(dataclasses.replace(saved, bot_table=f"{simulation.__name__}:TridentSimulation"))
    try:
        yield
    finally:
        register(saved)


def before_rows(rev: str, games: int, players: int, recorded: Recorded, inputs: int) -> dict[str, tuple[Callable[[], None], int]]:
    old_sim = module_at(rev, "kikimimi/design/sim.py", "_bench_before_sim", "kikimimi")
    if hasattr(old_sim, "game_class"):  # a driver from before the declaration: it read the same fields off the class
        old_sim.game_class = declaration
    old_bots = module_at(rev, "games/trident/simulation.py", "kikimimi_games.trident._bench_before", "kikimimi_games.trident")

    def sim_before() -> None:
        with bots_of(old_bots):
            for seed in range(games):
                old_sim.play("trident", seed, players, {}, None)

    def bots_before() -> None:
        with bots_of(old_bots):
            bots_only(recorded, players, None)()

    return {f"sim.play, human bots, at {rev}": (sim_before, inputs),
            f"  bots alone, human, at {rev}": (bots_before, inputs)}


def uno_stream() -> Callable[[int], None] | None:
    """`run(n)`: the next n games of one seeded stream of UNO games with random agents."""
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(0)  # RandomAgent draws from numpy's global generator

    def run(n: int) -> None:
        for _ in range(n):
            env.run(is_training=False)
    return run


def interleaved_blocks(blocks: int, games: int, players: int) -> tuple[list[float], list[float]] | None:
    """CPU seconds of each block: (UNO's, the Trident's), each block new games on both sides."""
    uno = uno_stream()
    if uno is None:
        return None
    uno_t: list[float] = []
    tri_t: list[float] = []
    for b in range(blocks):
        def trident(first: int = b * games) -> None:
            for seed in range(first, first + games):
                play("trident", seed, players, {}, None)
        order = [(uno_t, lambda: uno(games)), (tri_t, trident)]
        for into, fn in (order if b % 2 == 0 else order[::-1]):
            t0 = time.process_time()
            fn()
            into.append(time.process_time() - t0)
    return uno_t, tri_t


def uno_games(games: int) -> Callable[[], None] | None:
    """The rows' anchor: each call the next `games` games of the stream."""
    stream = uno_stream()
    if stream is None:
        return None
    return lambda: stream(games)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games a row plays in each round")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--before", metavar="REV", help="also time the driver and bots of this git revision")
    ap.add_argument("--blocks", type=int, default=12,
                    help="interleaved blocks of --games UNO and --games Trident games for the headline ratio")
    ap.add_argument("--search-games", type=int, default=None,
                    help="games a round of the search-bot row plays (default: games / 10; it searches)")
    a = ap.parse_args()
    human = record(a.games, a.players, None)
    rand = record(a.games, a.players, "random")
    inputs = {"human": sum(len(s) - 1 for s, _ in human), "random": sum(len(s) - 1 for s, _ in rand)}
    rows: dict[str, tuple[Callable[[], None], int | None]] = {
        "sim.play, human bots (default)": (sim_games(a.games, a.players, None), inputs["human"]),
        "sim.play, random bots": (sim_games(a.games, a.players, "random"), inputs["random"]),
        f"kikimimi sim trident --games {a.games} (human)": (cli_games(a.games, a.players), inputs["human"]),
        "  engine alone: Table.feed, human games": (engine_only(human), inputs["human"]),
        "  bots alone: next_input + observe, human": (bots_only(human, a.players, None), inputs["human"]),
    }
    searching = a.search_games or max(1, a.games // 10)
    rows["sim.play, search bot in one seat, human bots"] = (sim_games(searching, a.players, "search"), None)
    if a.before:
        rows.update(before_rows(a.before, a.games, a.players, human, inputs["human"]))
    uno = uno_games(a.games)
    if uno is not None:
        rows["RLCard UNO, random agents (anchor)"] = (uno, None)
    times: dict[str, list[float]] = {k: [] for k in rows}
    for _ in range(a.rounds):
        for label, (fn, _n) in rows.items():
            t0 = time.process_time()
            fn()
            times[label].append(time.process_time() - t0)

    print(f"{a.games} games a row, {a.rounds} rounds (medians, CPU time), The Trident with {a.players} players, "
          f"{inputs['human'] / a.games:.1f} inputs per human game, {inputs['random'] / a.games:.1f} per random game")
    played = {k: searching if "search bot" in k else a.games for k in rows}
    rate = {k: played[k] / statistics.median(v) for k, v in times.items()}
    for label, (_fn, n) in rows.items():
        per = f"  {1e6 * statistics.median(times[label]) / n:6.2f} us/input" if n else ""
        print(f"{label:48s} {rate[label]:8.0f} games/s{per}")
    took = sorted(search_decisions(searching, a.players))
    human_game = 1 / rate["sim.play, human bots (default)"]
    median, p95 = statistics.median(took), took[int(0.95 * (len(took) - 1))]
    print(f"search bot: {len(took)} decisions in {searching} games, median {1e3 * median:.2f} ms, "
          f"p95 {1e3 * p95:.2f} ms, max {1e3 * took[-1]:.2f} ms CPU per decision "
          f"({median / human_game:.1f}x one whole human-bot game, same run)")
    if uno is None:
        print("RLCard not installed: pip install '.[bench]'")
        return
    anchor = rate["RLCard UNO, random agents (anchor)"]
    ours = rate["sim.play, human bots (default)"]
    print(f"ratio search-bot games / RLCard UNO: {rate['sim.play, search bot in one seat, human bots'] / anchor:.2f}x")
    print(f"rows' ratio Trident sim.play (human) / RLCard UNO: {ours / anchor:.2f}x (the same Trident seeds "
          "every round, UNO's stream moving on: a diagnostic, not the headline)")
    blocks = interleaved_blocks(a.blocks, a.games, a.players)
    assert blocks is not None
    uno_t, tri_t = blocks
    ratios = sorted(u / t for u, t in zip(uno_t, tri_t))
    total = sum(uno_t) / sum(tri_t)
    n = a.blocks * a.games
    print(f"headline, {a.blocks} interleaved blocks of {a.games} new games each side ({n} UNO games of one "
          f"stream, Trident seeds 0..{n - 1}): UNO {n / sum(uno_t):.0f} games/s, Trident {n / sum(tri_t):.0f} "
          f"games/s CPU")
    print(f"ratio Trident / RLCard UNO: {total:.2f}x over all blocks; blocks' own ratios median "
          f"{statistics.median(ratios):.2f}x, lowest {ratios[0]:.2f}x, highest {ratios[-1]:.2f}x; "
          f">= 1.0x: {'met' if total >= 1.0 and statistics.median(ratios) >= 1.0 else 'not met'} "
          f"({sum(r >= 1.0 for r in ratios)} of {len(ratios)} blocks at or above 1.0x)")


if __name__ == "__main__":
    main()
