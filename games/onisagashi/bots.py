"""Bot seats and the physical table for `kikimimi sim onisagashi`.

Each bot rebuilds its seat's knowledge only from the log events its seat may
see (`visible_to`): its own "hand-card" phrases and the public "answers".
The table side (dealing, the referee's `deal` and `next`) acts only on
public events.  The referee closes each raise window with `next` once the
bots that know the answer have raised, so bot games need no waiting.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import deliver

from .cards import BY_CATEGORY, CARDS, CATEGORIES, CARD_PREFIX, hand_counts, token_tag
from .options import OPTIONS
from .knowledge import Declaration, Knowledge
from .solver import Analysis

BOTS = ("best", "random")


class BotSeat:
    """One seat's private reasoning, fed only with what that seat hears."""

    def __init__(self, seat: int, rules: str, players: int, style: str, rng: random.Random):
        self.seat, self.rules, self.players, self.style, self.rng = seat, rules, players, style, rng
        self.counts = hand_counts(rules, players)
        self.hand: set[str] = set()
        self.history: list[Declaration] = []
        self._analysis: Analysis | None = None  # of what the seat knows now
        self._last: Analysis | None = None  # the latest built, extended by the next declaration

    def see(self, ev: Mapping[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "round":
            self.hand, self.history, self._analysis = set(), [], None
        elif kind == "say" and ev.get("key") == "hand-card" and ev.get("to") == f"seat:{self.seat}":
            self.hand.add(str(ev["params"]["card"])[len(CARD_PREFIX):])
            self._analysis = None
        elif kind == "answers":
            self.history.append(Declaration(int(ev["seat"]), tuple(ev["cards"]), frozenset(ev["have"])))
            self._analysis = None

    def analysis(self) -> Analysis:
        if self._analysis is None:
            k = Knowledge(self.rules, self.players, self.seat, frozenset(self.hand), tuple(self.history), self.counts)
            self._analysis = self._last = Analysis.following(k, self._last)
        return self._analysis

    def declaration(self) -> tuple[str, str, str]:
        a = self.analysis()
        if self.style == "best":
            return a.best()
        picks = []
        for g in range(3):
            legal = a.legal_cards(g)
            open_ = [c for c in legal if not a.settled(c)]
            picks.append(self.rng.choice(open_ or legal))
        return picks[0], picks[1], picks[2]


class OnisagashiSimulation:
    def __init__(self, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None):
        self.opts = OPTIONS.parse(players, options)
        style = bot or "best"
        if style not in BOTS:
            raise ValueError(f"onisagashi bots are {', '.join(BOTS)}, not {style!r}")
        self.players = players
        self.rng = random.Random(seed)
        self.queue: deque[dict[str, Any]] = deque()
        self.bots = {s: BotSeat(s, self.opts["rules"], players, style, random.Random(seed * 1000 + s))
                     for s in range(1, players + 1)}

    def next_input(self) -> dict[str, Any] | None:
        return self.queue.popleft() if self.queue else None

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        for ev in deliver(events, self.bots):
            kind = ev["type"]
            if kind == "round":
                self._deal()
            elif kind == "turn":
                seat = int(ev["seat"])
                # players lean on their assistant: ask for a hint and about one card
                probe = self.rng.choice(CARDS)
                self.queue.append({"reader": "hand", "seat": seat, "tag": "cmd:hint", "dt": 0.5})
                self.queue.append({"reader": "hand", "seat": seat, "tag": token_tag(probe), "dt": 0.5})
                for card in self.bots[seat].declaration():
                    self.queue.append({"reader": "field", "tag": token_tag(card), "dt": 1.0})
                self.queue.append({"console": "next", "dt": 1.0})  # the referee calls the settled declaration
            elif kind == "answers":
                for s, bot in self.bots.items():
                    if bot.analysis().solved():
                        self.queue.append({"reader": "hand", "seat": s, "tag": "cmd:raise", "dt": 0.5})
                self.queue.append({"console": "next", "dt": 1.0})
            elif kind == "grant":
                seat = int(ev["seat"])
                solved = self.bots[seat].analysis().solved()
                for card in solved or self.bots[seat].declaration():
                    self.queue.append({"reader": "hand", "seat": seat, "tag": token_tag(card), "dt": 1.0})
            elif kind == "verdict":
                self.queue.append({"console": "deal", "dt": 5.0})

    def _deal(self) -> None:
        """The physical round, then every seat scans its cards."""
        for s, cards in deal(self.opts["rules"], self.players, self.rng).items():
            for c in cards:
                self.queue.append({"reader": "hand", "seat": s, "tag": f"oni:card-{c}", "dt": 0.5})


def deal(rules: str, players: int, rng: random.Random) -> dict[int, list[str]]:
    """The physical round: draw the answer, shuffle, deal by the public counts."""
    counts = hand_counts(rules, players)
    answer = [rng.choice(BY_CATEGORY[cat]) for cat in CATEGORIES]
    hands: dict[int, list[str]] = {s: [] for s in counts}
    if rules == "beginner":
        for g, cat in enumerate(CATEGORIES):
            rest = [c for c in BY_CATEGORY[cat] if c not in answer]
            rng.shuffle(rest)
            for s in counts:
                hands[s] += [rest.pop() for _ in range(counts[s][g])]
    else:
        rest = [c for c in CARDS if c not in answer]
        rng.shuffle(rest)
        for s in counts:
            hands[s] += [rest.pop() for _ in range(counts[s][0])]
    return hands
