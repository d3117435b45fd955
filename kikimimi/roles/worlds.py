"""The possible role assignments one seat cannot tell apart, weighed by what was claimed.

A hidden-role bot that reasons asks: given my role and partners, the deck,
the facts announced in public and the results I hold privately, which deals
could this be, and how likely is each once I weigh the claims?  A seat whose
claims are false in a world is lying in that world; a lie is likely only
from a team that gains by it (`Rules.lie`: a weight per team), so a world
where an islander lies about its findings counts for little.

Only facts passed in `Knowledge` are used: a bot builds it from what its
seat heard, nothing else (tests/witch/test_reasoning.py holds 闇に笑う魔女's bots to that).

Size: roles that nothing distinguishes (same team, same reading, never
claimed, in no exclusion) are merged into one class, which is exact (they
are symmetric under every constraint).  When the distinct class assignments
of the unknown seats number at most `EXACT_LIMIT`, every one is enumerated;
above it, `SAMPLES` assignments are drawn with a seeded generator (rejection
against the hard facts, at most `MAX_DRAWS` tries), so an answer replays
from its seed.  At 8 players of 闇に笑う魔女 an islander's view is exact;
at 10 or more, and at マフィア42's 12 seats, it is sampled.
"""
from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from operator import mul

from .claims import Claim, ClaimBoard

#: Distinct class assignments enumerated exactly; more than this are sampled.
EXACT_LIMIT = 1500
#: Worlds drawn when sampling.
SAMPLES = 200
#: Draws tried when sampling before giving up on the hard facts (then fewer worlds answer).
MAX_DRAWS = 20 * SAMPLES


@dataclass(frozen=True)
class Rules:
    """A game's role facts and how its players claim.  `reading[ability][role]` is what
    a finding made with `ability` shows for a seat of `role` (absent: that role's name);
    `lie[team]` the weight of a world in which a seat of that team says a false claim
    (1 = as likely as the truth; a team with several members that rarely all lie
    wants well under 1), times `lie_as[role]` for a false claim of that role (how
    often a liar picks it; absent: 1); `silent[role]` the weight of a world in which a living holder of
    that role has claimed nothing (the real seer who always speaks up: well under 1).

    `leaves[ability]`: roles that leave the island when that ability finds them (闇に笑う魔女's
    imp, mirrored): a finding on a seat still alive is false in a world where it holds one.
    `guided`: sample (above `EXACT_LIMIT`) by importance rather than uniformly (see
    `Worlds._guided`); off, the uniform draw of old.  `guided_findings`: the guided draw
    also deals a claimant's findings as it claimed them once it has dealt that claimant its
    claimed role (many findings otherwise leave few drawn worlds where they all hold)."""

    teams: Mapping[str, str]
    reading: Mapping[str, Mapping[str, str]]
    lie: Mapping[str, float]
    silent: Mapping[str, float] = field(default_factory=dict)
    lie_as: Mapping[str, float] = field(default_factory=dict)
    leaves: Mapping[str, frozenset[str]] = field(default_factory=dict)
    guided: bool = False
    guided_findings: bool = False

    def reads(self, ability: str, role: str) -> str:
        return self.reading.get(ability, {}).get(role, role)


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows for certain.  `known`: seats whose role it knows (its
    own, its partners, any role revealed in public); `excluded`: roles a seat
    cannot hold (a witch's non-partners are no witches; a seat banished at night
    was none); `findings`: target -> result it holds privately (read with its own role);
    `alive`: the seats on the island, as announced (None: everyone)."""

    seat: int
    deck: tuple[str, ...]
    known: Mapping[int, str]
    excluded: Mapping[int, frozenset[str]] = field(default_factory=dict)
    findings: Mapping[int, str] = field(default_factory=dict)
    alive: frozenset[int] | None = None

    @property
    def seats(self) -> int:
        return len(self.deck)


class Worlds:
    """The weighed worlds of one seat's knowledge and a claim board."""

    def __init__(self, rules: Rules, know: Knowledge, board: ClaimBoard | None = None,
                 rng: random.Random | None = None):
        self.rules, self.know = rules, know
        stands = dict(board.stands()) if board else {}
        stands.pop(know.seat, None)  # a seat knows its own claims for what they are
        self.stands = {s: st for s, st in stands.items() if 1 <= s <= know.seats}
        self.liars_always = board.liars() if board else frozenset()
        own = know.known.get(know.seat)
        if own is None:
            raise ValueError("a seat's knowledge holds its own role")
        self.own = own
        keep = {r for r, _ in self.stands.values()}
        keep |= {r for rs in know.excluded.values() for r in rs}
        keep |= {r for r, w in rules.silent.items() if w != 1}
        keep |= {r for rs in rules.leaves.values() for r in rs}
        alive = know.alive if know.alive is not None else range(1, know.seats + 1)
        self.quiet = [s for s in alive if s not in self.stands and s != know.seat]
        self.cls = self._classes(keep)
        pool = Counter(self.cls[r] for r in know.deck)
        rest = Counter(know.deck)
        for seat, role in know.known.items():
            if role not in rest or rest[role] <= 0 or not 1 <= seat <= know.seats:
                raise ValueError(f"seat {seat} cannot hold {role!r}: the deck does not have it")
            rest[role] -= 1
            pool[self.cls[role]] -= 1
        self.rest = +rest  # copies of each role left for the unknown seats
        self.pool = +pool
        self.unknown = [s for s in range(1, know.seats + 1) if s not in know.known]
        self.worlds: list[tuple[tuple[str, ...], float]] = []
        self.lies: list[frozenset[int]] = []  # per world, the claimants lying in it
        size = _multinomial(len(self.unknown), self.pool.values())
        self.exact = size <= EXACT_LIMIT
        self.size = size
        self._base = [""] * (know.seats + 1)  # index = seat
        for seat, role in know.known.items():
            self._base[seat] = self.cls[role]
        self._excluded = [(s, r) for s, r in know.excluded.items() if 1 <= s <= know.seats]
        self._findings = [(t, r) for t, r in know.findings.items() if 1 <= t <= know.seats]
        self._alive = frozenset(alive)
        self._fill(rng or random.Random(0))
        self.total = sum(w for _, w in self.worlds)

    # -- building ------------------------------------------------------------------
    def _classes(self, keep: set[str]) -> dict[str, str]:
        """Role -> its class name: the role itself when anything tells it apart, else the
        first role of the deck with the same team and readings."""
        out: dict[str, str] = {}
        first: dict[tuple[str, ...], str] = {}
        abilities = sorted(self.rules.reading)
        for role in dict.fromkeys(self.know.deck):
            if role in keep:
                out[role] = role
                continue
            key = (self.rules.teams.get(role, role), *(self.rules.reads(a, role) for a in abilities))
            out[role] = first.setdefault(key, role)
        return out

    def _fill(self, rng: random.Random) -> None:
        if self.exact:
            for world in _arrangements(self.pool, len(self.unknown)):
                self._add(world)
            return
        if self.rules.guided:
            self._guided(rng)
            return
        bag = [c for c, n in sorted(self.pool.items()) for _ in range(n)]
        draws = 0
        while len(self.worlds) < SAMPLES and draws < MAX_DRAWS:
            draws += 1
            rng.shuffle(bag)
            self._add(tuple(bag))

    def _guided(self, rng: random.Random) -> None:
        """Importance sampling: the unknown seats are dealt one by one, claimants first, each
        class drawn in proportion to its copies left times what the world's weight will make
        of it there (a claimant on its claimed role 1, on another its lie weight; a quiet seat
        its silence weight; 0 where a hard fact forbids it), and each world keeps its weight
        times (uniform draw / this draw).  The same estimate as a uniform draw, but the worlds
        that carry the weight are the ones drawn: with three claimants a uniform draw of 200
        leaves about six worlds that count.  With `Rules.guided_findings` a seat a claimant
        dealt earlier (on its claimed role; the claimants with most findings are dealt first)
        found is dealt to read as found, any other class at that claimant's lie weight: at 15 seats a priest's and a mirror-user's dozen
        findings otherwise leave about twenty worlds that count."""
        classes = sorted(self.pool)
        unknown = set(self.unknown)
        claimants = [s for s in sorted(self.stands) if s in unknown]
        if self.rules.guided_findings:  # the finders before the found: most findings first
            claimants.sort(key=lambda s: -len(self.stands[s][1]))
        order = claimants + [s for s in self.unknown if s not in self.stands]
        index = {seat: i for i, seat in enumerate(self.unknown)}
        plan = [(index[seat], [self._guide(seat, c) for c in classes], self._found_by(seat, order, index, classes))
                for seat in order]
        counts = [self.pool[c] for c in classes]
        last, size, rand = len(classes) - 1, len(self.unknown), rng.random
        draws = 0
        while len(self.worlds) < SAMPLES and draws < MAX_DRAWS:
            draws += 1
            left = counts[:]
            world = [""] * size
            ratio, n = 1.0, size
            for pos, factors, found in plan:
                for by, cls, scale in found:
                    if world[by] == cls:  # dealt its claimed role: its finding here holds, likely
                        factors = list(map(mul, factors, scale))
                cum = list(accumulate(map(mul, left, factors)))
                total = cum[-1]
                if total <= 0:
                    break
                i = min(bisect_right(cum, rand() * total), last)
                while not left[i] * factors[i]:  # a float's edge: never a forbidden class
                    i -= 1
                ratio *= total / (n * factors[i])  # (left/n) / (left * factor / total)
                world[pos] = classes[i]
                left[i] -= 1
                n -= 1
            else:
                self._add(tuple(world), ratio)

    def _found_by(self, seat: int, order: Sequence[int], index: Mapping[int, int],
                  classes: Sequence[str]) -> list[tuple[int, str, list[float]]]:
        """The claims on `seat` by claimants dealt before it (`Rules.guided_findings`): per
        claimant its place in the world, its claimed class, and per class how much more
        likely the draw makes it there (1 where the finding reads true, else the claimant's
        lie weight as that role, at least 0.01 so that no world the weight keeps is never drawn)."""
        if not self.rules.guided_findings:
            return []
        before = order[:order.index(seat)]
        out = []
        for by in before:
            if by not in self.stands or by in self.liars_always:
                continue
            role, findings = self.stands[by]
            result = findings.get(seat)
            cls = self.cls.get(role)
            if result is None or cls is None:
                continue
            lie = max(0.01, self.rules.lie.get(self.rules.teams.get(cls, ""), 0.0) * self.rules.lie_as.get(role, 1.0))
            out.append((index[by], cls, [1.0 if self._reads_alive(role, c, seat, result) else lie for c in classes]))
        return out

    def _guide(self, seat: int, cls: str) -> float:
        """How much a world's weight is expected to make of `cls` at `seat` (0: never)."""
        if cls in self.know.excluded.get(seat, ()):
            return 0.0
        for target, result in self._findings:
            if target == seat and not self._reads_alive(self.own, cls, seat, result):
                return 0.0
        if seat in self.stands:
            claimed = self.stands[seat][0]
            if cls == self.cls.get(claimed) and seat not in self.liars_always:
                return 1.0
            return self.rules.lie.get(self.rules.teams.get(cls, ""), 0.0) * self.rules.lie_as.get(claimed, 1.0)
        if seat in self.quiet:
            return self.rules.silent.get(cls, 1.0)
        return 1.0

    def _reads_alive(self, ability: str, cls: str, target: int, result: str) -> bool:
        """Whether a finding made with `ability` on `target` of class `cls` reads `result`
        (a role that leaves when found reads nothing on a seat still alive)."""
        if cls in self.rules.leaves.get(ability, ()) and target in self._alive:
            return False
        return self.rules.reads(ability, cls) == result

    def _add(self, world: tuple[str, ...], scale: float = 1.0) -> None:
        assign = self._base[:]
        for seat, cls in zip(self.unknown, world):
            assign[seat] = cls
        for seat, roles in self._excluded:
            if assign[seat] in roles:
                return
        for target, result in self._findings:
            if not self._reads_alive(self.own, assign[target], target, result):
                return
        weight = scale
        lying = frozenset(seat for seat in self.stands if not self._true(seat, assign))
        for seat in lying:
            weight *= self.rules.lie.get(self.rules.teams.get(assign[seat], ""), 0.0)
            weight *= self.rules.lie_as.get(self.stands[seat][0], 1.0)
        silent = self.rules.silent
        if silent:
            for seat in self.quiet:
                weight *= silent.get(assign[seat], 1.0)
        if weight > 0:
            self.worlds.append((tuple(assign[1:]), weight))
            self.lies.append(lying)

    def _true(self, seat: int, assign: Sequence[str]) -> bool:
        """Whether the seat's claims hold in `assign` (index = seat)."""
        if seat in self.liars_always:
            return False
        role, findings = self.stands[seat]
        if assign[seat] != role:
            return False
        return all(self._reads_alive(role, assign[t], t, r) for t, r in findings.items() if 0 < t < len(assign))

    # -- answers -------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        """No world fits the facts (contradictory knowledge, or a sample found none)."""
        return self.total <= 0

    def p_team(self, seat: int, team: str) -> float:
        """P(seat is on `team`)."""
        if self.empty:
            return math.nan
        i = seat - 1
        teams = self.rules.teams
        return sum(w for world, w in self.worlds if teams.get(world[i]) == team) / self.total

    def teams(self, team: str) -> dict[int, float]:
        """P(on `team`) for every seat at once (one pass over the worlds)."""
        teams = self.rules.teams
        return self._marginal(lambda cls: teams.get(cls) == team)

    def roles(self, role: str) -> dict[int, float]:
        """P(holds `role`) for every seat at once."""
        cls = self.cls.get(role)
        out = self._marginal(lambda c: c == cls)
        share = sum(n for r, n in self.rest.items() if self.cls[r] == cls)
        known = self.know.known
        return {s: (1.0 if known[s] == role else 0.0) if s in known
                else p * self.rest[role] / share if share else 0.0 for s, p in out.items()}

    def _marginal(self, hit: Callable[[str], bool]) -> dict[int, float]:
        out = dict.fromkeys(range(1, self.know.seats + 1), 0.0)
        if self.empty:
            return {s: math.nan for s in out}
        hits = {c: hit(c) for c in set(self.cls.values())}
        for world, w in self.worlds:
            for i, cls in enumerate(world):
                if hits[cls]:
                    out[i + 1] += w
        return {s: p / self.total for s, p in out.items()}

    def p_role(self, seat: int, role: str) -> float:
        """P(seat holds `role`); a merged role shares its class's chance by the copies left."""
        if self.empty:
            return math.nan
        if seat in self.know.known:
            return 1.0 if self.know.known[seat] == role else 0.0
        cls = self.cls.get(role)
        if cls is None:
            return 0.0
        in_class = sum(w for world, w in self.worlds if world[seat - 1] == cls) / self.total
        share = sum(n for r, n in self.rest.items() if self.cls[r] == cls)
        return in_class * self.rest[role] / share if share else 0.0

    def p_lying(self, seat: int) -> float:
        """P(this claimant's claims are false); 0 for a seat that claimed nothing."""
        if seat not in self.stands or self.empty:
            return 0.0
        return sum(w for (_, w), lying in zip(self.worlds, self.lies) if seat in lying) / self.total

    def most_likely_liar(self) -> int | None:
        """The claimant most likely lying (the lowest seat on a tie), or None without claims."""
        if not self.stands:
            return None
        return max(sorted(self.stands), key=self.p_lying)

    def p_true(self, claim: Claim, by: int) -> float:
        """P(a CO or FOUND claim by seat `by` is true) in these worlds."""
        if self.empty:
            return math.nan
        hits = 0.0
        for world, w in self.worlds:
            m = self._as_map(world)
            if claim.kind == "CO":
                hits += w if m[by] == self.cls.get(claim.role or "", claim.role) else 0.0
            elif claim.kind == "FOUND" and claim.target is not None and claim.role is not None:
                hits += w if self.rules.reads(claim.role, m[claim.target]) == claim.result else 0.0
            else:
                raise ValueError(f"{claim.kind} is an opinion, not a fact to weigh")
        return hits / self.total

    def _as_map(self, world: Sequence[str]) -> dict[int, str]:
        return {i + 1: c for i, c in enumerate(world)}


def _multinomial(n: int, counts: Iterable[int]) -> int:
    out = math.factorial(n)
    for c in counts:
        out //= math.factorial(c)
    return out


def _arrangements(pool: Counter[str], n: int) -> list[tuple[str, ...]]:
    """Every distinct arrangement of the multiset `pool` (of size n) in order."""
    out: list[tuple[str, ...]] = []
    keys = sorted(pool)
    left = dict(pool)
    cur: list[str] = []

    def walk() -> None:
        if len(cur) == n:
            out.append(tuple(cur))
            return
        for k in keys:
            if left[k]:
                left[k] -= 1
                cur.append(k)
                walk()
                cur.pop()
                left[k] += 1

    walk()
    return out
