"""Ear-only bots for 鬼探し (`kikimimi sim onisagashi --bot ear`).

A seat learns its hand from its earphone ("hand-card", one card per scan),
every declaration and its "have" answer from the speaker, and reasons with
the same solver as the assistant (`Analysis` of its own `Knowledge`).  The
referee is an ear too: it hears the speaker only, closes the raise-hand
window once the seats have had their chance, and types `deal` when the
speaker asks for a new round.  The cards are dealt by the world (the
physical shuffle), which a seat touches only as opaque handles.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.game import Call, EarBot, EarTable, Handles, Heard, Phrasebook, RefereeEar

from .bots import deal
from .cards import CARDS, card_tag, hand_counts, token_tag
from .options import OPTIONS
from .knowledge import Declaration, Knowledge
from .solver import Analysis


@dataclass(frozen=True)
class Reach:
    """The cards dealt to a seat, as handles it can pick up and scan."""

    cards: tuple[int, ...]


class OnisagashiWorld:
    """The physical table: a fresh shuffle and deal whenever a round begins."""

    def __init__(self, rules: str, players: int, rng: random.Random):
        self.rules, self.players, self.rng = rules, players, rng
        self.handles = Handles((card_tag(c) for c in CARDS), random.Random(rng.random()))
        self.hands: dict[int, list[str]] = {}
        self.over = False

    def follow(self, ev: Mapping[str, Any]) -> None:
        if ev.get("type") == "round":
            self.hands = {s: [card_tag(c) for c in cards] for s, cards in deal(self.rules, self.players, self.rng).items()}
        elif ev.get("type") == "game-over":
            self.over = True

    def reach(self, seat: int | None) -> Reach:
        return Reach(tuple(self.handles.of(t) for t in self.hands.get(seat or 0, [])))

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        tag = self.handles.tag(handle)
        return tag if tag is not None and tag in self.hands.get(seat or 0, []) else None

    def public_tag(self, tag: str) -> bool:
        return tag.startswith(("cmd:", "oni:token-"))


def card_names() -> dict[str, str]:
    """Spoken card name -> card id: what a player knows from the printed cards."""
    names = Phrasebook("en", ("onisagashi",)).names
    return {names[card_tag(c)]: c for c in CARDS}


class OnisagashiEarBot(EarBot):
    seat: int  # a seat's player, never the table-side actor

    def __init__(self, seat: int, rules: str, players: int, cards: Mapping[str, str]):
        self.seat, self.rules, self.players, self.cards = seat, rules, players, cards
        self.counts = hand_counts(rules, players)
        self.hand: set[str] = set()
        self.history: list[Declaration] = []
        self.scanned: set[int] = set()
        self.dealing = False
        self.turn = 0
        self.declaring: list[str] = []  # tokens still to put on the field
        self.declared_by = 0
        self.declared_cards: tuple[str, ...] = ()
        self.raise_now = False
        self.answer_with: list[str] = []
        self.over = False
        self._last: Analysis | None = None  # the latest built, extended by the next declaration

    def _ids(self, names: Any) -> tuple[str, ...]:
        return tuple(self.cards[n] for n in names)

    def hear(self, h: Heard) -> None:
        p, key = h.params, h.key
        if key == "scan-hand":
            self.hand, self.history, self.scanned = set(), [], set()
            self.dealing, self.declaring, self.answer_with = True, [], []
        elif key == "hand-card" and h.to != "table":
            self.hand.add(self.cards[p["card"]])
        elif key == "dealt":
            self.dealing = False
        elif key == "turn":
            self.turn = int(p["seat"])
            self.raise_now = False
            if self.turn == self.seat:
                self.declaring = list(self._analysis().best())
        elif key == "declare":
            self.declared_by, self.declared_cards = int(p["seat"]), self._ids(p["cards"])
        elif key in ("have", "nobody"):
            have = frozenset(int(s) for s in p.get("seats", []))
            self.history.append(Declaration(self.declared_by, self.declared_cards, have))  # type: ignore[arg-type]
            self.raise_now = bool(self._analysis().solved())
        elif key == "grant":
            self.raise_now = False
            if int(p["seat"]) == self.seat:
                a = self._analysis()
                self.answer_with = list(a.solved() or a.best())
        elif key == "game-over":
            self.over = True

    def _analysis(self) -> Analysis:
        """The analysis of what the seat knows now: rebuilt only when that changed, on the last one."""
        k = Knowledge(self.rules, self.players, self.seat, frozenset(self.hand), tuple(self.history), self.counts)
        last = self._last
        if last is None or last.k.hand != k.hand or last.k.history != k.history:
            last = self._last = Analysis.following(k, last)
        return last

    def act(self, reach: Reach) -> dict[str, Any] | None:
        if self.over:
            return None
        if self.dealing:
            rest = [x for x in reach.cards if x not in self.scanned]
            if rest:
                self.scanned.add(rest[0])
                return {"reader": "hand", "piece": rest[0], "dt": 0.5}
            return None
        if self.raise_now:
            self.raise_now = False
            return {"reader": "hand", "tag": "cmd:raise", "dt": 0.5}
        if self.answer_with:
            return {"reader": "hand", "tag": token_tag(self.answer_with.pop(0))}
        if self.declaring:
            return {"reader": "field", "tag": token_tag(self.declaring.pop(0))}
        return None


#: The referee at the console: `next` closes a raise-hand window nobody took (or calls the
#: declaration of three settled tokens), `deal` starts a round.
REFEREE = (Call("next", frozenset({"have", "nobody"}), frozenset({"grant", "turn"}), dt=1.0),
           Call("next", frozenset({"token"}), frozenset({"declare"}), dt=1.0),
           Call("deal", frozenset({"next-round"}), frozenset({"scan-hand"}), dt=5.0))


def ear_simulation(seed: int, players: int, options: Mapping[str, Any] | None = None, bot: str | None = None) -> EarTable:
    opts = OPTIONS.parse(players, dict(options or {}))
    rng = random.Random(seed)
    world = OnisagashiWorld(opts["rules"], players, random.Random(rng.random()))
    names = card_names()
    bots: list[EarBot] = [OnisagashiEarBot(s, opts["rules"], players, names) for s in range(1, players + 1)]
    return EarTable("onisagashi", world, [*bots, RefereeEar(*REFEREE)])

