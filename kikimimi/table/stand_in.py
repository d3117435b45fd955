"""The referee standing in for a reader: `scan SEAT TAG` on the console, for every game.

A hand reader that dies mid-game must not stall the table: the referee types
what the player would have scanned (the player tells them, or hands them the
piece) and the game receives exactly the input the reader would have given.
The line is journaled as the console line it is, and a replay translates it
the same way, so a stand-in scan replays like any other.

    scan SEAT TAG      SEAT's hand reader saw TAG          (scan 2 witch:role-mirror-1)
    scan field TAG     the field reader saw TAG
    lift SEAT TAG      TAG was taken off SEAT's hand reader
    lift field TAG     TAG was taken off the field reader

TAG is a full tag (`seat:3`, `cmd:ok`, `intrigue:advisor-1-law-1`) or, when it
names exactly one of the game's pieces, the part after the colon.

The console is the referee's: what a game refuses to a console line is the
referee's business, never a public event (a refused stand-in could name a
piece in a hand), so `referee_only` turns such refusals private.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.contract.hints import seat_number
from kikimimi.contract.protocol import REFEREE, Event, GameEvent, as_event

VERBS = {"scan": False, "lift": True}  # verb -> removed
SYNTAX = [("scan SEAT TAG | scan field TAG", "stand in for a reader: SEAT's hand reader (or the field) saw TAG"),
          ("lift SEAT TAG | lift field TAG", "stand in for a reader: TAG was taken off it")]


@dataclass(frozen=True)
class StandIn:
    """A reader input the referee typed: `seat` None is the field reader."""

    seat: int | None
    tag: str
    removed: bool

    @property
    def reader(self) -> str:
        return "field" if self.seat is None else "hand"


def is_stand_in(line: str) -> bool:
    words = line.split()
    return len(words) >= 1 and words[0].lower() in VERBS


def parse(line: str, players: int, known_tags: Collection[str]) -> StandIn | str:
    """The reader input of a stand-in line, or the one-line reason it is refused."""
    words = line.split()
    verb = words[0].lower()
    if len(words) != 3:
        return f"{verb}: write {verb} SEAT TAG or {verb} field TAG (e.g. {verb} 2 cmd:ok)"
    where, word = words[1].lower(), words[2]
    seat: int | None
    if where in ("field", "f"):
        seat = None
    elif seat_number(where, players) is not None:
        seat = seat_number(where, players)
    else:
        return f"{verb}: {words[1][:10]!r} is not a seat 1-{players} or field"
    tag = resolve_tag(word, known_tags)
    if tag is None:
        return f"{verb}: {word[:40]!r} is not a piece of this game"
    return StandIn(seat, tag, VERBS[verb])


def resolve_tag(word: str, known_tags: Collection[str]) -> str | None:
    """A full tag as it is; a bare name when exactly one piece has it."""
    if word in known_tags:
        return word
    if ":" in word:
        return None
    matches = [t for t in known_tags if t.partition(":")[2] == word]
    return matches[0] if len(matches) == 1 else None


def referee_only(events: Iterable[GameEvent]) -> list[GameEvent]:
    """A console line's refusals, kept for the referee (the public never sees them)."""
    out: list[GameEvent] = []
    for ev in events:
        if isinstance(ev, dict):  # log-shaped (protocol.log_shaped): read as its Event
            ev = as_event(ev)
        if ev.type == "error" and "private" not in ev.fields:
            ev = Event("error", {**ev.fields, "private": REFEREE})
        out.append(ev)
    return out


def owner_of(item: Mapping[str, Any], players: int) -> int | None:
    """The seat whose act a script line was: a hand scan, or the referee's stand-in
    for one (an undo tells that seat its act is gone); None for anything else."""
    if item.get("reader") == "hand" and isinstance(item.get("seat"), int) and not isinstance(item.get("seat"), bool):
        return int(item["seat"])
    line = item.get("console")
    if isinstance(line, str) and is_stand_in(line):
        words = line.split()
        if len(words) == 3 and words[1].isascii() and words[1].isdigit() and 1 <= int(words[1]) <= players:
            return int(words[1])
    return None
