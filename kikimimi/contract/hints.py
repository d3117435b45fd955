"""What a sighted player could see, said by ear: the HINT answer and "where are we".

At a real table a sighted player glances at the basket, counts the pieces in
each hand and sees whose turn it is; a blind player asks.  Every game answers
the same two questions, and this module is the one place that turns its
answers into speech, so each game only lists what is visible:

- `Game.sight(seat)`: every visible fact right now, as phrase lines
  (`(key, params)`), spoken into the asking seat's earphone by `hint`;
- `Game.own(seat)` (optional): what only the asking seat holds or was told
  (its hand, its role card, its cash, its findings), said after the sight
  lines, in the same earphone;
- `Game.situation()` (the hook in `kikimimi.contract.protocol`): where the table
  stands (whose turn, what is pending), spoken on the speaker after an undo,
  a resume or a reader coming back.

A `sight` line is public by construction: it may name only what every seat
can see, never a hand, a role or a fact the rules make players remember (the
Trident's field suit); so `situation` can speak the same lines on the
speaker.  The seat's own secrets go in `own`, never in `sight`.  The games'
tests check that.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from kikimimi.contract.protocol import TABLE, Event, event, say, seat_audience

#: A phrase key and its parameters: one spoken line.
Line = tuple[str, dict[str, Any]]

HINT_TAG = "cmd:hint"


class Sighted(Protocol):
    """A game that can list what a sighted player sees (the seat asking, for its own view)."""

    players: int

    def sight(self, seat: int) -> list[Line]: ...


def line(key: str, **params: Any) -> Line:
    """One spoken line, for games to build their `sight` and `situation` lists."""
    return key, params


def spoken(to: str, lines: Iterable[Line]) -> list[Event]:
    """The lines as `say` events to one audience."""
    return [say(to, key, **params) for key, params in lines]


def hint(game: Sighted, seat: int) -> list[Event]:
    """The HINT answer: everything visible now, then what the seat itself
    holds or was told, in the asking seat's earphone only.

    A private `hint` event marks it in the log (who asked, when), so the
    referee can see it and a spectator cannot."""
    me = seat_audience(seat)
    own = getattr(game, "own", None)
    lines = game.sight(seat) + (own(seat) if callable(own) else [])
    return [event("hint", seat=seat, private=me), *spoken(me, lines)]


def situation(lines: Sequence[Line]) -> list[Event]:
    """Where the table stands, on the speaker (the daemon asks after an undo,
    a resume or a reader coming back)."""
    return spoken(TABLE, lines)


def seat_number(word: str, players: int) -> int | None:
    """A seat typed at the console: ASCII digits only (`isdigit` accepts "²",
    which `int` refuses), within 1..players."""
    if word.isascii() and word.isdigit() and len(word) <= 3 and 1 <= int(word) <= players:
        return int(word)
    return None
