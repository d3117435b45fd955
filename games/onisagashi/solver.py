"""Exact deduction for one seat: which deals are still possible, and the best question.

Why this is exact and fast: a card that was never declared is constrained
only by the hand counts, so all undeclared unknown cards of one category are
interchangeable.  We therefore enumerate, as numpy rows, every assignment of
the *relevant* cards (each declared unknown card plus one representative
undeclared card per category) to an owner (the answer or another seat), prune
rows with the capacity and "have" constraints as soon as they close, and
weight each surviving row by the number of ways the remaining interchangeable
cards complete it (a product of multinomials).  The weighted rows are the
consistent deals, counted exactly; a matrix cell is 1 iff a row of positive
weight (or, for an undeclared card, its category's representative) puts the
card there.

The best declaration maximises the mutual information between the answer
triple and the "have" pattern, over the same weighted rows.  Undeclared
cards of a category give identical information (they are interchangeable),
so only the representative is scored; ties go to the lowest card order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .cards import BY_CATEGORY, CARDS, CATEGORIES, CATEGORY_OF, INDEX
from .knowledge import Declaration, Knowledge, KnowledgeError

ANSWER = "answer"
_FACT = np.array([math.factorial(i) for i in range(19)], dtype=np.int64)
_TIE = 1e-9


class Contradiction(KnowledgeError):
    """No deal is consistent with the observations."""


@dataclass
class _Rows:
    cards: list[str]  # the relevant cards, column order of `own`
    own: np.ndarray  # (n, len(cards)) owner index: 0 answer, i>0 = others[i-1]
    weight: np.ndarray  # (n,) int64 completions of each row, all > 0
    free_rest: tuple[int, int, int]  # undeclared unknown cards per category besides the representative


@dataclass
class _Declared:
    """The rows over the declared unknown cards alone, every declaration so far applied.

    Why it can be kept and extended: a row's order in `_enumerate` is fixed
    by its content (the last card's owner first, then the one before, ...),
    and every constraint is a filter, so applying one more declaration to
    these rows (filter the old columns, then add its new cards as columns)
    gives exactly the rows, in the same order, that `_enumerate` builds from
    nothing.  `Analysis.following` then only adds the representatives.
    """

    base: tuple  # rules, players, me, hand, counts: what must not change
    history: tuple  # the declarations applied
    cards: list[str]
    own: np.ndarray
    load: np.ndarray
    total: np.ndarray


def _base(k: Knowledge) -> tuple:
    return (k.rules, k.players, k.me, k.hand, tuple(sorted(k.counts.items())))


class Analysis:
    """Everything one seat can deduce; built once per knowledge state."""

    def __init__(self, knowledge: Knowledge, declared: _Declared | None = None):
        self.k = knowledge
        self.others = knowledge.others()
        self.rep: dict[str, str] = {}  # undeclared card -> its category's representative
        self._declared = declared
        self._rows = self._enumerate() if declared is None else self._complete(declared)
        if len(self._rows.weight) == 0:
            raise Contradiction("no deal is consistent with these observations")

    @classmethod
    def following(cls, knowledge: Knowledge, previous: Analysis | None = None) -> Analysis:
        """The same analysis as `Analysis(knowledge)`, built on `previous` when `knowledge` only adds declarations to it.

        A bot asks after every declaration it hears; starting again from
        nothing each time cost most of a simulated game.
        """
        prev = previous._declared if previous is not None else None
        k = knowledge
        if prev is None or prev.base != _base(k) or k.history[:len(prev.history)] != prev.history:
            prev = _Declared(_base(k), (), [], *_no_cards(len(k.others()) + 1))
        for d in k.history[len(prev.history):]:
            prev = _declare(k, prev, d)
        return cls(k, prev)

    def _complete(self, dec: _Declared) -> _Rows:
        """`_enumerate`'s representatives and weights on rows kept from before."""
        k = self.k
        reps, free_rest = self._representatives(dec.cards)
        own, load, total = dec.own, dec.load, dec.total
        cap = _capacity(k, self.others)
        for c in reps:
            own, load, total = _add_card(k, cap, own, load, total, c, set())
        return _finish(k, cap, own, load, total, dec.cards + reps, free_rest)

    # -- enumeration -------------------------------------------------------
    def _enumerate(self) -> _Rows:
        k = self.k
        declared: list[str] = []
        for d in k.history:
            for c in d.cards:
                if c not in k.hand and c not in declared:
                    declared.append(c)
        reps, free_rest = self._representatives(declared)
        cards = declared + reps
        col = {c: j for j, c in enumerate(cards)}
        seat_index = {s: i + 1 for i, s in enumerate(self.others)}
        forbidden: dict[str, set[int]] = {}  # card -> owner indices it cannot have
        closing: dict[int, list[tuple[int, list[int]]]] = {}
        for d in k.history:
            _answers(k, seat_index, d, col, forbidden, closing)
        cap = _capacity(k, self.others)
        own, load, total = _no_cards(len(self.others) + 1)
        for j, c in enumerate(cards):
            own, load, total = _add_card(k, cap, own, load, total, c, forbidden.get(c, set()))
            for o, cols in closing.get(j, ()):
                keep = (own[:, cols] == o).any(axis=1)
                own, load, total = own[keep], load[keep], total[keep]
        return _finish(k, cap, own, load, total, cards, free_rest)

    def _representatives(self, declared: list[str]) -> tuple[list[str], list[int]]:
        """One stand-in per category for its unknown cards nobody declared (`self.rep`), and
        how many more such cards each category has."""
        free_rest = [0, 0, 0]
        reps: list[str] = []
        for cat in CATEGORIES:
            free = [c for c in BY_CATEGORY[cat] if c not in self.k.hand and c not in declared]
            if free:
                reps.append(free[0])
                for c in free:
                    self.rep[c] = free[0]
                free_rest[CATEGORIES.index(cat)] = len(free) - 1
        return reps, free_rest

    # -- the matrix ----------------------------------------------------------
    @property
    def deals(self) -> int:
        """The number of consistent deals (answer + every other hand)."""
        return int(self._rows.weight.sum())

    @cached_property
    def possible(self) -> dict[str, frozenset]:
        """card -> the owners (seat numbers and/or "answer") some consistent deal gives it."""
        out: dict[str, frozenset] = {}
        owners = [ANSWER] + self.others
        r = self._rows
        seen = np.zeros((len(r.cards), len(owners)), dtype=bool)  # one pass instead of a unique per card
        if len(r.cards) and len(r.own):
            seen[np.arange(len(r.cards))[None, :], r.own[:, :len(r.cards)]] = True
        for j, c in enumerate(r.cards):
            out[c] = frozenset(owners[o] for o in np.flatnonzero(seen[j]))
        for c in CARDS:
            if c in self.k.hand:
                out[c] = frozenset([self.k.me])
            elif c not in out:
                out[c] = out[self.rep[c]]
        return out

    def matrix(self) -> dict[str, dict[str, int]]:
        """The seed's table: 1 = possible, 0 = impossible, per seat and the answer."""
        cols = [str(s) for s in range(1, self.k.players + 1)] + [ANSWER]
        return {
            c: {col: int((int(col) if col != ANSWER else ANSWER) in self.possible[c]) for col in cols}
            for c in CARDS
        }

    def answer(self) -> dict[str, str | None]:
        """Per category the settled answer card, or None."""
        out = {}
        for cat in CATEGORIES:
            cands = [c for c in BY_CATEGORY[cat] if ANSWER in self.possible[c]]
            out[cat] = cands[0] if len(cands) == 1 else None
        return out

    def solved(self) -> tuple[str, str, str] | None:
        a = self.answer()
        if all(a.values()):
            return a["culprit"], a["weapon"], a["place"]  # type: ignore[return-value]
        return None

    def settled(self, card: str) -> bool:
        return len(self.possible[card]) == 1

    # -- the best declaration ---------------------------------------------
    def legal_cards(self, cat: int) -> list[str]:
        cards = BY_CATEGORY[CATEGORIES[cat]]
        if self.k.rules == "beginner":
            return [c for c in cards if c not in self.k.hand]
        return list(cards)

    def information(self) -> dict[tuple[str, str, str], float]:
        """Expected bits about the answer triple for each scored declaration.

        Undeclared cards are represented by their category's representative
        and (advanced rules) one's own cards of a category by the lowest one:
        the others score identically.
        """
        r = self._rows
        p = r.weight.astype(np.float64)
        p /= p.sum()
        n_seats = len(self.others)
        seat_bit = np.array([0] + [1 << i for i in range(n_seats)], dtype=np.int64)
        col = {c: j for j, c in enumerate(r.cards)}
        label = np.zeros(len(p), dtype=np.int64)
        radix = 1
        cands: list[list[str]] = []
        bits: list[np.ndarray] = []
        for g, cat in enumerate(CATEGORIES):
            kc = [c for c in BY_CATEGORY[cat] if c in col]
            lab = np.full(len(p), len(kc), dtype=np.int64)
            for i, c in enumerate(kc):
                lab[r.own[:, col[c]] == 0] = i
            label += radix * lab
            radix *= len(kc) + 1
            names = list(kc)
            cols = [seat_bit[r.own[:, col[c]]] for c in kc]
            if self.k.rules == "advanced":
                mine = [c for c in BY_CATEGORY[cat] if c in self.k.hand]
                if mine:
                    names.append(mine[0])
                    cols.append(np.zeros(len(p), dtype=np.int64))
            order = sorted(range(len(names)), key=lambda i: INDEX[names[i]])
            cands.append([names[i] for i in order])
            bits.append(np.stack([cols[i] for i in order], axis=1))
        _, label = np.unique(label, return_inverse=True)
        n_lab = int(label.max()) + 1
        h_label = _entropy(np.bincount(label, weights=p, minlength=n_lab))
        n_r = 1 << n_seats
        c1, c2 = bits[1].shape[1], bits[2].shape[1]
        out: dict[tuple[str, str, str], float] = {}
        for i, first in enumerate(cands[0]):
            rr = bits[0][:, i, None, None] | bits[1][:, :, None] | bits[2][:, None, :]  # (n, c1, c2)
            d = np.arange(c1 * c2).reshape(1, c1, c2)
            pw = np.broadcast_to(p[:, None, None], rr.shape)
            key_r = (d * n_r + rr).ravel()
            h_r = _entropy_rows(np.bincount(key_r, weights=pw.ravel(), minlength=c1 * c2 * n_r).reshape(c1 * c2, n_r))
            key_lr = ((d * n_lab + label[:, None, None]) * n_r + rr).ravel()
            h_lr = _entropy_rows(
                np.bincount(key_lr, weights=pw.ravel(), minlength=c1 * c2 * n_lab * n_r).reshape(c1 * c2, n_lab * n_r)
            )
            info = h_label + h_r - h_lr
            for jj, second in enumerate(cands[1]):
                for kk, third in enumerate(cands[2]):
                    out[(first, second, third)] = max(0.0, float(info[jj * c2 + kk]))
        return out

    def best(self) -> tuple[str, str, str]:
        """The legal declaration with the most expected information; lowest card order on ties."""
        info = self.information()
        top = max(info.values())
        return min((d for d, v in info.items() if v >= top - _TIE),
                   key=lambda d: tuple(INDEX[c] for c in d))

    def to_json(self) -> dict:
        return {"matrix": self.matrix(), "answer": self.answer(), "best": list(self.best())}


def _entropy(counts: np.ndarray) -> float:
    q = counts[counts > 0]
    return float(-(q * np.log2(q)).sum())


def _entropy_rows(counts: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, counts * np.log2(np.where(counts > 0, counts, 1)), 0.0)
    return -terms.sum(axis=1)


def _answers(k: Knowledge, seat_index: dict[int, int], d: Declaration, col: dict[str, int],
             forbidden: dict[str, set[int]], closing: dict[int, list[tuple[int, list[int]]]]) -> None:
    """One declaration's answers as constraints on the rows: the owners each declared card
    cannot have (`forbidden`), and, for a seat that said "have", the columns one of which
    it must own, checked once the last of them is added (`closing`, by that column)."""
    mine = [c for c in d.cards if c not in k.hand]
    for s, o in seat_index.items():
        if s == d.declarer:
            if k.rules == "beginner":
                for c in mine:
                    forbidden.setdefault(c, set()).add(o)
        elif s in d.have:
            if not mine:
                raise Contradiction(f"seat {s} cannot have cards that are all in your hand")
            cols = [col[c] for c in mine]
            closing.setdefault(max(cols), []).append((o, cols))
        else:
            for c in mine:
                forbidden.setdefault(c, set()).add(o)


def _no_cards(n_own: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The one row of no card at all: owners, each owner's load by category, each owner's total."""
    return (np.zeros((1, 0), dtype=np.int8), np.zeros((1, n_own, 3), dtype=np.int8),
            np.zeros((1, n_own), dtype=np.int8))


def _capacity(k: Knowledge, others: list[int]) -> np.ndarray:
    cap = np.zeros((len(others) + 1, 3), dtype=np.int8)
    cap[0, :] = 1
    for i, s in enumerate(others):
        cap[i + 1] = k.counts[s]
    return cap


def _add_card(k: Knowledge, cap: np.ndarray, own: np.ndarray, load: np.ndarray, total: np.ndarray,
              c: str, forbidden: set[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One more column, rows grouped by its owner, then kept in their order."""
    g = CATEGORY_OF[c]
    if k.rules == "beginner":
        ok = load[:, :, g] < cap[None, :, g]
    else:
        ok = total < cap[None, :, 0]
        ok[:, 0] = load[:, 0, g] < cap[0, g]
    if forbidden:
        ok[:, sorted(forbidden)] = False
    # owner-major, then row: the order an analysis from nothing builds, in one call
    owner, idx_all = np.nonzero(ok.T)
    if not len(idx_all):
        return np.zeros((0, own.shape[1] + 1), dtype=np.int8), load[:0], total[:0]
    who = owner.astype(np.int8)
    rows = np.arange(len(idx_all))
    own = np.concatenate([own[idx_all], who[:, None]], axis=1)
    load = load[idx_all]
    load[rows, who, g] += 1
    total = total[idx_all]
    total[rows, who] += 1
    return own, load, total


def _declare(k: Knowledge, dec: _Declared, d: Declaration) -> _Declared:
    """`dec` with one more declaration: its answers filter the old columns, its new cards are added."""
    others = k.others()
    seat_index = {s: i + 1 for i, s in enumerate(others)}
    mine = [c for c in d.cards if c not in k.hand]
    cards = dec.cards + [c for c in mine if c not in dec.cards]
    col = {c: j for j, c in enumerate(cards)}
    forbidden: dict[str, set[int]] = {}
    closing: dict[int, list[tuple[int, list[int]]]] = {}
    _answers(k, seat_index, d, col, forbidden, closing)
    own, load, total = dec.own, dec.load, dec.total
    old = len(dec.cards)
    keep = np.ones(len(own), dtype=bool)
    for c in mine:
        if col[c] < old:
            for o in forbidden.get(c, ()):
                keep &= own[:, col[c]] != o
    for j in [j for j in closing if j < old]:
        for o, cols in closing[j]:
            keep &= (own[:, cols] == o).any(axis=1)
    own, load, total = own[keep], load[keep], total[keep]
    cap = _capacity(k, others)
    for j in range(old, len(cards)):
        own, load, total = _add_card(k, cap, own, load, total, cards[j], forbidden.get(cards[j], set()))
        for o, cols in closing.get(j, ()):
            keep = (own[:, cols] == o).any(axis=1)
            own, load, total = own[keep], load[keep], total[keep]
    return _Declared(dec.base, dec.history + (d,), cards, own, load, total)


def _finish(k: Knowledge, cap: np.ndarray, own: np.ndarray, load: np.ndarray, total: np.ndarray,
            cards: list[str], free_rest: list[int]) -> _Rows:
    """Each row's number of completions by the interchangeable cards; rows with none go."""
    need = 1 - load[:, 0, :].astype(np.int64)  # (n, 3) answer still needs an undeclared card
    fr = np.array(free_rest, dtype=np.int64)
    ok = (need <= fr).all(axis=1)
    weight = np.prod(np.where(need == 1, fr, 1), axis=1)
    if k.rules == "beginner":
        rem = cap[None, 1:, :].astype(np.int64) - load[:, 1:, :]
        multi = np.prod(_FACT[np.maximum(fr - need, 0)], axis=1) // np.prod(_FACT[rem], axis=(1, 2))
    else:
        rem = cap[None, 1:, 0].astype(np.int64) - total[:, 1:]
        multi = _FACT[rem.sum(axis=1)] // np.prod(_FACT[rem], axis=1)
    weight = weight * multi
    keep = ok & (weight > 0)
    return _Rows(cards, own[keep], weight[keep], (free_rest[0], free_rest[1], free_rest[2]))


def analyse(knowledge: Knowledge) -> Analysis:
    return Analysis(knowledge)
