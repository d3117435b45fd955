"""High card's bots: ear bots, deciding only from what their seat hears (docs/ear.md).

The world is the physical table: a face-down pile every seat can reach while it has no
card, then each seat's own card.  A bot draws when the speaker asks for cards and shows
its card when the speaker calls its seat.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kikimimi.game import EarTable, Handles, Heard, SeatEar

from . import CARDS


class Pile:
    """Where each card is: in the pile (face down, shuffled) or in a seat's hand."""

    def __init__(self, rng: random.Random):
        self.handles = Handles(CARDS, rng)
        self.pile = list(CARDS)
        rng.shuffle(self.pile)
        self.hands: dict[int, str] = {}
        self.over = False

    def follow(self, ev: Mapping[str, Any]) -> None:
        if ev.get("type") == "game-over":
            self.over = True

    def reach(self, seat: int | None) -> int | None:
        """A seat touches its own card, or else the pile's top card."""
        if seat is None:
            return None
        card = self.hands.get(seat) or (self.pile[-1] if self.pile else None)
        return None if card is None else self.handles.of(card)

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        tag = self.handles.tag(handle)
        if seat is None or tag is None or self.reach(seat) != handle:
            return None
        if seat not in self.hands:  # drawing: the top card moves into the hand
            self.hands[seat] = self.pile.pop()
        return tag

    def public_tag(self, tag: str) -> bool:
        return tag.startswith(("cmd:", "seat:"))


class Player(SeatEar):
    def __init__(self, seat: int):
        super().__init__(seat)
        self.todo: str | None = None

    def hear(self, heard: Heard) -> None:
        if heard.key == "draw" or (heard.key == "show" and heard.params.get("seat") == self.seat):
            self.todo = "hand" if heard.key == "draw" else "field"

    def act(self, reach: Any) -> dict[str, Any] | None:
        todo, self.todo = self.todo, None
        return None if todo is None or reach is None else {"reader": todo, "piece": reach}


def ear_table(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> EarTable:
    return EarTable("highcard", Pile(random.Random(seed)), [Player(s) for s in range(1, players + 1)])
