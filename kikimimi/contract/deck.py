"""A deck of known, unseen pieces: what a draw may still be.

At a table a drawn card is whatever piece the player scans, so without a deck a
game takes any piece it has not seen as a draw, even when the pile ran out long
ago or the piece is one another seat drew.  A game that deals from a pile keeps
one `Deck` (plain data in the play: no clock, no reader) and asks it whether a
scanned piece may be drawn; the deck refuses the rest in one line, in the
drawing seat's earphone (a draw is that seat's secret until it is shown).

    self.deck = Deck(CARDS)
    why = self.deck.draw(card)
    if why:
        return deck.refused(seat, card, why)
"""
from __future__ import annotations

from collections.abc import Iterable

from kikimimi.contract.commands import refusal
from kikimimi.contract.protocol import Event

EMPTY, NOT_THERE = "deck-empty", "deck-not-there"


class Deck:
    """The pieces still in the pile (face down: the game knows which, no player does)."""

    def __init__(self, pieces: Iterable[str]) -> None:
        self._left: dict[str, None] = dict.fromkeys(pieces)  # ordered: `left` lists them as dealt

    def __len__(self) -> int:
        return len(self._left)

    def __contains__(self, piece: object) -> bool:
        return piece in self._left

    @property
    def left(self) -> list[str]:
        return list(self._left)

    def draw(self, piece: str) -> str | None:
        """Take `piece` out of the pile; None if it was there, else the phrase key of why
        not (`deck-empty`: nothing is left; `deck-not-there`: drawn before, or never in it)."""
        if not self._left:
            return EMPTY
        if piece not in self._left:
            return NOT_THERE
        del self._left[piece]
        return None

    def put_back(self, piece: str) -> None:
        """A piece returned to the pile (a reshuffle, a discard that is drawn again)."""
        self._left[piece] = None


def refused(seat: int | None, piece: str, why: str) -> list[Event]:
    """A draw the deck refuses, in one line: to the seat's earphone (its error private)."""
    message = "the pile is empty" if why == EMPTY else f"{piece} is not in the pile"
    return refusal(seat, message, why)
