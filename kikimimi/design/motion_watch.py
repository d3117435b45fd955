"""A watcher for any game (`kikimimi check GAME watch`): what a learned guess makes
of the motions.

The watcher's bench (`support.watcher`) holds hand-written adversaries for the
shipped games; an outside game has none.  This one needs nothing of the game: it plays ear-bot
games (human-like seats: each hears only the speaker and its own earphone), keeps what a
watcher gets (`Watched`: whose hand reader scanned, and when, never the piece; and the public
view), and learns on half the games to guess each seat's private facts from that, then guesses
on the other half.

A seat's private facts are read from the log the way the game marks them: an event of its
own (`role`, `job`, `draw`, `advise`...) addressed to the seat (or to a team that holds it),
a line in its earphone that carries a word (`your-role` with its role), and a line in its
earphone that neither its own scan nor a piece laid in the open caused (a finding, a threat,
the team's aim).  What a seat
hears for its own HINT, and the bare acknowledgement of its own scan ("Your vote is noted"),
are left out: the motion itself shows that the seat scanned, which is no secret.

The blind twin is a short decision list (`Rules`) over public words about the seat (its
number, each public event naming it: an execution, a revealed role) and how long and how much
it took part at all (a seat out of the game stops scanning: a public fact).  The watcher's guess is the twin's, overruled
by one motion word learned on the first half (how many hand scans the seat made in each phase
and after each public line, whether it scanned first or last, how soon): `Rule`.  A kept secret gives the
guess no edge over its twin; a leak makes the guess right where its twin is wrong more often
than the reverse, beyond chance (a one-sided sign test at 5 %, shared among the facts tried:
Bonferroni), and then the part fails naming the fact.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.design.confidence import Estimate, rate
from kikimimi.contract.protocol import TABLE, audiences_of, seat_audience, visible_to
from kikimimi.table.public import public_view

# -- what a watcher has (the watcher's bench, tests/support/watcher.py, keeps the same) -------------
@dataclass(frozen=True)
class Scan:
    """One scan as a watcher sees it: the time, the reader, the seat (None: the field), and
    the piece only on the field, where it lies in the open."""

    t: float
    reader: str
    seat: int | None
    piece: str | None = None
    #: A piece lifted off the field (seen like any placing).
    lifted: bool = False


@dataclass
class Watched:
    """One game as a watcher has it."""

    scans: list[Scan]
    #: The public view: what a spectator gets (the speaker's lines among it).
    public: list[dict[str, Any]]

    @classmethod
    def of(cls, script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]) -> "Watched":
        scans = []
        for line in script[1:]:
            reader = line.get("reader")
            if reader not in ("hand", "field") or "lost" in line or "back" in line:
                continue
            if line.get("removed") and reader == "hand":
                continue  # a hand reader's lift is no scan
            seat = line.get("seat") if reader == "hand" else None
            scans.append(Scan(float(line["t"]), str(reader), seat if isinstance(seat, int) else None,
                              str(line.get("tag")) if reader == "field" else None, bool(line.get("removed"))))
        return cls(scans, public_view(log))

    def said(self, *keys: str) -> list[dict[str, Any]]:
        return [e for e in self.public if e.get("type") == "say" and e.get("key") in keys]

    @property
    def placed(self) -> list[Scan]:
        """Scans that put a piece down (not lifts)."""
        return [s for s in self.scans if not s.lifted]

    def hand_scans(self, start: float, end: float) -> list[Scan]:
        """Hand scans in (start, end]."""
        return [s for s in self.scans if s.seat is not None and start < s.t <= end]


#: Games played (half to learn on, half to guess in): cheap enough for `kikimimi check`.
GAMES = 80
#: The chance a kept secret is called a leak, shared among all the facts tried in one game.
ALPHA = 0.05
#: A fact is tried when its commonest value covers at most this share of seat-games.
MAX_MAJORITY = 0.97
#: And its other values at least this many seat-games in the half learned on.
MIN_MINORITY = 6

Game = tuple[Sequence[Mapping[str, Any]], Sequence[Mapping[str, Any]]]  # (script, log)


# -- what is guessed ---------------------------------------------------------------------------
def _strings(fields: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(f"{k}={v}" for k, v in sorted(fields.items()) if isinstance(v, str))


_META = frozenset({"t", "seq", "in", "type", "private", "text", "to", "key", "params"})


def private_facts(script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]],
                  players: int) -> dict[int, dict[str, str]]:
    """seat -> fact name -> value: the first value each fact took for the seat in this game
    (facts a seat never met are "none"; a fact with no words, "yes")."""
    met: dict[int, dict[str, str]] = defaultdict(dict)
    for ev in log:
        if visible_to(ev, None) or ev.get("type") == "error":
            continue
        n = ev.get("in")
        line = script[n - 1] if isinstance(n, int) and 1 <= n - 1 < len(script) else {}
        if line.get("tag") == "cmd:hint":
            continue  # a HINT's answer repeats what the seat may know; it asked
        says = ev.get("type") == "say"
        audience = [ev.get("to")] if says else audiences_of(ev.get("private", TABLE))
        seats = [s for s in range(1, players + 1) if seat_audience(s) in audience]
        if not seats:
            continue
        words = _strings(ev.get("params") or {}) if says else _strings(
            {k: v for k, v in ev.items() if k not in _META})
        name = f"say:{ev.get('key')}" if says else str(ev.get("type"))
        for seat in seats:
            own = line.get("reader") == "field" or (line.get("reader") == "hand" and line.get("seat") == seat)
            if says and own and not words:
                continue  # its own scan (or a piece laid in the open) acknowledged: seen already
            met[seat].setdefault(name, "|".join(words) or "yes")
    return met


# -- what is seen ------------------------------------------------------------------------------
def _bucket(n: float, edges: Sequence[float]) -> int:
    return sum(1 for e in edges if n >= e)


def _atleast(name: str, n: float, edges: Sequence[float]) -> set[str]:
    """A count as words "name>=edge" for each edge it reaches (and "name>=0"): a rule can say
    "at least twice", which an exact count splits over words that each hold too few seats."""
    return {f"{name}>={e:g}" for e in (0, *edges) if n >= e}


def _seat_named(ev: Mapping[str, Any], seat: int) -> bool:
    for where in (ev, ev.get("params") or {}):
        if where.get("seat") == seat or where.get("target") == seat:
            return True
        seats = where.get("seats")
        if isinstance(seats, list) and seat in seats:
            return True
    return False


def public_words(watched: Watched, seat: int) -> set[str]:
    """What the public view says about the seat: its number, each kind of public event naming
    it and each said in the same answer (a penalty, then "still seat 2's turn": the penalty was
    out of turn), whether it was named on its own turn or off it (the last public `turn`
    event's seat), with how often (the blind twin knows this much)."""
    named: Counter[str] = Counter()
    answers: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    turn = None  # the seat of the last public `turn` event: named off its turn is a public fact
    for ev in watched.public:
        if ev.get("type") == "turn" and isinstance(ev.get("seat"), int):
            turn = ev["seat"]
        if _seat_named(ev, seat):
            key = ev.get('key') or ev.get('type')
            named[f"pub:{key}"] += 1
            if turn is not None:
                named[f"pub:{key}@{'turn' if turn == seat else 'off-turn'}"] += 1
        if ev.get("in") is not None:
            answers[ev["in"]].append(ev)
    for batch in answers.values():  # what the table said in the same answer as it named the seat
        if any(_seat_named(ev, seat) for ev in batch):
            named.update(f"with:{ev.get('key') or ev.get('type')}" for ev in batch)
    return {f"seat={seat}"}.union(*(_atleast(k, n, (1, 2, 4)) for k, n in named.items()))


def motion_words(watched: Watched, seat: int) -> set[str]:
    """What the seat's hand scans show: counts per phase and after each public line, first
    or last to scan after a line, and how soon it scanned."""
    marks = [(float(e["t"]), str(e.get("key") or e.get("type")), e.get("type") == "phase",
              str(e.get("phase", ""))) for e in watched.public if e.get("t") is not None]
    scans = [s for s in watched.scans if s.seat is not None and not s.lifted]
    per_phase: Counter[str] = Counter()
    per_line: Counter[str] = Counter()
    first: Counter[str] = Counter()
    last: Counter[str] = Counter()
    delays: dict[str, list[float]] = defaultdict(list)
    i, phase, after, since = 0, "-", "-", 0.0
    segment: list[int] = []

    def close() -> None:
        if segment:
            if segment[0] == seat:
                first[after] += 1
            if segment[-1] == seat:
                last[after] += 1

    for scan in scans:
        while i < len(marks) and marks[i][0] < scan.t:
            close()
            segment = []
            t, key, is_phase, name = marks[i]
            phase = name if is_phase else phase
            after, since = key, t
            i += 1
        segment.append(int(scan.seat or 0))
        if scan.seat == seat:
            per_phase[phase] += 1
            per_line[after] += 1
            delays[after].append(scan.t - since)
    close()
    words: set[str] = set()
    for prefix, counts, edges in (("ph", per_phase, (1, 2, 3, 5, 8)), ("ln", per_line, (1, 2, 3, 5)),
                                  ("first", first, (1, 2, 4)), ("last", last, (1, 2, 4))):
        for k, n in counts.items():
            words |= _atleast(f"{prefix}:{k}", n, edges)
    for k, d in delays.items():  # the median wait after the line, at least / under each edge
        median = sorted(d)[len(d) // 2]
        words |= {f"soon:{k}{'>=' if median >= e else '<'}{e:g}" for e in (0.5, 1, 2, 4, 8)}
    return words


def presence_words(watched: Watched, seat: int, end: float) -> set[str]:
    """How long the seat took part and how much, coarsely: what a seat out of the game (a
    public fact) does to its motions, which the twin must know too, or a watcher's guess
    "a seat that stopped scanning never heard the witches' choice" would pass for a leak."""
    mine = [s.t for s in watched.scans if s.seat == seat and not s.lifted]
    span = int(10 * max(mine) / end) if mine else -1
    return {f"span>={n}" for n in range(-1, span + 1)} | _atleast("scans", len(mine), (1, 2, 3, 5, 8, 13, 21, 34, 55))


@dataclass
class Seen:
    """One seat of one game: the twin's words, the watcher's (the twin's and the motions'),
    and the facts to guess."""

    public: set[str]
    motions: set[str]
    facts: dict[str, str]


def seen(script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]], players: int) -> list[Seen]:
    watched = Watched.of(script, log)
    facts = private_facts(script, log, players)
    out = []
    end = max([s.t for s in watched.scans] + [float(e.get("t") or 0) for e in watched.public] + [1.0])
    for seat in range(1, players + 1):
        pub = public_words(watched, seat) | presence_words(watched, seat, end)
        out.append(Seen(pub, pub | motion_words(watched, seat), facts.get(seat, {})))
    return out


# -- the guess ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    """The watcher's guess: its twin's, except where one motion word is present (or absent),
    then one value: the word and value that gained most over the twin in the games learned on.
    One word, chosen on half the games and tried on the other: a learned guess that cannot
    overfit the way a guess over every word does."""

    word: str
    present: bool
    value: str

    def applies(self, words: set[str]) -> bool:
        return (self.word in words) == self.present


def learn_rule(samples: Sequence[tuple[set[str], str, str]]) -> Rule | None:
    """(words, the truth, the guess so far) per seat: the rule that gains most over the guess
    so far (None when none gains)."""
    gains: Counter[tuple[str, bool, str]] = Counter()
    everywhere: Counter[str] = Counter()  # what a value guessed of every seat gains
    vocabulary = {w for words, _, _ in samples for w in words}
    values = sorted({truth for _, truth, _ in samples})
    for words, truth, before in samples:
        for value in values:
            gain = (truth == value) - (before == truth)
            everywhere[value] += gain
            for w in words:
                gains[(w, True, value)] += gain
    for w in vocabulary:  # absent: every seat's gain less the seats where the word is present
        for value in values:
            gains[(w, False, value)] = everywhere[value] - gains[(w, True, value)]
    if not gains:
        return None
    (word, present, value), gain = max(gains.items(), key=lambda kv: (kv[1], kv[0]))
    return Rule(word, present, value) if gain > 0 else None


@dataclass
class Rules:
    """A decision list: the first rule that applies gives the value, else the default."""

    default: str
    rules: list[Rule] = field(default_factory=list)

    def guess(self, words: set[str]) -> str:
        return next((r.value for r in self.rules if r.applies(words)), self.default)

    @classmethod
    def learn(cls, samples: Sequence[tuple[set[str], str]], length: int) -> "Rules":
        """Greedy: each rule, the one that gains most over the list so far, goes first (a
        narrow exception learned after a broad rule overrules it)."""
        out = cls(Counter(truth for _, truth in samples).most_common(1)[0][0])
        for _ in range(length):
            rule = learn_rule([(w, t, out.guess(w)) for w, t in samples])
            if rule is None:
                break
            out.rules.insert(0, rule)
        return out


#: Rules of the blind twin (the public words): enough for "a seat out of the game since the
#: second day heard nothing after it", the public facts the motions echo.
TWIN_RULES = 4


@dataclass
class FactScore:
    """One fact's guesses in the half not learned on."""

    fact: str
    hits: int = 0
    twin_hits: int = 0
    trials: int = 0
    better: int = 0  # the guess right where the twin was wrong
    worse: int = 0
    rule: Rule | None = None

    @property
    def accuracy(self) -> Estimate:
        return rate(self.hits, self.trials)

    @property
    def base(self) -> float:
        return self.twin_hits / self.trials if self.trials else math.nan

    def p_value(self) -> float:
        """One-sided sign test: the chance of this many wins or more among the disagreements,
        were the motions worth nothing."""
        n, k = self.better + self.worse, self.better
        return sum(math.comb(n, j) for j in range(k, n + 1)) / 2 ** n if n else 1.0

    def line(self) -> str:
        return (f"{self.fact}: accuracy {self.accuracy.percent()} over {self.trials} seats, "
                f"base rate {self.base:.1%} (its twin, public words only); "
                f"{self.better} right where the twin was wrong, {self.worse} the reverse"
                + (f"; learned: {'with' if self.rule.present else 'without'} {self.rule.word} -> {self.rule.value}"
                   if self.rule else ""))


@dataclass
class Report:
    scores: list[FactScore]
    alpha: float

    @property
    def leaks(self) -> list[FactScore]:
        limit = self.alpha / max(1, len(self.scores))
        return [s for s in self.scores if s.p_value() < limit]


def judge(games: Sequence[list[Seen]], alpha: float = ALPHA) -> Report:
    """Learn on the first half of the games, guess in the second, fact by fact."""
    half = len(games) // 2
    learn = [s for g in games[:half] for s in g]
    test = [s for g in games[half:] for s in g]
    names = sorted({k for s in learn for k in s.facts})
    scores = []
    partitions: set[tuple[int, ...]] = set()
    for name in names:
        values = Counter(s.facts.get(name, "none") for s in learn)
        ids: dict[str, int] = {}
        partition = tuple(ids.setdefault(s.facts.get(name, "none"), len(ids)) for s in learn + test)
        if partition in partitions:
            continue  # the same fact under another name (an event and its line): tried once
        partitions.add(partition)
        top = values.most_common(1)[0][1]
        if len(values) < 2 or top > MAX_MAJORITY * len(learn) or len(learn) - top < MIN_MINORITY:
            continue
        twin = Rules.learn([(s.public, s.facts.get(name, "none")) for s in learn], TWIN_RULES)
        rule = learn_rule([(s.motions - s.public, s.facts.get(name, "none"), twin.guess(s.public)) for s in learn])
        score = FactScore(name, rule=rule)
        for s in test:
            truth = s.facts.get(name, "none")
            blind = twin.guess(s.public)
            guess = rule.value if rule is not None and rule.applies(s.motions) else blind
            hit, twin_hit = guess == truth, blind == truth
            score.trials += 1
            score.hits += hit
            score.twin_hits += twin_hit
            score.better += hit and not twin_hit
            score.worse += twin_hit and not hit
        scores.append(score)
    return Report(scores, alpha)


def watch(game: str, players: int, bot: str | None, games: int = GAMES, first_seed: int = 1,
          play: Callable[..., Game] | None = None) -> Report:
    """Play `games` bot games of `game` and judge what a watcher learns from them."""
    if play is None:
        from kikimimi.design.sim import play as sim_play
        play = sim_play
    played = []
    for seed in range(first_seed, first_seed + games):
        script, log = play(game, seed, players, {}, bot)
        played.append(seen(script, log, players))
    return judge(played)

