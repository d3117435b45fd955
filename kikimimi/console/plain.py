"""`kikimimi console --plain`: the referee console as lines, for a screen reader or a braille display.

Why a second front end: a full-screen view redraws its panes, and a screen
reader or a braille line re-reads (or loses) what moved.  Here each new event
is printed once, as one line, in order; commands are typed at a prompt;
nothing is ever redrawn.  The table and the session are printed only when
asked (`state`, `session`) or, for the session, when it changes.  It speaks
the same API and the same command grammar as the full-screen console.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, TextIO

from kikimimi.console.commands import CommandError, help_text, parse_command
from kikimimi.console.follow import Follower, reply_text, send
from kikimimi.console.link import BACKOFF, RECONNECTED, Link
from kikimimi.console.render import event_line, health_text, input_text, session_text

PROMPT = "> "


class PlainConsole:
    """One line per event on `out`; commands read from `inp` (standard input by default)."""

    def __init__(self, socket_path: str | Path, *, spectator: bool = False, secret: str | None = None,
                 secret_file: str | Path | None = None, inp: TextIO | None = None, out: TextIO | None = None,
                 backoff: tuple[float, ...] = BACKOFF):
        self.spectator = spectator
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self.link = Link(socket_path, spectator=spectator, secret=secret, secret_file=secret_file,
                         on_welcome=self._welcomed, on_push=self._pushed, on_status=self._status,
                         backoff=backoff)
        self.follow = Follower(spectator)
        self._session_shown = ""
        self._health_shown = ""

    # -- output: each thing once -------------------------------------------------
    def line(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _welcomed(self, welcome: dict[str, Any], again: bool) -> None:
        if again:
            self.line(f"* {RECONNECTED}")
        events = self.follow.welcome(welcome, again)
        header = self.follow.header
        if not again:
            role = "spectator" if self.spectator else "referee"
            self.line(f"* {role} of {header.get('game')} at {header.get('table', 'this table')}, "
                      f"{header.get('players')} players. Type help for the commands.")
        self._show(events)
        self._changes()

    def _pushed(self, push: dict[str, Any]) -> None:
        self._show(self.follow.push(push))
        self._changes()

    def _show(self, events: list[Any]) -> None:
        for ev in events:
            text = event_line(ev)
            if text is not None:
                self.line(text)

    def _changes(self) -> None:
        """The session and the readers are printed when they change, never redrawn."""
        snapshot = self.follow.snapshot or {}
        session = session_text(snapshot)
        if session != self._session_shown and (self._session_shown or snapshot.get("session")):
            self.line(session)
        self._session_shown = session
        lost = sorted(name for name, state in self.follow.health.items() if state == "lost")
        text = f"* lost: {', '.join(lost)}" if lost else "* every reader answers"
        if text != self._health_shown and (lost or self._health_shown):
            self.line(text)
        self._health_shown = text

    def _status(self, text: str) -> None:
        if text == RECONNECTED:  # the welcome that came with it printed it already
            return
        self.line(f"* {text}")

    # -- input: a prompt ----------------------------------------------------------
    async def run(self) -> int:
        """Until quit or the end of input."""
        await self.link.first()  # a refusal or a missing table: ApiClientError, the caller's one line
        keeper = asyncio.create_task(self.link.keep())
        try:
            while True:
                text = await asyncio.to_thread(self._read)
                if text is None or not await self.command(text):
                    return 0
        finally:
            keeper.cancel()
            await self.link.close()

    def _read(self) -> str | None:
        if self.inp.isatty():
            print(PROMPT, end="", file=self.out, flush=True)
        raw = self.inp.readline()
        return None if raw == "" else raw

    async def command(self, text: str) -> bool:
        """Do one typed line; False once the referee quits."""
        words = text.split()
        if words in (["state"], ["session"], ["health"]):
            f = self.follow
            view = {"state": lambda: f.table_view, "session": lambda: session_text(f.snapshot),
                    "health": lambda: health_text(f.health)}[words[0]]()
            for row in view.splitlines():
                self.line(row)
            return True
        try:
            command = parse_command(text, self.follow.players)
        except CommandError as exc:
            self.line(f"not sent: {exc}")
            return True
        if command is None:
            return True
        if command.kind == "help":
            for row in help_text(self.follow.header.get("game")).splitlines():
                self.line(row)
            self.line("  state, session, health    print the table, the session, the readers (once)")
            return True
        if command.kind == "quit":
            return False
        client = self.link.client
        if self.spectator:
            self.line("not sent: a spectator only watches")
        elif client is None:
            self.line("not sent: not connected to the table (trying again)")
        elif command.kind == "undo":
            await self._undo(client)
        else:
            self.line(reply_text(text.strip(), await send(client.submit(command.line or {}))))
        return True

    async def _undo(self, client: Any) -> None:
        state = await send(client.state())
        last = state.get("last_input")
        if not last:
            self.line(state.get("no_undo") or "nothing to undo")
            return
        self.line(f"Undo line {last[0]}: {input_text(last[1])}? Type y to undo, anything else keeps it.")
        answer = await asyncio.to_thread(self._read)
        if (answer or "").strip().lower() not in ("y", "yes"):
            self.line("undo cancelled: nothing was sent")
            return
        self.line(reply_text(f"undo (line {last[0]})", await send(client.undo(last[0]))))
