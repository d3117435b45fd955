"""The bot-game driver behind `kikimimi sim`.

A game's `Simulation` (its physical table and bots) proposes script lines;
the driver stamps their time, pushes them through the same `Table` as a real
table, and shows the bots what happened.  The recorded lines are a table
script, so `kikimimi replay` of a recording prints the identical log.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from kikimimi.contract import parts as declared
from kikimimi.bots.ear import EAR, EarTable, figures_line, game_figures
from kikimimi.table.engine import LogEvent, Table, default_tagmap
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Header

#: A bot game that has not ended after this many inputs is stopped by the referee.
MAX_INPUTS = 20_000

Watcher = Callable[[dict[str, Any], Sequence[LogEvent]], None]


@functools.lru_cache(maxsize=16)
def _tagmap(game: str) -> Mapping[str, str]:
    """The packaged tag map, read once per process, not once per bot game
    (the Table copies it, so sharing one is safe)."""
    return default_tagmap(game)


def play(
    game: str,
    seed: int,
    players: int,
    options: Mapping[str, Any] | None = None,
    bot: str | None = None,
    *,
    lang: str = "en",
    watch: Watcher | None = None,
    max_inputs: int = MAX_INPUTS,
    prepare: Callable[[Any], None] | None = None,
) -> tuple[list[dict[str, Any]], list[LogEvent]]:
    """Play one bot game; return (script lines with the header first, event log).

    `watch(line, events)` is called after each input (the narrator, the
    audio output and the console use it to follow the game as it happens).
    `prepare(simulation)` may change the physical table before the game starts
    (the knowledge tests deal another seat other pieces: kikimimi/testkit/knowledge.py).
    """
    decl = declaration(game)
    options = dict(options or {})
    header = Header(decl.name, players, options, lang, {"seed": seed})
    table = Table(header, tagmap=_tagmap(decl.name))
    simulation = declared.simulation(decl, seed, players, options, bot)
    if bot == EAR and not isinstance(simulation, EarTable):  # never report other bots as ear bots
        raise NotImplementedError(f"{decl.name} has no ear bots yet (see docs/ear.md)")
    if prepare is not None:
        prepare(simulation)
    script: list[dict[str, Any]] = [header.to_json()]
    log = table.start()
    simulation.observe(log)
    if watch:
        watch(script[0], log)
    feed, feed_placed = table.feed, table.feed_placed
    next_input, observe = simulation.next_input, simulation.observe
    t = 0.0
    whole = True  # t is a whole second
    number = 1  # the script's last line number (len(script), kept as a count: asked three times an input)
    while not table.game.over:
        proposed: dict[str, Any] | None = {"console": "stop"} if number > max_inputs else next_input()
        if proposed is None:
            break
        if whole and "dt" not in proposed:  # a whole second plus one is whole: nothing to round
            t += 1.0
            line = {"t": t, **proposed}  # the line as recorded: its time first, one copy of the proposal
        else:
            dt = proposed.get("dt")
            t += 1.0 if dt is None else float(dt)
            whole = t.is_integer()
            if not whole:  # round() costs a decimal conversion; a whole second is already exact
                t = round(t, 3)
            line = {"t": t, **proposed}
            if "dt" in line:
                del line["dt"]
        script.append(line)
        number += 1
        # A plain placement (nearly every line a bot proposes) is handed to the table as the
        # values it is made of, not read back out of the line (`Table.feed_placed`).
        reader = proposed.get("reader")
        if reader == "hand" and len(proposed) == 3 and "seat" in proposed and "tag" in proposed:
            events = feed_placed(number, line, t, reader, proposed["seat"], proposed["tag"])
        elif reader == "field" and len(proposed) == 2 and "tag" in proposed:
            events = feed_placed(number, line, t, reader, None, proposed["tag"])
        else:
            events = feed(number, line)
        log += events
        observe(events)
        if watch:
            watch(line, events)
        if number > max_inputs + 1 and line.get("console") == "stop":
            break
    table.close()  # the game is done with: release what it holds (Game.close)
    talk = getattr(simulation, "transcript", None)
    if callable(talk):  # the bots' table talk (マフィア42): in the header, which a replay reads past
        script[0]["talk"] = talk()
    return script, log


def compare(game: str, games: int, seed: int, players: int, options: Mapping[str, Any],
            event_bot: str | None = None, progress: bool = False) -> str:
    """`kikimimi sim GAME --bot ear --games N`: the ear bots' figures beside the event bots'.

    It lives here, above the ear bots, because it plays whole games: `ear` stays
    below the driver, so the two do not import each other."""
    seeds: Iterable[int] = range(seed, seed + games)
    if progress:
        from tqdm import tqdm

        seeds = tqdm(seeds, desc=f"{game} ear", unit="game")
    rows: dict[str, list[dict[str, Any]]] = {EAR: [], event_bot or "event": []}
    for s in seeds:
        for kind, rows_of in zip((EAR, event_bot), rows.values()):
            script, log = play(game, s, players, dict(options), kind)
            rows_of.append(game_figures(script, log))
    lines = [f"{game}: {games} games per bot kind, {players} players, seeds {seed}..{seed + games - 1}"]
    lines += [figures_line(f"{label} bots", figs) for label, figs in rows.items()]
    return "\n".join(lines)
