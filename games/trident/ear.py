"""Ear-only bots for The Trident (`kikimimi sim trident --bot ear`).

Each bot decides from the speaker and its own earphone only (`kikimimi.bots.ear`):
what it heard its pieces to be when it scanned them, the suit it heard set,
whose turn was called, the attack announced as waiting, what it still owes.
Its hand is a row of look-alike pieces it can count and touch, never read.
A bot forgets the suit now and then (and asks the table to agree on a reset),
now and then plays out of turn, and asks HINT when it has lost track, so the
announcements for those moments are exercised too.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.game import EarBot, EarTable, Handles, Heard

from .pieces import HAND_SIZE, TAGS
from .simulation import Follows, World

SUITS = ("heart", "diamond", "spade", "clover")
ANSWERS = ("draw two", "draw four", "change draw four", "unknown")
#: The first word of a spoken piece name says what it is to the ear: "heart 3" is a heart.
CHANGE = "change"


@dataclass(frozen=True)
class Reach:
    """What a seat can touch: its own pieces (handles, in hand order) and the basket."""

    hand: tuple[int, ...]
    basket_top: int | None
    basket: int


class TridentWorld:
    """The physical table, with pieces the bots know only as handles."""

    def __init__(self, players: int, rng: random.Random):
        self.table = World(players, random.Random(rng.random()))
        self.handles = Handles(TAGS, random.Random(rng.random()))

    @property
    def over(self) -> bool:
        return self.table.over

    def follow(self, ev: Mapping[str, Any]) -> None:
        self.table.follow(ev)

    def reach(self, seat: int | None) -> Reach:
        top = self.table.top()
        hand = tuple(self.handles.of(t) for t in self.table.hands.get(seat, [])) if seat else ()
        return Reach(hand, self.handles.of(top) if top else None, len(self.table.basket))

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        tag = self.handles.tag(handle)
        if tag is None:
            return None
        if tag == self.table.top() or (seat is not None and tag in self.table.hands.get(seat, [])):
            return tag
        return None

    def public_tag(self, tag: str) -> bool:
        return tag.startswith("cmd:")


def kind_of(name: str) -> str:
    """What a spoken piece name tells a player: a suit for a basic piece, else its effect."""
    first = name.split(" ")[0]
    if first in SUITS:
        return first
    return name


class TridentEarBot(EarBot, Follows):
    def __init__(self, seat: int, rng: random.Random, forget: float = 0.02, impatience: float = 0.002):
        Follows.__init__(self)
        self.seat = seat
        self.rng = rng
        self.forget = forget
        self.impatience = impatience
        self.memory: dict[int, str] = {}  # handle -> what it was heard to be
        self.last_scan: int | None = None
        self.opener: int | None = None  # who must put a basket piece on the field now
        self.dealing = False
        self.declared = False
        self.basket_owed = False
        self.lost = False  # unsure whose turn it is: ask HINT
        self.over = False
        self.tried: int | None = None

    # -- hearing ---------------------------------------------------------------
    def hear(self, h: Heard) -> None:
        p, key = h.params, h.key
        if h.to != "table":
            self._hear_mine(key, p)  # then as any line: a HINT answer speaks the public phrases
        seat = p.get("seat")
        if key == "deal":
            self.dealing = True
        elif key == "opening-draw":
            self.dealing, self.opener = False, int(p["seat"])
        elif key in ("field-piece", "field-unknown"):
            self.agreed = self.want_agree = False  # a play clears the agreements so far
        elif key == "reset-draw":
            self.opener = self.turn
            self.agreed = self.want_agree = False
        elif key == "suit-set":
            self.suit = str(p["suit"])
            self.choosing = False
            self.opener = None
        elif key == "reset-failed":
            self.opener = None
        elif key in ("turn", "now-turn", "still-turn", "reset-done"):
            if key == "turn" or self.turn != int(p["seat"]):
                self.drawn = False
                self.basket_owed = False
            self.turn, self.lost = int(p["seat"]), False
            if key == "turn":
                self._new_turn()
        elif key == "has-drawn":
            self.drawn = True
        elif key == "draws" and seat == self.seat:
            self.drawn = True
        elif key == "pending":
            self.pending = int(p["total"])
        elif key == "no-pending":
            self.pending = 0
        elif key == "takes":
            self.pending = 0
        elif key == "wrong-piece-draws" and int(p["count"]) > 2:
            self.pending = 0  # the wrong piece took the attack with it
        elif key == "choosing":
            self.opener = None
        elif key == "agreed":
            if seat != self.seat and not self.agreed:
                self.want_agree = self.suit is None or self.rng.random() < 0.5
        elif key == "debt-paid" and seat == self.seat:
            self.owed = 0
        elif key.startswith("rotate-"):
            self.memory = {}  # a new hand, unheard
            self.declared = False
        elif key.startswith("game-over-"):
            self.over = True

    def _hear_mine(self, key: str, p: Mapping[str, Any]) -> None:
        if key in ("drawn", "hand-piece") and self.last_scan is not None:
            self.memory[self.last_scan] = kind_of(str(p["piece"]))
        elif key == "draw-more":
            self.owed = int(p["count"])
        elif key == "choose-suit":
            self.choosing = True
        elif key == "wrong-wrong-suit":
            self.suit = None  # what I remembered was wrong
        elif key.startswith("wrong-") and key != "wrong-out-of-turn" and self.tried is not None:
            self.memory.pop(self.tried, None)
        elif key == "basket-owed":
            self.basket_owed = True
        elif key in ("no-draw-now", "already-drew", "not-your-turn", "draw-first"):
            self.lost = True  # my picture of the turn is wrong: ask

    def _new_turn(self) -> None:
        if self.turn == self.seat and self.suit is not None and self.rng.random() < self.forget:
            self.suit = None

    # -- acting ------------------------------------------------------------------
    def act(self, reach: Reach) -> dict[str, Any] | None:
        if self.over:
            return None
        hand = reach.hand
        if self.dealing:
            return self._scan(reach.basket_top) if len(hand) < HAND_SIZE and reach.basket_top else None
        if len(hand) != 1:
            self.declared = False
        elif not self.declared:
            self.declared = True
            return self._cmd("trident")
        if self.owed and reach.basket_top is not None:
            return self._scan(reach.basket_top)
        if self.want_agree:
            self.want_agree, self.agreed = False, True
            return self._cmd("agree")
        unheard = [x for x in hand if x not in self.memory]
        if unheard:
            return self._scan(unheard[0])
        if self.lost:
            self.lost = False
            return self._cmd("hint")
        if self.opener == self.seat and reach.basket_top is not None:
            return {"reader": "field", "piece": reach.basket_top}
        if self.choosing:
            return self._choose(hand)
        if self.turn != self.seat or self.opener is not None:
            if hand and self.turn is not None and self.rng.random() < self.impatience:
                return self._play(self.rng.choice(hand))
            return None
        return self._turn(hand, reach)

    def _turn(self, hand: tuple[int, ...], reach: Reach) -> dict[str, Any]:
        if self.suit is None and not self.pending and not self.agreed:
            self.agreed = True
            return self._cmd("agree")
        if self.pending:
            answers = [x for x in hand if self.memory[x] in ANSWERS] if len(hand) > 1 else []
            if answers:
                return self._play(self.rng.choice(answers))
            return self._draw_or_pass(reach)
        legal = self._legal(hand)
        basics = [x for x in legal if self.memory[x] in SUITS]
        if basics:
            return self._play(self.rng.choice(basics))
        if legal and (self.drawn or self.rng.random() < 0.5):
            return self._play(self.rng.choice(legal))
        if self.drawn:
            return self._cmd("pass")
        return self._draw_or_pass(reach)

    def _legal(self, hand: tuple[int, ...]) -> list[int]:
        suit = self.suit or self.rng.choice(SUITS)  # forgotten and not yet reset: a guess
        return [x for x in hand if self.memory[x] == suit or (self.memory[x] not in SUITS and len(hand) > 1)]

    def _draw_or_pass(self, reach: Reach) -> dict[str, Any]:
        if reach.basket_top is None or self.basket_owed:
            return self._cmd("pass")  # nothing I may draw: the controller decides (a crash)
        return self._scan(reach.basket_top)

    def _choose(self, hand: tuple[int, ...]) -> dict[str, Any]:
        basics = [x for x in hand if self.memory.get(x) in SUITS]
        if basics:
            counts = {s: sum(self.memory[x] == s for x in basics) for s in SUITS}
            best = max(SUITS, key=counts.__getitem__)
            return self._scan(next(x for x in basics if self.memory[x] == best))
        return {"console": f"suit {self.rng.choice(SUITS)}"}  # said aloud; the referee types it

    def _scan(self, handle: int | None) -> dict[str, Any]:
        self.last_scan = handle
        return {"reader": "hand", "piece": handle}

    def _play(self, handle: int) -> dict[str, Any]:
        self.tried = handle
        return {"reader": "field", "piece": handle}

    @staticmethod
    def _cmd(what: str) -> dict[str, Any]:
        return {"reader": "hand", "tag": f"cmd:{what}"}


def ear_simulation(seed: int, players: int, options: Mapping[str, Any] | None = None, bot: str | None = None) -> EarTable:
    rng = random.Random(seed)
    world = TridentWorld(players, rng)
    bots = [TridentEarBot(s, random.Random(rng.random())) for s in range(1, players + 1)]
    return EarTable("trident", world, bots)
