"""The oracle: enumerate every deal one by one and check it against the rules' definitions.

Deliberately naive (no shared code with the solver beyond card lists): each
unknown card goes to an owner within the public counts, and a finished deal
is kept only if every recorded "have" set is exactly what that deal would
answer.  A seat that said nothing is skipped early only because the
definition says it cannot hold a declared card.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from kikimimi_games.onisagashi.cards import BY_CATEGORY, CARDS, CATEGORIES, CATEGORY_OF, hand_counts
from kikimimi_games.onisagashi.knowledge import Declaration, Knowledge

ANSWER = "answer"


class TooBig(Exception):
    pass


def deals(k: Knowledge, budget: int = 200_000) -> list[dict[str, object]]:
    others = [s for s in range(1, k.players + 1) if s != k.me]
    owners = [ANSWER] + others
    # declared cards first, so a declaration's check fires early in the walk
    unknown = [c for d in k.history for c in d.cards if c not in k.hand]
    unknown = list(dict.fromkeys(unknown + [c for c in CARDS if c not in k.hand]))
    said_no = set()
    for d in k.history:
        for s in others:
            if s != d.declarer and s not in d.have:
                said_no.update((s, c) for c in d.cards)
            if s == d.declarer and k.rules == "beginner":
                said_no.update((s, c) for c in d.cards)
    found: list[dict[str, object]] = []
    owner_of: dict[str, object] = {}
    held = {o: [0, 0, 0] for o in owners}
    nodes = [0]

    def fits(o, c):
        g = CATEGORY_OF[c]
        if o == ANSWER:
            return held[o][g] < 1
        if (o, c) in said_no:
            return False
        if k.rules == "beginner":
            return held[o][g] < k.counts[o][g]
        return sum(held[o]) < k.counts[o][0]

    def consistent() -> bool:
        hands = {s: {c for c, o in owner_of.items() if o == s} for s in others}
        hands[k.me] = set(k.hand)
        for d in k.history:
            for s in range(1, k.players + 1):
                if s == d.declarer:
                    if k.rules == "beginner" and hands[s] & set(d.cards):
                        return False
                    continue
                if (s in d.have) != bool(hands[s] & set(d.cards)):
                    return False
        return True

    # a declaration can be checked as soon as all its unknown cards have owners
    last = {}
    for d in k.history:
        idx = [unknown.index(c) for c in d.cards if c in unknown]
        last.setdefault(max(idx) if idx else -1, []).append(d)

    def partial_ok(i: int) -> bool:
        for d in last.get(i, ()):
            for s in others:
                if s != d.declarer and (s in d.have) != any(owner_of.get(c) == s for c in d.cards):
                    return False
        return True

    def walk(i: int) -> None:
        nodes[0] += 1
        if nodes[0] > budget:
            raise TooBig
        if not partial_ok(i - 1):
            return
        if i == len(unknown):
            if consistent():
                found.append(dict(owner_of))
            return
        c = unknown[i]
        for o in owners:
            if fits(o, c):
                owner_of[c] = o
                held[o][CATEGORY_OF[c]] += 1
                walk(i + 1)
                held[o][CATEGORY_OF[c]] -= 1
                del owner_of[c]

    walk(0)
    return found


def matrix(k: Knowledge, found) -> dict[str, dict[str, int]]:
    cols = [str(s) for s in range(1, k.players + 1)] + [ANSWER]
    m = {c: {col: 0 for col in cols} for c in CARDS}
    for c in k.hand:
        m[c][str(k.me)] = 1
    for deal in found:
        for c, o in deal.items():
            m[c][str(o)] = 1
    return m


def information(k: Knowledge, found, decl) -> float:
    """I(answer triple; have pattern) for the declarer `k.me`, by counting."""
    joint, pa, pr = Counter(), Counter(), Counter()
    for deal in found:
        a = tuple(sorted(c for c, o in deal.items() if o == ANSWER))
        r = tuple(sorted({deal[c] for c in decl if c in deal and deal[c] != ANSWER}))
        joint[a, r] += 1
        pa[a] += 1
        pr[r] += 1
    n = len(found)

    def h(counter):
        return -sum(v / n * math.log2(v / n) for v in counter.values())

    return h(pa) + h(pr) - h(joint)


def legal_declarations(k: Knowledge):
    per = [[c for c in BY_CATEGORY[cat] if k.rules == "advanced" or c not in k.hand] for cat in CATEGORIES]
    return list(itertools.product(*per))


def random_position(rng: random.Random, rules: str, players: int, declarations: int) -> tuple[Knowledge, dict]:
    """A true deal, then random legal declarations answered truthfully; one seat's view."""
    counts = hand_counts(rules, players)
    answer = [rng.choice(BY_CATEGORY[cat]) for cat in CATEGORIES]
    hands: dict[int, set[str]] = {s: set() for s in range(1, players + 1)}
    if rules == "beginner":
        for g, cat in enumerate(CATEGORIES):
            rest = [c for c in BY_CATEGORY[cat] if c not in answer]
            rng.shuffle(rest)
            for s in range(1, players + 1):
                for _ in range(counts[s][g]):
                    hands[s].add(rest.pop())
    else:
        rest = [c for c in CARDS if c not in answer]
        rng.shuffle(rest)
        for s in range(1, players + 1):
            for _ in range(counts[s][0]):
                hands[s].add(rest.pop())
    history = []
    for _ in range(declarations):
        d = rng.randint(1, players)
        pool = [[c for c in BY_CATEGORY[cat] if rules == "advanced" or c not in hands[d]] for cat in CATEGORIES]
        cards = tuple(rng.choice(p) for p in pool)
        have = frozenset(s for s in hands if s != d and hands[s] & set(cards))
        history.append(Declaration(d, cards, have))
    me = rng.randint(1, players)
    return Knowledge(rules, players, me, frozenset(hands[me]), tuple(history), counts), hands
