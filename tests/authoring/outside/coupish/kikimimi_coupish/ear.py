"""Coupish's ear bots: each seat draws when the speaker deals, claims on its turn (the truth
or a bluff), and, asked in its earphone, challenges now and then or lets the claim stand."""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kikimimi.game import EarTable, Handles, Heard, SeatEar

from . import CARDS, CLAIMS


class Centre:
    """The pile (face down, shuffled), each seat's influence, and the claim cards in the middle."""

    def __init__(self, rng: random.Random):
        self.handles = Handles((*CARDS, *CLAIMS), rng)
        self.pile = list(CARDS)
        rng.shuffle(self.pile)
        self.hands: dict[int, str] = {}
        self.over = False

    def follow(self, ev: Mapping[str, Any]) -> None:
        self.over = self.over or ev.get("type") == "game-over"

    def reach(self, seat: int | None) -> int | None:
        if seat is None or seat in self.hands or not self.pile:
            return None
        return self.handles.of(self.pile[-1])

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        tag = self.handles.tag(handle)
        if seat is None or tag is None:
            return None
        if tag in CLAIMS:  # the claim cards lie in the middle, within every seat's reach
            return tag
        if seat in self.hands or not self.pile or self.pile[-1] != tag:
            return None
        self.hands[seat] = self.pile.pop()
        return tag

    def public_tag(self, tag: str) -> bool:
        return tag.startswith(("cmd:", "seat:"))


class Player(SeatEar):
    def __init__(self, seat: int, rng: random.Random, centre: Centre):
        super().__init__(seat)
        self.rng, self.centre = rng, centre
        self.todo: dict[str, Any] | None = None

    def hear(self, heard: Heard) -> None:
        if heard.key == "deal":
            self.todo = {"reader": "hand", "draw": True}
        elif heard.key == "turn" and heard.params.get("seat") == self.seat:
            claim = self.rng.choice(CLAIMS)
            self.todo = {"reader": "hand", "piece": self.centre.handles.of(claim)}
        elif heard.key == "may-challenge" and heard.to == f"seat:{self.seat}":
            self.todo = {"reader": "hand", "tag": "cmd:yes" if self.rng.random() < 0.3 else "cmd:no"}

    def act(self, reach: Any) -> dict[str, Any] | None:
        todo, self.todo = self.todo, None
        if todo is not None and todo.pop("draw", False):
            return None if reach is None else {**todo, "piece": reach}
        return todo


def ear_table(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> EarTable:
    rng = random.Random(seed)
    centre = Centre(rng)
    return EarTable("coupish", centre, [Player(s, random.Random(seed * 31 + s), centre)
                                        for s in range(1, players + 1)])
