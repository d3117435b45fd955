"""The Trident's 54 pieces as plain, immutable data (one module, like python-chess's core).

Every physical piece has its own identity (`trident:heart-1` ... `heart-8`),
so the controller can say at every moment where each of the 54 is.  The
rules only ever ask a handful of questions about a piece (is it basic, which
suit does it set, how much does it add to an attack, does it turn the hands),
so those answers live here and the game never parses tag names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

SET = "trident"


class Suit(str, Enum):
    HEART = "heart"
    DIAMOND = "diamond"
    SPADE = "spade"
    CLOVER = "clover"


class Kind(str, Enum):
    BASIC = "basic"
    CHANGE = "change"
    ATTACK = "attack"
    SPECIAL1 = "special1"  # change-draw-4
    SPECIAL2 = "special2"  # unknown


#: Competition points of a basic piece, by suit (seed: heart 1 ... clover 5).
BASIC_POINTS = {Suit.HEART: 1, Suit.DIAMOND: 2, Suit.SPADE: 3, Suit.CLOVER: 5}


@dataclass(frozen=True, slots=True)
class Piece:
    """One physical piece.  `effect` is the language-free name of what it does
    on the field (a `[names]` key of the catalogue, spoken when it lands).

    The questions the rules ask of a piece are answered once, when the 54 are
    built, not at every scan (they are asked several times per input)."""

    tag: str
    kind: Kind
    effect: str  # "heart", "change-clover", "draw-2", "change-draw-4", "turn-around-right", ...
    points: int
    suit: Suit | None = None  # basic: its suit; change (and unknown change): the suit it sets
    adds: int = 0  # what it adds to a pending attack
    rotate: str | None = None  # "right" / "left" for the turn-around unknowns
    #: A basic piece (a number in a suit).
    basic: bool = field(init=False, repr=False, compare=False)
    #: Attack and special pieces are the only legal answers to a pending attack.
    answers_attack: bool = field(init=False, repr=False, compare=False)
    #: Only basic and change pieces set the suit at an opening (or a reset).
    opens: bool = field(init=False, repr=False, compare=False)
    #: The suit this piece sets when legally played (None: unchanged or chosen).
    sets_suit: Suit | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        basic = self.kind is Kind.BASIC
        object.__setattr__(self, "basic", basic)
        object.__setattr__(self, "answers_attack", self.kind in (Kind.ATTACK, Kind.SPECIAL1, Kind.SPECIAL2))
        object.__setattr__(self, "opens", self.kind in (Kind.BASIC, Kind.CHANGE))
        object.__setattr__(self, "sets_suit", None if basic else self.suit)


def _build() -> tuple[Piece, ...]:
    pieces: list[Piece] = []
    for suit in Suit:
        for i in range(1, 9):
            pieces.append(Piece(f"{SET}:{suit.value}-{i}", Kind.BASIC, suit.value, BASIC_POINTS[suit], suit))
    for suit in Suit:
        for i in range(1, 4):
            pieces.append(Piece(f"{SET}:change-{suit.value}-{i}", Kind.CHANGE, f"change-{suit.value}", 10, suit))
    for i in range(1, 3):
        pieces.append(Piece(f"{SET}:draw-2-{i}", Kind.ATTACK, "draw-2", 30, adds=2))
    for i in range(1, 4):
        pieces.append(Piece(f"{SET}:draw-4-{i}", Kind.ATTACK, "draw-4", 50, adds=4))
    pieces.append(Piece(f"{SET}:change-draw-4", Kind.SPECIAL1, "change-draw-4", 100, adds=4))
    pieces.append(Piece(f"{SET}:unknown-1", Kind.SPECIAL2, "change-clover", 10, Suit.CLOVER))
    pieces.append(Piece(f"{SET}:unknown-2", Kind.SPECIAL2, "change-spade", 10, Suit.SPADE))
    pieces.append(Piece(f"{SET}:unknown-3", Kind.SPECIAL2, "turn-around-right", 10, rotate="right"))
    pieces.append(Piece(f"{SET}:unknown-4", Kind.SPECIAL2, "turn-around-left", 10, rotate="left"))
    return tuple(pieces)


PIECES: tuple[Piece, ...] = _build()
BY_TAG: dict[str, Piece] = {p.tag: p for p in PIECES}
TAGS: frozenset[str] = frozenset(BY_TAG)
HAND_SIZE = 5

#: The designer's piece kinds, for reports ("which kind decided the game").
KIND_LABELS = {
    Kind.BASIC: "basic", Kind.CHANGE: "change", Kind.ATTACK: "attack",
    Kind.SPECIAL1: "change-draw-4", Kind.SPECIAL2: "unknown",
}


def piece(tag: str) -> Piece:
    """The piece of a tag; KeyError for a tag that is not a Trident piece."""
    return BY_TAG[tag]


def hand_points(tags: list[str] | tuple[str, ...]) -> int:
    """Competition points of a hand (lower is better)."""
    return sum(BY_TAG[t].points for t in tags)

assert len(PIECES) == 54
