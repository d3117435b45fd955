"""What a console knows of the table: followed from the welcome and the pushes.

Both front ends (the full-screen console and `--plain`) keep exactly this,
and differ only in how they show it; so a reconnection, an undo's rebuilt
log or the next game at the table are handled once, here.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.console.render import PublicTable, last_seq, table_text, unseen


class Follower:
    """The header, the referee's snapshot, the undo target, the health and the public table."""

    def __init__(self, spectator: bool = False):
        self.spectator = spectator
        self.header: dict[str, Any] = {}
        self.snapshot: dict[str, Any] | None = None
        self.last_input: list[Any] | None = None
        self.health: dict[str, str] = {}
        self.public = PublicTable()
        self.seq = 0  # the last game event shown

    def welcome(self, welcome: Mapping[str, Any], again: bool) -> list[Mapping[str, Any]]:
        """Take a welcome; the events to show (after a reconnection: only the unseen ones)."""
        self.header = dict(welcome["header"])
        log = list(welcome.get("log", []))
        show = unseen(log, self.seq) if again else log
        self.public = PublicTable()
        self.public.absorb(log)
        self.seq = last_seq(log)
        self.take(welcome)
        return show

    def push(self, push: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """Take a push; the events to show."""
        events = list(push.get("events", []))
        if "log" in push:  # an undo rebuilt the game: the public view starts over, silently
            self.public = PublicTable()
            self.public.absorb(push["log"])
        else:
            self.public.absorb(events)
        self.seq = last_seq(events, self.seq)
        self.take(push)
        return events

    def take(self, message: Mapping[str, Any]) -> None:
        if isinstance(message.get("header"), Mapping):  # the next game of an evening (a spectator's push)
            self.header = dict(message["header"])
        if "snapshot" in message:
            self.snapshot = message["snapshot"]
            if isinstance(self.snapshot, Mapping) and isinstance(self.snapshot.get("header"), Mapping):
                self.header = dict(self.snapshot["header"])  # a referee's: the game being played now
        if "last_input" in message:
            self.last_input = message["last_input"]
        if "health" in message:
            self.health = dict(message["health"])

    @property
    def players(self) -> int:
        return int(self.header.get("players", 0) or 0)

    @property
    def table_view(self) -> str:
        return table_text(self.header, None if self.spectator else self.snapshot, self.public)


def reply_text(what: str, reply: Mapping[str, Any]) -> str:
    """One line for the answer to a command: accepted, refused by the game (and why), or not sent."""
    if not reply.get("ok"):
        return f"{what}: not accepted: {reply.get('error')}"
    refusals = [ev for ev in reply.get("events", []) if ev.get("type") == "error"]
    if not refusals:
        return f"{what}: done ({len(reply.get('events', []))} events)"
    # the evening's own commands (`game`, `new`) are refused by the table, not the game
    whose = "the table" if refusals[0].get("evening") else "the game"
    return f"{what}: {whose} refused it: {refusals[0]['message']}"


async def send(request: Any) -> dict[str, Any]:
    """Await one API request; a dropped connection is a refusal line, not an exception."""
    from kikimimi.api.client import ApiClientError

    try:
        return await request
    except (ApiClientError, TimeoutError) as exc:
        return {"ok": False, "error": str(exc)}
