"""A game's view at the referee's console and a spectator's: what its snapshot keys mean.

The console (`kikimimi.console.render`) shows what every game shares — the
phase, each seat's hand and turn, who plays as a bot — and lists every other
snapshot key as `key: value`, so a new game is readable on day one.  A game
that wants its own words names a `TableView` in its declaration
(`Declaration.view`), as boardgame.io's `playerView` is the game's own; the
console then names no game.  It lives here, with the contract, because a game
writes it; a view only reads plain JSON data and returns words.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class TableView:
    """A game's console view: the words its snapshot keys and public events mean.

    The console shows what every game shares (the phase, each seat's hand and
    turn, who plays as a bot) and lists every other key as `key: value`, so a
    new game is readable on day one; a game that wants more names a subclass
    in its declaration (`Declaration.view`), as boardgame.io's `playerView` is
    the game's own.  A view only reads: it gets plain JSON data."""

    #: Snapshot keys the view shows itself (kept out of the `key: value` list).
    shown: frozenset[str] = frozenset()

    def seat_marks(self, game: Mapping[str, Any], seat: int) -> list[str]:
        """Words after a seat's hand and turn (`declared trident`, `owes 2`)."""
        return []

    def lines(self, game: Mapping[str, Any], noun: str) -> list[str]:
        """Lines after the seats (the field, the basket)."""
        return []

    def public(self, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """What a spectator sees of this game beside the turn and the field, followed from
        the public events of the game so far."""
        return {}


GENERIC = TableView()


def short(tag: Any) -> str:
    """`trident:heart-3` -> `heart-3`: the set is the same for every piece of a game."""
    text = str(tag)
    return text.split(":", 1)[1] if ":" in text and not text.startswith(("seat:", "cmd:")) else text


def pieces(n: int, noun: str = "piece") -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def by_seat(value: Any) -> dict[int, Any]:
    """Snapshot dicts keyed by seat arrive with string keys after JSON."""
    if not isinstance(value, Mapping):
        return {}
    out = {}
    for key, item in value.items():
        try:
            out[int(key)] = item
        except (TypeError, ValueError):
            continue
    return out
