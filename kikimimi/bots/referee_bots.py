"""The referee's `bot SEAT [KIND]` and `unbot SEAT`: which seats a bot plays, for every game.

A player who leaves (or never came) should not end a hidden-role game: the
referee seats a bot there.  Whether a game can be played that way is the
game's declaration (`offers`), because a bot has no hands: it can only scan
what anyone may name (a labelled seat token, a command tag) and type what a
player says aloud.  闇に笑う魔女 and マフィア42 are played so; the Trident,
鬼探し and イントリーゲ are not (a bot there would need someone to pick up and
place its look-alike pieces, and whoever did would learn its hand).

Here is only the table's record of it, kept by the engine like `pause`: the
lines are journaled and replayed, refused in one line for the referee alone,
and logged as a `seat-bot` event only the referee sees (the table learns of
an empty chair the way it sees one, not from the log).  The bot itself runs
in the daemon (`kikimimi.bots.empty_seats`), never in the game or the engine.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.contract.commands import Command, dispatch
from kikimimi.bots.ear import EAR
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import REFEREE, Event, error, event

BOT, UNBOT = "bot", "unbot"
#: For the console's help (the table's own commands).
SYNTAX = [("bot SEAT [KIND]", "a bot plays that empty seat (hidden-role games; KIND: the game's ear bots); "
                              "its earphone's lines come to you only"),
          ("unbot SEAT", "a player sits at that seat again: the bot stops")]
#: The journal field that marks a line as a seat bot's own act (only the daemon writes it).
MARK = "bot"
#: The journal field of a `bot` line: the seed of that bot's choices and delays.
SEED = "seed"
#: The logged event (referee only): {"seat", "kind"} when a bot sits down, "kind" null when it leaves.
EVENT = "seat-bot"


def offers(decl: Declaration) -> bool:
    """Whether a game can seat a bot: its declaration's `seat_bots` flag, and ear bots to seat."""
    return decl.seat_bots and decl.ear_table is not None and bool(kinds(decl))


def kinds(decl: Declaration) -> tuple[str, ...]:
    """The bot kinds a seat can take: the game's ear bots among its bots (`ear`, or a name
    `ear-...` for another ear bot the same `ear_table` builds)."""
    return tuple(b for b in decl.bots if b == EAR or b.startswith(EAR + "-"))


def is_command(line: str) -> bool:
    words = line.split(None, 1)
    return bool(words) and words[0].lower() in (BOT, UNBOT)


def is_command_line(item: Any) -> bool:
    """A journal line that is `bot` or `unbot`: the table's seating, never an undo's target."""
    return type(item) is dict and isinstance(item.get("console"), str) and is_command(item["console"])


def takes_seed(item: Mapping[str, Any]) -> bool:
    """A `bot` line the table has not yet given its seed (the daemon stamps one before journaling)."""
    return is_command_line(item) and str(item["console"]).split()[0].lower() == BOT and SEED not in item


class Seating:
    """Which seats bots play, as the engine keeps it (rebuilt with the game on an undo)."""

    def __init__(self, decl: Declaration, players: int):
        self.decl = decl
        self.players = players
        self.bots: dict[int, str] = {}
        self.table = [Command("bot SEAT", "", Seating._sit), Command("bot SEAT KIND", "", Seating._sit),
                      Command("unbot SEAT", "", Seating._leave)]

    def command(self, line: str, t: float) -> list[Event]:
        """One `bot`/`unbot` line: its `seat-bot` event, or one refusal (both the referee's only)."""
        out = dispatch(self, self.table, line, t, self.players)
        return [ev if "private" in ev.fields else Event(ev.type, {**ev.fields, "private": REFEREE}) for ev in out]

    def _sit(self, t: float, seat: int, kind: str = EAR) -> list[Event]:
        name = self.decl.name
        if not offers(self.decl):
            return [error(f"bot: {name} is not played with bots in empty seats "
                          "(a bot there would need someone to move its pieces)")]
        if seat in self.bots:
            return [error(f"bot: seat {seat} is already played by a bot ({self.bots[seat]}): unbot {seat} first")]
        if kind not in kinds(self.decl):
            return [error(f"bot: {kind[:20]!r} is not a bot of {name} (have: {', '.join(kinds(self.decl))})")]
        self.bots[seat] = kind
        return [event(EVENT, seat=seat, kind=kind)]

    def _leave(self, t: float, seat: int) -> list[Event]:
        if seat not in self.bots:
            return [error(f"unbot: no bot plays seat {seat}")]
        del self.bots[seat]
        return [event(EVENT, seat=seat, kind=None)]


def change_of(ev: Mapping[str, Any]) -> tuple[int, str | None] | None:
    """(seat, kind or None) of a logged `seat-bot` event; None for any other event."""
    if ev.get("type") != EVENT or type(ev.get("seat")) is not int:
        return None
    kind = ev.get("kind")
    return int(ev["seat"]), kind if isinstance(kind, str) else None
