"""The physical table of a hidden-role game, for ear-only bots (docs/ear.md).

Every hidden-role game deals one face-down card per seat; the card says
nothing until its seat scans it.  Seat tokens and command tags are labelled,
so anyone may name them.  Written once here for every such game's ear bots.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.bots.ear import Handles


@dataclass(frozen=True)
class Reach:
    """What a seat can touch: its own face-down card (a handle)."""

    card: int | None


class DealtCards:
    """The cards on the table; physics only (it deals, it never decides).

    `card_set` is the tag prefix of the deck, e.g. "witch:role" gives
    `witch:role-mirror-1`."""

    def __init__(self, card_set: str, deck: list[str], rng: random.Random):
        shuffled = list(deck)
        rng.shuffle(shuffled)
        counts: dict[str, int] = {}
        self.cards: dict[int, str] = {}
        for seat, name in enumerate(shuffled, 1):
            counts[name] = counts.get(name, 0) + 1
            self.cards[seat] = f"{card_set}-{name}-{counts[name]}"
        self.handles = Handles(self.cards.values(), rng)
        self.over = False

    def follow(self, ev: Mapping[str, Any]) -> None:
        if ev.get("type") == "game-over":
            self.over = True

    def reach(self, seat: int | None) -> Reach:
        return Reach(self.handles.of(self.cards[seat]) if seat is not None else None)

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        tag = self.handles.tag(handle)
        return tag if seat is not None and tag == self.cards.get(seat) else None

    def public_tag(self, tag: str) -> bool:
        return tag.startswith(("seat:", "cmd:"))
