"""A live table with a bot in an empty seat, for the seat-bot tests.

Everything is the real thing except the players' hands and the clock: the
real `Daemon` with its journal on disk, the real console API (the referee's
commands go through a referee client, a spectator client watches), and the
game's own ear bots as the human players at the other seats, their scans
entering as simulated hand-reader inputs.  The clock is the test's, so a
game of minutes takes a second and every run of a seed is the same run.

The referee does what one would at such a table: `bot SEAT`, the game's
`next` when the ear referee calls it, and, when the bot's note says its card
is the referee's to scan, `scan SEAT CARD` with the card dealt to that seat.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kikimimi.contract import parts as declared
from kikimimi.api.client import ApiClient
from kikimimi.api.server import ApiServer, start_api
from kikimimi.api.sim_host import VirtualClock
from kikimimi.table.daemon import Daemon
from kikimimi.bots.ear import EarTable
from kikimimi.table.engine import LogEvent, default_tagmap
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Header
from kikimimi.bots.empty_seats import NOTE

#: Inputs (players' and referee's) after which a test game is a failure.
STEP_CAP = 3000
#: Seconds of table time nobody acts after which a test game is a failure.
IDLE_CAP = 900.0


class LiveTable:
    """One game at a live table; `bot_seat` None is the control: a person plays every seat."""

    def __init__(self, folder: Path, game: str, players: int, options: dict[str, Any], seed: int,
                 bot_seat: int | None = 3, name: str = "table.jsonl", referee_next: bool = True):
        self.folder, self.game, self.players, self.options, self.seed = folder, game, players, options, seed
        self.bot_seat = bot_seat
        self.journal = folder / name
        self.clock = VirtualClock()  # the test's: moved by the players' acts and the waits
        ear = declared.simulation(declaration(game), seed, players, options, "ear")
        assert isinstance(ear, EarTable)
        self.ear = ear
        if bot_seat is not None:  # nobody sits there: the ear bot of that seat is not a player here
            self.ear.bots = [b for b in self.ear.bots if b.seat != bot_seat]
        if not referee_next:  # the phases end on their clocks (the ear referee cannot wait for a bot)
            self.ear.bots = [b for b in self.ear.bots if b.seat is not None]
        self.notes: list[LogEvent] = []
        self.spectated: list[dict[str, Any]] = []
        self.daemon: Daemon | None = None
        self.api: ApiServer | None = None
        self.referee: ApiClient | None = None
        self.spectator: ApiClient | None = None
        self.steps = 0
        self._pending_card: str | None = None

    # -- the table's life ------------------------------------------------------
    async def open(self) -> None:
        header = Header(self.game, self.players, self.options, "en", {})
        self.daemon = Daemon(header, self.journal, tagmap=default_tagmap(self.game), clock=self.clock)
        self.daemon.open()
        if self.daemon.resumed:
            self.clock.now = max(self.clock.now, self.daemon.now())
        else:  # the players hear the opening
            self.ear.observe(self.daemon.log)
        self.daemon.subscribe(self._heard)
        self.api = start_api(self.daemon)
        self.referee = await ApiClient.connect(self.api.socket_path)
        self.spectator = await ApiClient.connect(self.api.public_path, spectator=True)
        self.spectator.on_push = self._spectated

    async def kill(self) -> None:
        """What a SIGKILL leaves: the journal as it is, nothing said at the end."""
        assert self.daemon is not None and self.api is not None
        for client in (self.referee, self.spectator):
            if client is not None:
                await client.close()
        self.api.stop()
        self.daemon.unsubscribe(self._heard)
        self.daemon.close()
        self.daemon = self.api = self.referee = self.spectator = None

    async def play(self, until: Callable[[LiveTable], bool] = lambda table: False) -> None:
        """Players and referee act, the clock moves, until game over (or `until` says stop)."""
        d = self.daemon
        assert d is not None
        idle = 0.0
        while not d.table.game.over and not until(self):
            self.steps += 1
            assert self.steps < STEP_CAP, "the game did not end"
            if self._pending_card:
                line_text, self._pending_card = self._pending_card, None
                await self.command(line_text)
                continue
            line = self.ear.next_input()
            if line is None:
                self.clock.now = round(self.clock.now + 0.5, 2)
                d.tick()
                idle += 0.5
                assert idle < IDLE_CAP, f"nobody acted for {IDLE_CAP} s at t={self.clock.now}"
                continue
            idle = 0.0
            line = dict(line)
            self.clock.now = round(self.clock.now + float(line.pop("dt", 1.0)), 2)
            d.tick()
            if "console" in line:
                await self.command(line["console"])
            else:
                d.try_submit(line)

    async def command(self, text: str) -> dict[str, Any]:
        assert self.referee is not None
        return await self.referee.command(text)

    async def close(self) -> None:
        if self.daemon is not None:
            await asyncio.sleep(0.05)  # the last pushes reach the spectator
            await self.kill()

    # -- listening -----------------------------------------------------------------
    def _heard(self, item: dict[str, Any], events: list[LogEvent]) -> None:
        """The daemon's listener (under its lock): the players hear, the referee reads notes."""
        self.ear.observe([ev for ev in events if ev.get("type") != NOTE])
        for ev in events:
            if ev.get("type") == NOTE:
                self.notes.append(ev)
                if "card" in ev["message"] and self.bot_seat is not None:
                    # the referee turns the bot's face-down card over its reader (as a stand-in)
                    world: Any = self.ear.world
                    self._pending_card = f"scan {self.bot_seat} {world.cards[self.bot_seat]}"

    def _spectated(self, push: dict[str, Any] | None) -> None:
        if push is not None:
            self.spectated.append(push)
