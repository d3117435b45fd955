"""The deal by scanning: the physical deck is shuffled at the table, and each
seat scanning one role card on its own hand reader *is* the deal.

The controller only checks that the scans match the deck (no card twice, no
role more often than the deck holds it, one card per seat).  Every refusal
goes to the scanning seat's earphone only: even "that role is gone" tells
something about another seat's hand.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: Most copies of one role a deck may hold (card N = 1 .. MAX_COPIES).
MAX_COPIES = 12


def card_tag(card_set: str, kind: str, role: str, n: int) -> str:
    """`witch:role-imp-1`, `mafia42:job-doctor-2`."""
    return f"{card_set}:{kind}-{role}-{n}"


def all_card_tags(card_set: str, kind: str, roles: Iterable[str], copies: int = MAX_COPIES) -> frozenset[str]:
    return frozenset(card_tag(card_set, kind, r, n) for r in roles for n in range(1, copies + 1))


def parse_card(tag: str, card_set: str, kind: str, roles: Iterable[str]) -> tuple[str, int] | None:
    """(role, n) of a role card of this game, else None."""
    m = re.fullmatch(rf"{re.escape(card_set)}:{re.escape(kind)}-([a-z-]+?)-(\d{{1,2}})", tag)
    if not m or m.group(1) not in set(roles):
        return None
    n = int(m.group(2))
    return (m.group(1), n) if 1 <= n <= MAX_COPIES else None


def check_deck(deck: object, players: int, roles: Iterable[str]) -> list[str]:
    """A validated deck (one role name per seat); ValueError names the problem."""
    known = set(roles)
    if not isinstance(deck, (list, tuple)) or not all(isinstance(r, str) for r in deck):
        raise ValueError("the deck must be a list of role names")
    if len(deck) != players:
        raise ValueError(f"the deck must hold one role per seat: {players}, not {len(deck)}")
    bad = sorted(set(deck) - known)
    if bad:
        raise ValueError(f"unknown role {bad[0]!r} (have: {', '.join(sorted(known))})")
    over = [r for r, c in Counter(deck).items() if c > MAX_COPIES]
    if over:
        raise ValueError(f"at most {MAX_COPIES} cards of one role, not {Counter(deck)[over[0]]} {over[0]}")
    return list(deck)


@dataclass
class Deal:
    """The scans so far against the deck."""

    deck: Sequence[str]
    players: int
    cards: dict[int, tuple[str, int]] = field(default_factory=dict)  # seat -> (role, n)

    def refusal(self, seat: int, role: str, n: int) -> str | None:
        """Why this scan cannot be dealt (a phrase key), or None when it can."""
        if seat in self.cards:
            return None if self.cards[seat] == (role, n) else "role-already-dealt"
        if (role, n) in self.cards.values():
            return "role-card-taken"
        if sum(1 for r, _ in self.cards.values() if r == role) >= Counter(self.deck)[role]:
            return "role-not-in-deck"
        return None

    def scan(self, seat: int, role: str, n: int) -> bool:
        """Deal the card (True when newly dealt); call `refusal` first."""
        if seat in self.cards:
            return False
        self.cards[seat] = (role, n)
        return True

    @property
    def complete(self) -> bool:
        return len(self.cards) == self.players


def assign_with_preferences(deck: Sequence[str], preferences: Mapping[int, str], players: int,
                            rng: random.Random) -> dict[int, str]:
    """Which role each seat should get when players named a preferred role.

    Ruling (闇に笑う魔女): each preference is granted while that role is still
    free, taking the players in random order; everyone else gets the rest of
    the shuffled deck.  The referee hands the cards out accordingly.
    """
    free = Counter(deck)
    out: dict[int, str] = {}
    order = list(range(1, players + 1))
    rng.shuffle(order)
    for seat in order:
        want = preferences.get(seat)
        if want is not None and free[want] > 0:
            out[seat] = want
            free[want] -= 1
    rest = [r for r, c in sorted(free.items()) for _ in range(c)]
    rng.shuffle(rest)
    for seat in range(1, players + 1):
        if seat not in out:
            out[seat] = rest.pop()
    return out
