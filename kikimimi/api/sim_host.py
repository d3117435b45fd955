"""A bot game served like a real table, so a console can referee and watch it.

`kikimimi sim` normally pushes the bots' lines straight through a `Table`.
Here they go through a `Daemon` instead, with the API open: the journal is
the table script (replayable with `kikimimi replay`), and referee commands
from a console enter the same input stream as the bots' moves.

The table's clock is virtual: it moves only by the bots' own `dt`, so the
script's times (and every timer) are those of the bot game, however long a
human pauses to look; `pace` is only how long the host waits between moves
so people can follow.  Bots observe every event, including those caused by
the referee.  An undo rebuilds the game but not the bots' memory of it (a
`Simulation` has no way to take a move back); bots simply carry on.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kikimimi.bots import referee_bots as seat_bots
from kikimimi.contract import parts as declared
from kikimimi.api.server import ApiServer, start_api
from kikimimi.table.daemon import Daemon, InputRefused
from kikimimi.table.engine import LogEvent, default_tagmap
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Header
from kikimimi.design.sim import MAX_INPUTS

Watcher = Callable[[dict[str, Any], Sequence[LogEvent]], None]


class VirtualClock:
    """The bot game's time: advanced by each move's `dt`, never by the wall."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SimHost:
    """One bot game behind the API.  `start()`, then `step()` until it returns
    False (or `run()`), then `close()`."""

    def __init__(self, game: str, seed: int, players: int, options: Mapping[str, Any] | None = None,
                 bot: str | None = None, *, journal: Path, lang: str = "en",
                 watch: Watcher | None = None, max_inputs: int = MAX_INPUTS):
        decl = declaration(game)
        self.options = dict(options or {})
        self.header = Header(decl.name, players, self.options, lang, {"seed": seed})
        self.clock = VirtualClock()
        self.journal = Path(journal)
        self.daemon = Daemon(self.header, self.journal, tagmap=default_tagmap(decl.name), clock=self.clock)
        self.daemon.intercept = _every_seat_is_a_bot
        self.simulation = declared.simulation(decl, seed, players, self.options, bot)
        self.watch = watch
        self.max_inputs = max_inputs
        self.api: ApiServer | None = None
        self.moves = 0

    def start(self) -> ApiServer:
        """A fresh journal (an old one is kept aside), the opening, the API."""
        self.daemon.open(fresh=True)
        self.simulation.observe(self.daemon.log)
        if self.watch:
            self.watch(self.header.to_json(), self.daemon.log)
        self.daemon.subscribe(self._observe)
        self.api = start_api(self.daemon, None)
        return self.api

    def step(self) -> bool:
        """One bot move (or the referee's stop after too many); False once the game is over."""
        d = self.daemon
        with d.lock:  # bots propose and observe one move at a time, console inputs included
            if d.table.game.over:
                return False
            if self.moves >= self.max_inputs:
                d.submit({"console": "stop"})
                return False
            proposed = self.simulation.next_input()
            if proposed is None:
                return False
            line = dict(proposed)
            self.clock.now = round(self.clock.now + float(line.pop("dt", 1.0)), 3)
            d.submit(line)
            self.moves += 1
            return not d.table.game.over

    def run(self, pace: float = 1.0, stop: threading.Event | None = None, linger: float | None = None) -> None:
        """Play to the end, `pace` seconds between moves; then keep the table
        open for the consoles `linger` seconds (None: until `stop` is set)."""
        stop = stop or threading.Event()
        while not stop.is_set() and self.step():
            stop.wait(pace)
        if linger is None:
            while not stop.wait(0.5):
                pass
        else:
            stop.wait(linger)

    def close(self) -> None:
        if self.api is not None:
            self.api.stop()
            self.api = None
        self.daemon.unsubscribe(self._observe)
        self.daemon.close()

    def _observe(self, line: dict[str, Any], events: Sequence[LogEvent]) -> None:
        self.simulation.observe(events)
        if self.watch:
            self.watch(line, events)


def _every_seat_is_a_bot(item: dict[str, Any]) -> list[LogEvent] | None:
    """A referee's `bot`/`unbot` here is refused in one line: the simulation plays every seat
    already, and a second bot in one seat would act twice (nothing is journaled)."""
    if seat_bots.is_command_line(item):
        raise InputRefused(f"{item['console'].split()[0].lower()}: every seat of a simulated game is a bot already")
    return None


def serve_sim(game: str, seed: int, players: int, options: Mapping[str, Any] | None = None,
              bot: str | None = None, *, journal: Path, lang: str = "en", pace: float = 1.0,
              watch: Watcher | None = None, linger: float | None = None,
              stop: threading.Event | None = None) -> Path:
    """`kikimimi sim GAME --serve JOURNAL`: the whole bot game, refereeable.

    Prints where a console attaches; returns the journal (the table script)."""
    import sys

    host = SimHost(game, seed, players, options, bot, journal=journal, lang=lang, watch=watch)
    api = host.start()
    print(f"kikimimi: bot game served: kikimimi console --socket {api.socket_path}"
          f" (spectators: --socket {api.public_path})", file=sys.stderr, flush=True)
    try:
        host.run(pace, stop, linger)
    except KeyboardInterrupt:
        pass
    finally:
        host.close()
    return host.journal
