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

from kikimimi.api.client import ApiClientError
from kikimimi.console.commands import CommandError, help_text, parse_command
from kikimimi.console.link import BACKOFF, Link
from kikimimi.console.render import (
    PublicTable, event_line, health_text, input_text, last_seq, session_text, table_text, unseen,
)

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
        self.header: dict[str, Any] = {}
        self.snapshot: dict[str, Any] | None = None
        self.last_input: list[Any] | None = None
        self.health: dict[str, str] = {}
        self.public = PublicTable()
        self.seq = 0  # the last game event printed
        self._session_shown = ""
        self._health_shown = ""

    # -- output: each thing once -------------------------------------------------
    def line(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _welcomed(self, welcome: dict[str, Any], again: bool) -> None:
        self.header = welcome["header"]
        if again:
            self.line("* connected to the table again")
        else:
            role = "spectator" if self.spectator else "referee"
            self.line(f"* {role} of {self.header.get('game')} at {self.header.get('table', 'this table')}, "
                      f"{self.header.get('players')} players. Type help for the commands.")
        log = welcome.get("log", [])
        self.public = PublicTable()
        self.public.absorb(log)
        for ev in unseen(log, self.seq) if again else log:
            self._event(ev)
        self.seq = last_seq(log)
        self._take(welcome)

    def _pushed(self, push: dict[str, Any]) -> None:
        if "log" in push:  # an undo rebuilt the game: the public view starts over, silently
            self.public = PublicTable()
            self.public.absorb(push["log"])
        else:
            self.public.absorb(push.get("events", []))
        for ev in push.get("events", []):
            self._event(ev)
        self.seq = last_seq(push.get("events", []), self.seq)
        self._take(push)

    def _event(self, ev: dict[str, Any]) -> None:
        text = event_line(ev)
        if text is not None:
            self.line(text)

    def _take(self, message: dict[str, Any]) -> None:
        if "snapshot" in message:
            self.snapshot = message["snapshot"]
            session = session_text(self.snapshot)
            if session != self._session_shown and "session" in (self.snapshot or {}):
                if self._session_shown or (self.snapshot or {}).get("session"):
                    self.line(session)
                self._session_shown = session
        if "last_input" in message:
            self.last_input = message["last_input"]
        if "health" in message:
            self.health = message["health"]
            lost = sorted(name for name, state in self.health.items() if state == "lost")
            text = f"* lost: {', '.join(lost)}" if lost else "* every reader answers"
            if text != self._health_shown and (lost or self._health_shown):
                self.line(text)
            self._health_shown = text

    def _status(self, text: str) -> None:
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
            view = {"state": lambda: table_text(self.header, None if self.spectator else self.snapshot, self.public),
                    "session": lambda: session_text(self.snapshot),
                    "health": lambda: health_text(self.health)}[words[0]]()
            for row in view.splitlines():
                self.line(row)
            return True
        try:
            command = parse_command(text, int(self.header.get("players", 0)))
        except CommandError as exc:
            self.line(f"not sent: {exc}")
            return True
        if command is None:
            return True
        if command.kind == "help":
            for row in help_text(self.header.get("game")).splitlines():
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
            self._said(text.strip(), await _send(client.submit(command.line or {})))
        return True

    async def _undo(self, client: Any) -> None:
        state = await _send(client.state())
        last = state.get("last_input")
        if not last:
            self.line("nothing to undo")
            return
        self.line(f"Undo line {last[0]}: {input_text(last[1])}? Type y to undo, anything else keeps it.")
        answer = await asyncio.to_thread(self._read)
        if (answer or "").strip().lower() not in ("y", "yes"):
            self.line("undo cancelled: nothing was sent")
            return
        self._said(f"undo (line {last[0]})", await _send(client.undo(last[0])))

    def _said(self, what: str, reply: dict[str, Any]) -> None:
        if not reply.get("ok"):
            self.line(f"{what}: not accepted: {reply.get('error')}")
            return
        refusals = [ev["message"] for ev in reply.get("events", []) if ev.get("type") == "error"]
        self.line(f"{what}: " + (f"the game refused it: {refusals[0]}" if refusals else "done"))


async def _send(request: Any) -> dict[str, Any]:
    try:
        return await request
    except (ApiClientError, TimeoutError) as exc:
        return {"ok": False, "error": str(exc)}
