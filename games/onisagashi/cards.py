"""The 18 cards of 鬼探し, their categories and their tags.

Card ids are the docs/contract.md ids; the order below is the seed's table order
and is the one deterministic tie-break everywhere (best declaration, output).
"""
from __future__ import annotations

from collections.abc import Iterable

CATEGORIES: tuple[str, ...] = ("culprit", "weapon", "place")

BY_CATEGORY: dict[str, tuple[str, ...]] = {
    "culprit": ("keiichi", "rena", "mion", "satoko", "rika", "shion"),
    "weapon": ("bat", "nata", "kugi", "kame", "kuwa", "tofu"),
    "place": ("forest", "swamp", "dam", "phonebox", "roadside", "riverbank"),
}

CARDS: tuple[str, ...] = tuple(c for cat in CATEGORIES for c in BY_CATEGORY[cat])
INDEX: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
CATEGORY_OF: dict[str, int] = {
    c: CATEGORIES.index(cat) for cat, cards in BY_CATEGORY.items() for c in cards
}

CARD_PREFIX = "oni:card-"
TOKEN_PREFIX = "oni:token-"


def card_tag(card: str) -> str:
    return CARD_PREFIX + card


def token_tag(card: str) -> str:
    return TOKEN_PREFIX + card


def parse_tag(tag: str) -> tuple[str, str] | None:
    """("card"|"token", id) for a 鬼探し tag, None for anything else."""
    for kind, prefix in (("card", CARD_PREFIX), ("token", TOKEN_PREFIX)):
        if tag.startswith(prefix) and tag[len(prefix):] in INDEX:
            return kind, tag[len(prefix):]
    return None


def all_tags() -> frozenset[str]:
    return frozenset(card_tag(c) for c in CARDS) | frozenset(token_tag(c) for c in CARDS)


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=INDEX.__getitem__)


def hand_counts(rules: str, players: int) -> dict[int, tuple[int, int, int]]:
    """How many cards of each category each seat is dealt (public knowledge).

    Ruling: the dealer deals clockwise from seat 1, one card at a time.  Under
    beginner rules the three categories are dealt one after another, each
    continuing where the previous one stopped, so uneven deals stay as even
    as possible overall; under advanced rules only the total per seat is
    fixed (any mix of categories), stored in the first slot.
    """
    counts = {s: [0, 0, 0] for s in range(1, players + 1)}
    if rules == "beginner":
        pos = 0
        for cat in range(3):
            for _ in range(5):
                counts[pos % players + 1][cat] += 1
                pos += 1
    else:
        for pos in range(15):
            counts[pos % players + 1][0] += 1
    return {s: (c[0], c[1], c[2]) for s, c in counts.items()}
