"""The Trident's search bot: Monte Carlo search over the hands and basket it cannot see.

Why a model and not the engine: a decision is worth many imagined games, and
the engine with its bots plays a few hundred games a second; this module's
model of the rules plays thousands of imagined turns in the time of one real
input.  It is a model of the rules for players who never err (no wrong pieces,
Trident always declared), which is what a skilled player plans with.

What the bot may know is kept apart from the table: a `SearchBot` builds its
`View` only from what its seat heard (its earphone, the speaker, the public
field) and from its own pieces *as it heard them* — an unknown piece is
"unknown" to it, whatever its tag says.  Each iteration deals the pieces it
has not seen at random into the other hands (at their public counts), the
unknown effects it has not seen revealed, and the basket (a determinization),
chooses a root move by UCB1 (information-set Monte Carlo search with the tree
cut at the root), and plays the imagined game out with a plain policy.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.design.duel import focal_seat

from .pieces import HAND_SIZE, PIECES, Kind
from .simulation import BASIC, HEARD, SEARCH, SUITS, Bot, Temper, TridentSimulation

# -- pieces as small numbers (the model's whole vocabulary) -------------------------
#: 0-3 basic suits; 4-7 change to suit; then attacks, change-draw-4, the four unknown effects.
CHANGE0, DRAW2, DRAW4, CD4 = 4, 8, 9, 10
U_CLOVER, U_SPADE, U_RIGHT, U_LEFT = 11, 12, 13, 14
#: An unknown piece in one's own hand whose effect is not known yet.
UNKNOWN = 15
UNKNOWN_EFFECTS = (U_CLOVER, U_SPADE, U_RIGHT, U_LEFT)
POINTS = (1, 2, 3, 5, 10, 10, 10, 10, 30, 50, 100, 10, 10, 10, 10, 10)
ADDS = {DRAW2: 2, DRAW4: 4, CD4: 4}
ANSWERS = frozenset({DRAW2, DRAW4, CD4, *UNKNOWN_EFFECTS, UNKNOWN})
SETS_SUIT = {CHANGE0 + s: s for s in range(4)} | {U_CLOVER: 3, U_SPADE: 2}

_BY_NAME = {name: i for i, name in enumerate(SUITS)}
_BY_NAME.update({f"change-{name}": CHANGE0 + i for i, name in enumerate(SUITS)})
_BY_NAME.update({"draw-2": DRAW2, "draw-4": DRAW4, "change-draw-4": CD4, "unknown": UNKNOWN})
_UNKNOWN_BY_EFFECT = {"change-clover": U_CLOVER, "change-spade": U_SPADE,
                      "turn-around-right": U_RIGHT, "turn-around-left": U_LEFT}


def heard_code(heard: str) -> int:
    """A piece as a player heard it on their hand reader ("unknown" stays unknown)."""
    return _BY_NAME[heard]


def field_code(tag: str) -> int:
    """A piece as the speaker announced it on the field (an unknown's effect is said there)."""
    p = _PIECE[tag]
    return _UNKNOWN_BY_EFFECT[p.effect] if p.kind is Kind.SPECIAL2 else _BY_NAME[p.effect]


_PIECE = {p.tag: p for p in PIECES}
#: Every piece of the set, as the model counts them.
DECK = Counter(field_code(p.tag) for p in PIECES)


# -- what a seat may know ------------------------------------------------------------
@dataclass(frozen=True)
class View:
    """One seat's knowledge at a decision: nothing in it came from another seat's secrets."""

    me: int
    players: int
    hand: tuple[int, ...]  # my pieces as I heard them (UNKNOWN for an unknown)
    counts: tuple[int, ...]  # every seat's piece count (public), index seat-1
    seen: Mapping[int, int]  # pieces that reached the field (public), by code
    suit: int
    pending: int
    drawn: bool  # I have drawn this turn (I may now play or pass)
    first: int
    competition: bool


# -- the model ---------------------------------------------------------------------------
class Model:
    """A Trident position played out by players who never err."""

    __slots__ = ("n", "hands", "basket", "suit", "pending", "turn", "first", "competition", "rng",
                 "winner", "crashed")

    def __init__(self, n: int, hands: list[list[int]], basket: list[int], suit: int, pending: int,
                 turn: int, first: int, competition: bool, rng: random.Random):
        self.n, self.hands, self.basket = n, hands, basket
        self.suit, self.pending, self.turn, self.first = suit, pending, turn, first
        self.competition, self.rng = competition, rng
        self.winner: int | None = None
        self.crashed: int | None = None

    def legal(self, p: int, drawn_only: int | None = None) -> list[int]:
        hand = self.hands[p]
        many = len(hand) > 1
        if self.pending:
            return [c for c in hand if c in ANSWERS] if many else []
        pool = hand if drawn_only is None else [drawn_only]
        return [c for c in pool if (c == self.suit if c < 4 else many)]

    def play(self, p: int, c: int) -> None:
        hand = self.hands[p]
        hand.remove(c)
        if c in SETS_SUIT:
            self.suit = SETS_SUIT[c]
        elif c == CD4:
            basics = [x for x in hand if x < 4]
            self.suit = Counter(basics).most_common(1)[0][0] if basics else self.rng.randrange(4)
        if c in ADDS:
            self.pending += ADDS[c]
        if c == U_RIGHT or c == U_LEFT:
            step = 1 if c == U_RIGHT else -1
            old = self.hands
            self.hands = [old[(i - step) % self.n] for i in range(self.n)]
        if not hand:  # only a basic piece can be the last, so no rotation moved it
            self.winner = p
            return
        self.turn = (p + 1) % self.n

    def draw(self, p: int, count: int) -> int | None:
        """Take `count` from the basket; a basket that cannot cover it is a crash."""
        if count > len(self.basket):
            self.hands[p].extend(self.basket)
            self.basket.clear()
            self.crashed = p
            return None
        took = self.basket[-count:]
        del self.basket[-count:]
        self.hands[p].extend(took)
        return took[-1]

    def take_pending(self, p: int) -> None:
        total, self.pending = self.pending, 0
        if self.draw(p, total) is not None:
            self.turn = (p + 1) % self.n

    def draw_then(self, p: int) -> None:
        """Draw one; play it if it is legal, else pass."""
        c = self.draw(p, 1)
        if c is None:
            return
        if self.legal(p, c):
            self.play(p, c)
        else:
            self.turn = (p + 1) % self.n

    def policy(self, p: int) -> None:
        """The plain player of the imagined games: answer attacks, follow suit, else draw."""
        if self.pending:
            answers = self.legal(p)
            if answers:
                self.play(p, self.rng.choice(answers))
            else:
                self.take_pending(p)
            return
        legal = self.legal(p)
        basics = [c for c in legal if c < 4]
        if basics:
            self.play(p, self.rng.choice(basics))
        elif legal and self.rng.random() < 0.5:
            self.play(p, self.rng.choice(legal))
        else:
            self.draw_then(p)

    @property
    def over(self) -> bool:
        return self.winner is not None or self.crashed is not None

    def score(self, me: int) -> float:
        """My reward: 1 for a win, 0 for last place, evenly between; an unfinished
        game by hand sizes (fewer pieces, nearer the win)."""
        n = self.n
        if self.winner is not None or self.crashed is not None:
            order = [(self.first + i) % n for i in range(n)]
            middle = [s for s in order if s not in (self.winner, self.crashed)]
            size = (lambda s: sum(POINTS[c] for c in self.hands[s])) if self.competition \
                else (lambda s: len(self.hands[s]))
            middle.sort(key=lambda s: (size(s), order.index(s)))
            ranked = ([self.winner] if self.winner is not None else []) + middle \
                + ([self.crashed] if self.crashed is not None else [])
            return (n - 1 - ranked.index(me)) / (n - 1)
        weights = [math.exp(-0.6 * len(h)) for h in self.hands]
        return weights[me] / sum(weights)


#: A root move: ("play", code), ("draw", -1), ("pass", -1) or ("take", -1).
Move = tuple[str, int]


def root_moves(view: View) -> list[Move]:
    hand = view.hand
    many = len(hand) > 1
    if view.pending:
        answers = sorted({c for c in hand if c in ANSWERS}) if many else []
        return [("play", c) for c in answers] + [("take", -1)]
    legal = sorted({c for c in hand if (c == view.suit if c < 4 else many)})
    return [("play", c) for c in legal] + [("pass", -1) if view.drawn else ("draw", -1)]


def determinize(view: View, rng: random.Random) -> Model:
    """One guess at everything the seat cannot see, consistent with what it has heard."""
    n, me = view.players, view.me - 1
    effects = [u for u in UNKNOWN_EFFECTS if not view.seen.get(u)]
    rng.shuffle(effects)
    hand = list(view.hand)
    for i, c in enumerate(hand):
        if c == UNKNOWN:
            hand[i] = effects.pop() if effects else U_CLOVER
    unseen = DECK.copy()
    unseen.subtract(view.seen)
    unseen.subtract(c for c in view.hand if c != UNKNOWN)
    for u in UNKNOWN_EFFECTS:
        unseen[u] = 0
    pool = [c for c, k in unseen.items() for _ in range(max(k, 0))] + effects
    rng.shuffle(pool)
    hands: list[list[int]] = []
    for s in range(n):
        if s == me:
            hands.append(hand)
        else:
            k = min(view.counts[s], len(pool))
            hands.append(pool[len(pool) - k:])
            del pool[len(pool) - k:]
    return Model(n, hands, pool, view.suit, view.pending, me, view.first - 1, view.competition, rng)


def apply(model: Model, me: int, move: Move) -> None:
    kind, code = move
    if kind == "play":
        if code == UNKNOWN:  # determinized: whichever unknown effect this hand got
            code = next(c for c in model.hands[me] if c in UNKNOWN_EFFECTS)
        model.play(me, code)
    elif kind == "take":
        model.take_pending(me)
    elif kind == "draw":
        model.draw_then(me)
    else:
        model.turn = (me + 1) % model.n


def search(view: View, rng: random.Random, iterations: int = 64, horizon: int = 40,
           explore: float = 0.7) -> Move:
    """The move with the best mean outcome over `iterations` imagined games (UCB1 at the root)."""
    moves = root_moves(view)
    if len(moves) == 1:
        return moves[0]
    me = view.me - 1
    totals = [0.0] * len(moves)
    visits = [0] * len(moves)
    for it in range(iterations):
        if it < len(moves):
            i = it
        else:
            log_n = math.log(it)
            i = max(range(len(moves)), key=lambda j: totals[j] / visits[j] + explore * math.sqrt(log_n / visits[j]))
        model = determinize(view, rng)
        apply(model, me, moves[i])
        steps = 0
        while not model.over and steps < horizon:
            model.policy(model.turn)
            steps += 1
        totals[i] += model.score(me)
        visits[i] += 1
    best = max(range(len(moves)), key=lambda j: (visits[j], totals[j]))
    return moves[best]


# -- the seat's player ----------------------------------------------------------------
class SearchBot(Bot):
    """A player with a perfect memory who searches before every choice.

    It listens as every bot does (`Bot.hear`), and keeps besides only public
    facts: each seat's piece count (from the speaker) and the pieces seen on
    the field."""

    def __init__(self, seat: int, players: int, rng: random.Random, first: int = 1,
                 competition: bool = False, iterations: int = 64):
        super().__init__(seat, players, Temper(), rng)
        self.counts = [HAND_SIZE] * players
        self.seen: Counter[int] = Counter()
        self.first = first
        self.competition = competition
        self.iterations = iterations
        self.decisions = 0

    HEARS_SPEAKER = True

    def hear(self, ev: Mapping[str, Any], hand: Sequence[str]) -> None:
        super().hear(ev, hand)
        kind = ev["type"]
        if kind == "play":
            self.seen[field_code(ev["tag"])] += 1
            if not ev.get("opening"):
                self.counts[ev["seat"] - 1] -= 1
        elif kind == "rotate":
            step = 1 if ev["direction"] == "right" else -1
            old = self.counts
            self.counts = [old[(i - step) % self.players] for i in range(self.players)]
        elif kind == "say" and ev["to"] == "table":
            key, params = ev["key"], ev.get("params") or {}
            if key == "draws":
                self.counts[params["seat"] - 1] += 1
            elif key in ("takes", "wrong-piece-draws"):
                self.counts[params["seat"] - 1] += int(params["count"])
            elif key == "penalty-no-trident":
                self.counts[params["seat"] - 1] += 2

    def view(self, hand: Sequence[str]) -> View | None:
        """What this seat knows now; None while a piece in hand is still unheard or the suit forgotten."""
        if self.suit is None or any(t not in self.memory for t in hand):
            return None
        counts = list(self.counts)
        counts[self.seat - 1] = len(hand)
        return View(self.seat, self.players, tuple(heard_code(self.memory[t]) for t in hand), tuple(counts),
                    dict(self.seen), _BY_NAME[self.suit], self.pending, self.drawn, self.first, self.competition)

    def turn_action(self, hand: Sequence[str], basket: int) -> dict[str, Any]:
        view = self.view(hand)
        if view is None:
            return super().turn_action(hand, basket)
        self.decisions += 1
        kind, code = search(view, self.rng, self.iterations)
        if kind == "play":
            tag = next(t for t in hand if heard_code(self.memory[t]) == code)
            return self._play(tag)
        if kind == "pass":
            return self._hand("cmd:pass")
        return self._draw(basket)  # a draw, or taking the pending attack: the basket's top piece


def bot_table(seed: int, players: int, options: Mapping[str, Any] | None = None,
              bot: str | None = None) -> TridentSimulation:
    """The Trident's bot table (the declaration's `bot_table`): today's bots, or one seat
    (rotated with the seed) played by the search bot among them.  The same
    seed deals the same pieces whichever bot takes that seat, so a report can
    compare the two game by game."""
    table = TridentSimulation(seed, players, options, bot)
    if bot in SEARCH:
        seat = focal_seat(seed, players)
        table.replace(seat, SearchBot(seat, players, random.Random(table.bots[seat].rng.random()), table.opts.first,
                                      table.opts.competition))
    return table


assert BASIC == frozenset(SUITS) and all(h in _BY_NAME for h in HEARD.values())
