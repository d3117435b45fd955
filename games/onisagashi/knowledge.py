"""One player's knowledge: own hand, public counts and every declaration.

This is all a seat may reason from (the assistant and the bots are built on
it), and it is exactly the `onisagashi solve` input of docs/contract.md, so the
same validation guards the CLI, the game and the bots.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import CATEGORY_OF, INDEX, hand_counts

RULES = ("beginner", "advanced")


class KnowledgeError(ValueError):
    """Observations that are malformed or contradict the rules."""


@dataclass(frozen=True)
class Declaration:
    declarer: int
    cards: tuple[str, str, str]
    have: frozenset[int]


@dataclass(frozen=True)
class Knowledge:
    rules: str
    players: int
    me: int
    hand: frozenset[str]
    history: tuple[Declaration, ...] = ()
    counts: Mapping[int, tuple[int, int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.counts:
            object.__setattr__(self, "counts", hand_counts(self.rules, self.players))

    def others(self) -> list[int]:
        return [s for s in range(1, self.players + 1) if s != self.me]


def check_declaration(rules: str, players: int, declarer: int, cards: Iterable[str]) -> tuple[str, str, str]:
    """The three cards in category order, or KnowledgeError."""
    cards = list(cards)
    if not 1 <= declarer <= players:
        raise KnowledgeError(f"declarer {declarer} is not a seat of {players}")
    unknown = [c for c in cards if c not in INDEX]
    if unknown:
        raise KnowledgeError(f"unknown card {unknown[0]!r}")
    if len(cards) != 3 or sorted(CATEGORY_OF[c] for c in cards) != [0, 1, 2]:
        raise KnowledgeError(f"a declaration is one culprit, one weapon and one place, not {cards}")
    ordered = sorted(cards, key=CATEGORY_OF.__getitem__)
    return ordered[0], ordered[1], ordered[2]


def knowledge_from_json(data: Any) -> Knowledge:
    """Parse docs/contract.md observations; every problem is one KnowledgeError line."""
    if not isinstance(data, dict):
        raise KnowledgeError("observations must be a JSON object")
    rules = data.get("rules", "beginner")
    if rules not in RULES:
        raise KnowledgeError(f"rules must be one of {', '.join(RULES)}, not {rules!r}")
    players, me = data.get("players"), data.get("me")
    if not isinstance(players, int) or not 3 <= players <= 6:
        raise KnowledgeError(f"players must be 3..6, not {players!r}")
    if not isinstance(me, int) or not 1 <= me <= players:
        raise KnowledgeError(f"me must be a seat 1..{players}, not {me!r}")
    hand = data.get("hand")
    if not isinstance(hand, list) or any(c not in INDEX for c in hand) or len(set(hand)) != len(hand):
        raise KnowledgeError(f"hand must be a list of distinct card ids, not {hand!r}")
    counts = hand_counts(rules, players)
    mine = [0, 0, 0]
    for c in hand:
        mine[CATEGORY_OF[c]] += 1
    want = counts[me]
    if (rules == "beginner" and tuple(mine) != want) or (rules == "advanced" and sum(mine) != want[0]):
        raise KnowledgeError(f"seat {me} must hold {want if rules == 'beginner' else want[0]} cards under {rules} rules, not {hand}")
    history = []
    for n, item in enumerate(data.get("history", []) or [], 1):
        if not isinstance(item, dict):
            raise KnowledgeError(f"history entry {n} must be an object")
        d = item.get("declarer")
        if not isinstance(d, int):
            raise KnowledgeError(f"history entry {n}: declarer must be a seat number")
        cards = check_declaration(rules, players, d, item.get("cards", []))
        have = item.get("have", [])
        if not isinstance(have, list) or any(not isinstance(s, int) or not 1 <= s <= players for s in have):
            raise KnowledgeError(f"history entry {n}: have must list seats 1..{players}")
        if d in have:
            raise KnowledgeError(f"history entry {n}: the declarer {d} never answers")
        if d == me and rules == "beginner" and set(cards) & set(hand):
            raise KnowledgeError(f"history entry {n}: under beginner rules you may not declare your own card")
        if d != me and (me in have) != bool(set(cards) & set(hand)):
            raise KnowledgeError(f"history entry {n}: seat {me}'s 'have' contradicts its hand")
        history.append(Declaration(d, cards, frozenset(have)))
    return Knowledge(rules, players, me, frozenset(hand), tuple(history), counts)
