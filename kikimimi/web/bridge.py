"""The web console's two lines to the table, and the pages that follow each.

One referee connection (the table's secret, read from its file like the
terminal console) feeds every paired referee page; one spectator connection
(the public socket) feeds every audience page.  So the audience's stream is
the API's spectator stream as it came, `kikimimi.table.public`'s view: this
module never sees a private event on the audience's side, and never
decides what is private.  What each page is shown (the table in words, a
line per event) is the terminal console's own `Follower` and `event_line`,
so a phone and the console say the same thing.

A page's stream is a bounded queue: a page too slow to read is dropped (its
EventSource comes back with a fresh welcome), never waited for.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kikimimi.api.client import ApiClientError, Refused
from kikimimi.api.views import jsonable
from kikimimi.console.follow import Follower, send
from kikimimi.console.link import Link
from kikimimi.console.render import event_line, health_text, input_text, session_text

#: Events a page is welcomed with (the latest); the referee's history goes further back on the journal.
WELCOME_EVENTS = 2000
#: Messages queued for one page before it is dropped.
PAGE_QUEUE = 512
#: Pages one client (an address) may follow at once, and pages in all on one side: a
#: flood of audience streams cannot take the connections a referee needs.
PAGES_PER_CLIENT = 8
MAX_PAGES = 64
#: Seconds between tries while the table is not being served.
RETRY = (0.5, 1.0, 2.0, 4.0)


#: At most this many games of an evening are offered on the referee's next-game form.
MAX_GAMES = 32
#: One move of a game's diagram: `  night --> day: all scanned / time limit`.
MOVE = re.compile(r"^\s*([^\s\[\]]+)\s+-->\s+([^\s\[\]:]+)\s*(?::\s*(.*))?$")


@functools.lru_cache(maxsize=16)
def phase_order(game: str) -> tuple[str, ...]:
    """The game's phases and what moves each on, from the diagram `kikimimi diagram` draws
    (the phases that run): the referee's night/phase order.  Empty if the game draws none."""
    from kikimimi.contract.parts import diagram
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        text = diagram(declaration(game))
    except (UnknownGame, NotImplementedError, ValueError, ImportError, AttributeError):
        return ()
    rows = []
    for line in text.splitlines():
        found = MOVE.match(line)
        if found:
            source, dest, why = found.groups()
            rows.append(f"{source} -> {dest}" + (f": {why}" if why else ""))
    return tuple(rows)


def shown(ev: Mapping[str, Any]) -> dict[str, Any] | None:
    """An event as a page gets it: its line in words, and the few fields a page draws."""
    text = event_line(ev)
    if text is None:
        return None
    out: dict[str, Any] = {"text": text, "type": ev.get("type")}
    for key in ("seq", "t", "to"):
        if key in ev:
            out[key] = ev[key]
    return out


class Side:
    """One connection to the table (referee or spectator) and the pages that follow it."""

    def __init__(self, socket: Path, *, spectator: bool, secret_file: Path | None = None):
        self.spectator = spectator
        self.follow = Follower(spectator)
        self.events: list[dict[str, Any]] = []
        #: Each page's queue, and who follows it: (client address, paired device id or "").
        self.pages: dict[asyncio.Queue[bytes | None], tuple[str, str]] = {}
        self.status = "connecting to the table"
        self.connected = False
        self.over = False
        self.link = Link(socket, spectator=spectator, secret_file=secret_file, on_welcome=self._welcomed,
                         on_push=self._pushed, on_status=self._status)
        self._task: asyncio.Task[None] | None = None
        #: When the latest push from the table arrived (monotonic), for the latency bench.
        self.pushed_at = 0.0

    # -- the connection ----------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        tries = 0
        while True:
            try:
                await self.link.first()
                break
            except Refused as exc:
                self._status(f"the table refused the web console: {exc}")
            except (ApiClientError, OSError, ValueError) as exc:
                self._status(str(exc).split("\n")[0])
            await asyncio.sleep(RETRY[min(tries, len(RETRY) - 1)])
            tries += 1
        await self.link.keep()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.link.close()
        for page in list(self.pages):
            self._drop(page)

    async def submit(self, line: Mapping[str, Any], expect_last: int | None = None) -> dict[str, Any]:
        client = self.link.client
        if client is None or self.spectator:
            return {"ok": False, "error": "the web console is not connected to the table"}
        return await send(client.submit(line, expect_last))

    async def say(self, what: str, **more: str) -> dict[str, Any]:
        """One of the table's fixed lines said through its outputs (the daemon owns them)."""
        client = self.link.client
        if client is None or self.spectator:
            return {"ok": False, "error": "the web console is not connected to the table"}
        return await send(client.say(what, **more))

    # -- what the table says ---------------------------------------------------------
    def _status(self, text: str) -> None:
        self.status = text
        self.connected = self.link.client is not None
        self._broadcast({"status": text, "connected": self.connected})

    def _welcomed(self, welcome: dict[str, Any], again: bool) -> None:
        self.follow.welcome(welcome, False)
        self.events = [e for e in map(shown, welcome.get("log", [])) if e][-WELCOME_EVENTS:]
        self.over = bool(welcome.get("over"))
        self.connected, self.status = True, "connected to the table"
        self.pushed_at = time.monotonic()
        self._broadcast(self.welcome())

    def _pushed(self, push: dict[str, Any]) -> None:
        self.pushed_at = time.monotonic()
        self.follow.push(push)
        if "log" in push:  # the game was rebuilt (undo) or is the next one: pages start over
            self.events = [e for e in map(shown, push["log"]) if e]
            if any(ev.get("type") == "game-over" for ev in push["log"]):
                self.over = True
            else:
                self.over = False
            self._broadcast(self.welcome())
            return
        events = [e for e in map(shown, push.get("events", [])) if e]
        if any(ev.get("type") == "game-over" for ev in push.get("events", [])):
            self.over = True
        if not self.spectator and isinstance(self.follow.snapshot, Mapping) and "over" in self.follow.snapshot:
            self.over = bool(self.follow.snapshot["over"])
        self.events += events
        del self.events[:-WELCOME_EVENTS]
        self._broadcast({"events": events, **self.view()})

    def view(self) -> dict[str, Any]:
        """The page's panes: the table in words and whatever else this side may see."""
        out: dict[str, Any] = {"table": self.follow.table_view.split("\n"), "over": self.over,
                               "header": _header(self.follow.header), "connected": self.connected}
        if not self.spectator:
            out["health"] = health_text(self.follow.health).split("\n")
            out["session"] = session_text(self.follow.snapshot).split("\n")
            last = self.follow.last_input
            out["last_input"] = last
            out["last_text"] = (input_text(last[1]) if isinstance(last, list) and len(last) == 2
                                and isinstance(last[1], Mapping) else None)
            snapshot = self.follow.snapshot if isinstance(self.follow.snapshot, Mapping) else {}
            game = snapshot.get("game") if isinstance(snapshot.get("game"), Mapping) else {}
            out["phase"] = game.get("phase") if isinstance(game, Mapping) else None
            out["clock"] = snapshot.get("t")
            out["seat_bots"] = snapshot.get("seat_bots", {})
            phase = out["phase"]
            out["order"] = [("> " if phase is not None and row.startswith(f"{phase} ->") else "  ") + row
                            for row in phase_order(str(self.follow.header.get("game", "")))]
            out["seats"] = self.follow.players
            out["game_line"] = game_line(self.follow.header)
        return out

    def games(self) -> list[dict[str, Any]]:
        """The evening's games, each with its option schema (names, kinds, allowed values,
        defaults, the table file's values): what the referee's next-game form is built from.
        Empty when the table has no evening (`game NAME` is then not the table's)."""
        from kikimimi.contract.registry import UnknownGame
        from kikimimi.table.option_words import schema_of

        snapshot = self.follow.snapshot if isinstance(self.follow.snapshot, Mapping) else {}
        games = snapshot.get("games")
        out: list[dict[str, Any]] = []
        for name, given in list(games.items())[:MAX_GAMES] if isinstance(games, Mapping) else ():
            if not isinstance(given, Mapping):
                continue
            players, options = given.get("players"), given.get("options")
            if isinstance(players, bool) or not isinstance(players, int) or not isinstance(options, Mapping):
                continue
            try:
                out.append(schema_of(str(name), players, options))
            except UnknownGame:
                continue
        return out

    def welcome(self) -> dict[str, Any]:
        return {"welcome": True, "events": list(self.events), "status": self.status, **self.view()}

    # -- pages ---------------------------------------------------------------------
    def join(self, client: str = "", device: str = "") -> asyncio.Queue[bytes | None] | None:
        """A new page's queue (its welcome first), or None if this client or side follows enough."""
        if len(self.pages) >= MAX_PAGES or sum(c == client for c, _ in self.pages.values()) >= PAGES_PER_CLIENT:
            return None
        page: asyncio.Queue[bytes | None] = asyncio.Queue(PAGE_QUEUE)
        page.put_nowait(encode(self.welcome()))
        self.pages[page] = (client, device)
        return page

    def leave(self, page: asyncio.Queue[bytes | None]) -> None:
        self.pages.pop(page, None)

    def end_device(self, device: str) -> None:
        """A revoked device's pages end now."""
        for page, (_, who) in list(self.pages.items()):
            if who == device:
                self._drop(page)

    def _drop(self, page: asyncio.Queue[bytes | None]) -> None:
        self.pages.pop(page, None)
        while True:  # room for the end mark, whatever was queued
            try:
                page.get_nowait()
            except asyncio.QueueEmpty:
                break
        page.put_nowait(None)

    def _broadcast(self, message: Mapping[str, Any]) -> None:
        if not self.pages:
            return
        data = encode(message)
        for page in list(self.pages):
            try:
                page.put_nowait(data)
            except asyncio.QueueFull:
                self._drop(page)


def _header(header: Mapping[str, Any]) -> dict[str, Any]:
    return {k: header.get(k) for k in ("game", "players", "lang", "table", "options") if k in header}


def encode(message: Mapping[str, Any]) -> bytes:
    """One server-sent event: a single `data:` line of JSON (JSON never holds a raw newline)."""
    return b"data: " + json.dumps(message, ensure_ascii=False, default=jsonable).encode() + b"\n\n"


class Bridge:
    """The referee's side and the audience's side of one table."""

    def __init__(self, journal: Path):
        from kikimimi.api import paths

        self.journal = journal
        self.referee = Side(paths.referee_socket(journal), spectator=False, secret_file=paths.secret_file(journal))
        self.audience = Side(paths.public_socket(journal), spectator=True)

    def start(self) -> None:
        self.referee.start()
        self.audience.start()

    def end_pages(self) -> None:
        """Every page's stream ends now (the console is stopping)."""
        for side in (self.referee, self.audience):
            for page in list(side.pages):
                side._drop(page)

    async def close(self) -> None:
        await self.referee.close()
        await self.audience.close()



def game_line(header: Mapping[str, Any]) -> dict[str, Any]:
    """The game being played, its seats and the options it was started with (the game's secret
    options and the table's drawn seed left out: a phone's screen may be seen across the table)."""
    from kikimimi.contract.registry import UnknownGame, declaration
    from kikimimi.table.secret_seed import SEED

    name = str(header.get("game", ""))
    try:
        hidden = declaration(name).secret_options | {SEED}
    except UnknownGame:
        hidden = frozenset({SEED})
    given = header.get("options")
    options: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    return {"game": name, "players": header.get("players"),
            "options": {k: v for k, v in sorted(options.items()) if k not in hidden}}
