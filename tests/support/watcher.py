"""What a watching table learns: the record a watcher keeps, and adversaries
that guess a secret from it.

A watcher sits at the table and sees every scan: whose hand reader (or the field), when,
and how many, never the piece on a hand reader (the pieces are look-alikes); the field's
pieces lie in the open.  It hears the speaker and may follow the public view.  That is
`Watched`, built from a bot game's script and log and nothing else.

Each adversary plays the watcher on many games and guesses one secret per trial (a role,
a vote, a night target, a bribe's amount, a declarer's card), and says what a blind guess
among the same candidates would get (the base rate).  A secret the table keeps gives an
accuracy whose 95 % interval holds the base rate; a leak lifts it above.  The truth comes
from the full log, which only the scorer reads.  `bench/watcher.py` runs them on 1,000
games per game; the tests run a few dozen, and a deliberately leaky variant.
"""
from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.design.confidence import Estimate, rate
from kikimimi.table.public import public_view


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


@dataclass(frozen=True)
class Trial:
    """One guess: right or not, and the chance a blind guess among the same candidates had
    (or, for a guess whose blind twin is a fixed choice, 1 or 0: whether the twin was right)."""

    hit: bool
    base: float


@dataclass
class Score:
    name: str
    secret: str
    trials: list[Trial] = field(default_factory=list)

    def add(self, trials: Iterable[Trial]) -> None:
        self.trials += list(trials)

    @property
    def accuracy(self) -> Estimate:
        return rate(sum(t.hit for t in self.trials), len(self.trials))

    @property
    def base(self) -> float:
        return sum(t.base for t in self.trials) / len(self.trials) if self.trials else float("nan")

    @property
    def holds(self) -> bool:
        """The accuracy's 95 % interval holds the base rate (or there was nothing to guess)."""
        if not self.trials:
            return True
        a = self.accuracy
        return a.low <= self.base <= a.high

    @property
    def leaks(self) -> bool:
        """The whole interval lies above the base rate: the watcher's guess beats a blind one.
        (An interval wholly below it is a guess worse than blind, which tells the watcher
        nothing: with a dozen adversaries at 95 %, one such draw in a run is chance.)"""
        return bool(self.trials) and self.accuracy.low > self.base

    def line(self) -> str:
        if not self.trials:
            return f"{self.name} ({self.secret}): no trials"
        verdict = "holds" if self.holds else "LEAKS" if self.leaks else "below the base rate (no leak)"
        return (f"{self.name} ({self.secret}): accuracy {self.accuracy.percent()} over {len(self.trials)} guesses, "
                f"base rate {self.base:.1%}: {verdict}")


Adversary = Callable[[Watched, Sequence[Mapping[str, Any]], random.Random], list[Trial]]


def _pick(rng: random.Random, seats: Sequence[int]) -> int:
    return rng.choice(sorted(seats))


def _most_scans(watched: Watched, alive: Sequence[int], start: float, end: float, rng: random.Random) -> int:
    """The living seat seen making the most hand scans from `start` to `end` (a draw among ties)."""
    counts = Counter(s.seat for s in watched.hand_scans(start, end) if s.seat in alive)
    top = max(counts.values(), default=0)
    return _pick(rng, [s for s in alive if counts.get(s, 0) == top])


def _truth(log: Sequence[Mapping[str, Any]], kind: str) -> dict[int, str]:
    """seat -> role (the `role` or `job` events: the referee's and the seat's own)."""
    return {int(e["seat"]): str(e[kind]) for e in log if e.get("type") == kind}


def _phases(watched: Watched) -> list[tuple[str, int, float, float]]:
    """(phase, day, start, end) from the public `phase` events."""
    marks = [(str(e["phase"]), int(e.get("day") or 0), float(e["t"]))
             for e in watched.public if e.get("type") == "phase"]
    end = max((s.t for s in watched.scans), default=0.0) + 1
    return [(p, d, t, marks[i + 1][2] if i + 1 < len(marks) else end) for i, (p, d, t) in enumerate(marks)]


def _alive(watched: Watched, players: int, before: float, out_type: str = "out") -> list[int]:
    gone = {int(e["seat"]) for e in watched.public if e.get("type") == out_type and float(e["t"]) <= before}
    return [s for s in range(1, players + 1) if s not in gone]


# -- 闇に笑う魔女 ------------------------------------------------------------------------
def witch_priest_by_day_scans(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each day from day 2 (the exorcism's days): the living seat with the most hand scans
    that day is the priest (in 150 ear-bot games, 3 or more scans named it in 107)."""
    roles = _truth(log, "role")
    priest = next((s for s, r in roles.items() if r == "priest"), None)
    out: list[Trial] = []
    if priest is None:
        return out
    for phase, day, start, end in _phases(watched):
        if phase != "day" or day < 2:
            continue
        alive = _alive(watched, len(roles), start)
        if priest not in alive:
            break
        out.append(Trial(_most_scans(watched, alive, start, end, rng) == priest, 1 / len(alive)))
    return out


def witch_witch_by_night_scans(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each night: a living seat that scanned more than once is a witch (a witch changing
    the team's target scans again, and laughs); else any living seat."""
    roles = _truth(log, "role")
    out: list[Trial] = []
    for phase, _day, start, end in _phases(watched):
        if phase != "night":
            continue
        alive = _alive(watched, len(roles), start)
        witches = [s for s in alive if roles.get(s) == "witch"]
        if not witches:
            continue
        guess = _most_scans(watched, alive, start, end, rng)
        out.append(Trial(roles.get(guess) == "witch", len(witches) / len(alive)))
    return out


#: The speaker's lines that open a day's vote call (the talk is over).
_VOTE_CALLS = ("vote-now", "vote-now-acts", "vote-now-all")


def _talk_end(watched: Watched, start: float, end: float) -> float:
    """When the day's talk ended: its vote call, or its first count, or the day's end."""
    marks = [float(e["t"]) for e in watched.said(*_VOTE_CALLS, "tally") if start <= float(e["t"]) <= end]
    return min(marks, default=end)


def _private_days(log: Sequence[Mapping[str, Any]], key: str) -> dict[int, set[int]]:
    """day -> the seats whose earphone heard `key` that day (the truth, for the scorer)."""
    day, out = 0, defaultdict(set)
    for e in log:
        if e.get("type") == "phase":
            day = int(e.get("day") or day)
        elif e.get("type") == "say" and e.get("key") == key and str(e.get("to", "")).startswith("seat:"):
            out[day].add(int(str(e["to"])[5:]))
    return out


def witch_silencer_by_scans(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each day some seat chose silence: guess one of them, the living seat with the most hand
    scans while the talk was on (a SILENCE scanned alone is one more than its neighbours'); the
    secret is the seed's "who chose it stays secret".  Base: the share of the living who chose."""
    roles = _truth(log, "role")
    chose = _private_days(log, "silence-noted")
    out: list[Trial] = []
    for phase, day, start, end in _phases(watched):
        if phase != "day" or not chose.get(day):
            continue
        alive = _alive(watched, len(roles), start)
        guess = _most_scans(watched, alive, start, _talk_end(watched, start, end), rng)
        out.append(Trial(guess in chose[day], len(chose[day] & set(alive)) / len(alive)))
    return out


def witch_witch_by_ballot_scans(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each day: the living seat that scanned most from the vote call to nightfall (a changed
    ballot is one more scan, a revote's ballots come after) is a witch (under the old rule the ear
    bots vote after their talk and scan again at the call only if their mind changed).  Base: the
    witches' share of the living."""
    roles = _truth(log, "role")
    out: list[Trial] = []
    for phase, _day, start, end in _phases(watched):
        if phase != "day":
            continue
        alive = _alive(watched, len(roles), start)
        witches = [s for s in alive if roles.get(s) == "witch"]
        if not witches:
            continue
        guess = _most_scans(watched, alive, _talk_end(watched, start, end), end, rng)
        out.append(Trial(roles.get(guess) == "witch", len(witches) / len(alive)))
    return out


# -- マフィア42 -----------------------------------------------------------------------------
def _votes(watched: Watched) -> list[tuple[int, float, float]]:
    return [(d, s, e) for p, d, s, e in _phases(watched) if p == "vote"]


def mafia_politician_by_tally(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each vote with the politician alive: when a reading's total exceeds the seats that
    had scanned by then, the politician is among them (a random one); else any living seat."""
    jobs = _truth(log, "job")
    politician = next((s for s, j in jobs.items() if j == "politician"), None)
    out: list[Trial] = []
    if politician is None:
        return out
    for _day, start, end in _votes(watched):
        alive = _alive(watched, len(jobs), start, "death")
        if politician not in alive:
            break
        pool = alive
        for reading in (e for e in watched.public if e.get("type") == "tally" and start <= float(e["t"]) <= end):
            scanners = {s.seat for s in watched.hand_scans(start, float(reading["t"]))}
            if sum(reading["totals"].values()) > len(scanners) and scanners:
                pool = [s for s in alive if s in scanners]
        out.append(Trial(_pick(rng, pool) == politician, 1 / len(alive)))
    return out


def _readings(watched: Watched, start: float, end: float) -> list[tuple[float, dict[int, int]]]:
    """The vote's public tally readings: (time, seat -> votes read)."""
    return [(float(e["t"]), {int(k): int(v) for k, v in e["totals"].items()}) for e in watched.public
            if e.get("type") == "tally" and start <= float(e["t"]) <= end]


def _twin(readings: Sequence[tuple[float, Mapping[int, int]]], truth: int, alive: int) -> float:
    """The blind twin's chance: it hears the vote's last reading (public by the rules) but
    never watches who scanned when, and guesses its leader for every voter (a tie: one of
    them); with no reading, any living seat."""
    if not readings or not readings[-1][1]:
        return 1 / alive
    last = readings[-1][1]
    top = max(last.values())
    leaders = [k for k, v in last.items() if v == top]
    return 1 / len(leaders) if truth in leaders else 0.0


def _rises(watched: Watched, start: float, end: float) -> Iterable[tuple[dict[int, int], set[int], list]]:
    """Per reading: what it raised since the last one, the seats that first scanned since,
    and the vote's readings."""
    readings = _readings(watched, start, end)
    before: dict[int, int] = {}
    last = start
    guessed: set[int] = set()
    for t, now in readings:
        rise = {k: v - before.get(k, 0) for k, v in now.items() if v > before.get(k, 0)}
        new = {int(s.seat) for s in watched.hand_scans(last, t) if s.seat is not None} - guessed
        guessed |= new
        yield rise, new, readings
        before, last = now, t


def mafia_vote_by_reading(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each voter first seen between two readings: its vote is the seat the next reading
    raised most (a tie: one of them).  The base is the blind twin's (`_twin`): the tally is
    public by the rules; the secret is who voted for whom, beyond it."""
    jobs = _truth(log, "job")
    ballots = _ballots(log)
    out: list[Trial] = []
    for day, start, end in _votes(watched):
        alive = _alive(watched, len(jobs), start, "death")
        for rise, new, readings in _rises(watched, start, end):
            if not rise:
                continue
            top = max(rise.values())
            for seat in sorted(new):
                truth = ballots.get((day, seat))
                if truth is None:
                    continue
                guess = _pick(rng, [k for k, v in rise.items() if v == top])
                out.append(Trial(guess == truth, _twin(readings, truth, len(alive))))
    return out


def mafia_vote_by_one_seat_rise(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each reading that raised one seat alone: every voter first seen since voted for it
    (the tell that a count over several scans still gives when they agree).  Base: the
    blind twin's."""
    jobs = _truth(log, "job")
    ballots = _ballots(log)
    out: list[Trial] = []
    for day, start, end in _votes(watched):
        alive = _alive(watched, len(jobs), start, "death")
        for rise, new, readings in _rises(watched, start, end):
            if len(rise) != 1:
                continue
            (seat_raised,) = rise
            for seat in sorted(new):
                truth = ballots.get((day, seat))
                if truth is not None:
                    out.append(Trial(seat_raised == truth, _twin(readings, truth, len(alive))))
    return out


def mafia_not_mafia_by_abstention(watched: Watched, log: Sequence[Mapping[str, Any]],
                                  rng: random.Random) -> list[Trial]:
    """Each living seat that made no hand scan through a vote: it is not on the mafia's team
    (the tell of bots that abstained only as citizens).  Base: the share of the living
    outside the mafia's team, the same guess made blind about any living seat."""
    jobs = _truth(log, "job")
    teams = {int(e["seat"]): str(e.get("team")) for e in log if e.get("type") == "job"}
    out: list[Trial] = []
    for _day, start, end in _votes(watched):
        alive = _alive(watched, len(jobs), start, "death")
        if not alive:
            continue
        voters = {s.seat for s in watched.hand_scans(start, end)}
        base = sum(teams.get(s) != "mafia" for s in alive) / len(alive)
        out += [Trial(teams.get(s) != "mafia", base) for s in alive if s not in voters]
    return out


def _ballots(log: Sequence[Mapping[str, Any]]) -> dict[tuple[int, int], int]:
    """(day, voter) -> the seat of its last ballot that day (the voter's own `voted` line)."""
    day, out = 0, {}
    for e in log:
        if e.get("type") == "phase":
            day = int(e.get("day") or day)
        elif e.get("type") == "say" and e.get("key") == "voted" and str(e.get("to", "")).startswith("seat:"):
            out[(day, int(str(e["to"])[5:]))] = int(e["params"]["seat"])
    return out


def mafia_target_by_night_timing(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each night: the mafia's target is the seat that scanned last (as if a mafia seat's
    choice came late, after the team's talk); the truth is the `mafia-aim` line the mafia
    heard.  The blind twin guesses the highest living seat, the last in seat order, known
    without watching (the bots' targets lean to some seats: 1/alive would credit the
    order, not the motions, with that)."""
    jobs = _truth(log, "job")
    aims = [(float(e["t"]), int(e["params"]["seat"])) for e in log
            if e.get("type") == "say" and e.get("key") == "mafia-aim"]
    out: list[Trial] = []
    for phase, _day, start, end in _phases(watched):
        if phase != "night":
            continue
        tonight = [seat for t, seat in aims if start <= t <= end]
        if not tonight:
            continue
        alive = _alive(watched, len(jobs), start, "death")
        scans = watched.hand_scans(start, end)
        guess = scans[-1].seat if scans else max(alive)
        out.append(Trial(guess == tonight[-1], 1.0 if max(alive) == tonight[-1] else 0.0))
    return out


# -- イントリーゲ (hidden bribes) --------------------------------------------------------------
def intrigue_bribe_trials(watched: Watched, log: Sequence[Mapping[str, Any]]) -> list[tuple[int, int]]:
    """(BRIBE taps seen, amount in steps) for each hidden offer: the taps are the bidder's
    hand scans between the call and the `offer-hidden` line."""
    calls = [(float(e["t"]), int(e["params"]["seat"])) for e in watched.said("offer-call", "offer-call-employed")]
    offers = [e for e in log if e.get("type") == "offer"]
    made = [float(e["t"]) for e in watched.said("offer-hidden")]
    step = _step(log)
    out = []
    for offer, at in zip(offers, made):
        call = max((c for c in calls if c[0] <= at and c[1] == offer["seat"]), default=None)
        if call is None:
            continue
        taps = sum(1 for s in watched.hand_scans(call[0], at) if s.seat == offer["seat"])
        out.append((taps, int(offer["amount"]) // step))
    return out


def _step(log: Sequence[Mapping[str, Any]]) -> int:
    amounts = [int(e["params"]["amount"]) for e in log if e.get("type") == "say" and e.get("key") == "offer-raised"]
    nonzero = [a for a in amounts if a > 0]
    return min(nonzero) if nonzero else 1


#: The seed every table shared before the secret seed (docs/secrets.md) (`options.get("seed", 0)`).
DEFAULT_SEED = 0


def intrigue_bribe_by_default_seed(watched: Watched, log: Sequence[Mapping[str, Any]],
                                   rng: random.Random) -> list[Trial]:
    """The game's first hidden offer: the dial's start recomputed as the game draws it
    (`games/intrigue/game.py`, `_dial_start`) assuming the default seed, from public facts
    (the moment of the input before the call, every seat's cash: the start cash and the incomes said, no
    bribe paid yet; the advisors still to be offered for that turn, called one by one),
    then the amount from the BRIBE taps.  Its blind twin does the same with a seed drawn
    at random (as the watcher would who cannot know it): 1 or 0, whether that was right."""
    start = next((e for e in watched.said("start")), None)
    offers = [e for e in log if e.get("type") == "offer"]
    made = [float(e["t"]) for e in watched.said("offer-hidden")]
    if start is None or not offers or not made:
        return []
    step = _step(log)
    top = max(1, int(start["params"]["start_cash"]) // step)
    events = watched.public
    first_at = made[0]
    calls = [e for e in events if e.get("type") == "say" and e.get("key") in ("offer-call", "offer-call-employed")]
    call = calls[0] if calls and float(calls[0]["t"]) <= first_at else None  # the game's first offer's call
    if call is None:
        return []
    t_call = float(call["t"])
    players = int(start["params"]["players"])
    cash = {s: int(start["params"]["start_cash"]) for s in range(1, players + 1)}
    for e in events:
        if e.get("type") == "income" and float(e["t"]) <= t_call:
            cash[int(e["seat"])] += int(e["amount"])
    turn_end = min((float(e["t"]) for e in events if e.get("type") == "turn" and float(e["t"]) > t_call),
                   default=float("inf"))
    bids = [str(c["params"]["advisor"]) for c in calls if t_call <= float(c["t"]) < turn_end]
    bidder = int(call["params"]["seat"])
    taps = sum(1 for s in watched.hand_scans(t_call, first_at) if s.seat == bidder) - 1  # the last is OK
    truth = int(offers[0]["amount"]) // step

    # The game's clock is the last input its `handle` took: the dispatch that ends a turn
    # is an advisor then a seat token, answered as a question, so the advisor's scan.
    now = max((s.t for s in watched.scans if s.t < t_call), default=t_call)

    def guess(seed: int) -> int:
        lot = random.Random(repr((seed, now, sorted(cash.items()), bids)))
        return (lot.randint(0, top) + max(0, taps)) % (top + 1)

    twin = guess(rng.randrange(1 << 62))
    return [Trial(guess(DEFAULT_SEED) == truth, 1.0 if twin == truth else 0.0)]


@dataclass
class TrainedGuess:
    """An adversary that learns, from games it saw whole (the first half), which amount
    goes with how many taps, and guesses that in the rest; its base rate is the most
    common amount of all, guessed blind."""

    table: dict[int, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    overall: Counter[int] = field(default_factory=Counter)

    def learn(self, pairs: Iterable[tuple[int, int]]) -> None:
        for taps, amount in pairs:
            self.table[taps][amount] += 1
            self.overall[amount] += 1

    def trials(self, pairs: Iterable[tuple[int, int]]) -> list[Trial]:
        if not self.overall:
            return []
        blind = self.overall.most_common(1)[0][0]
        base = self.overall[blind] / sum(self.overall.values())
        out = []
        for taps, amount in pairs:
            seen = self.table.get(taps)
            guess = seen.most_common(1)[0][0] if seen else blind
            out.append(Trial(guess == amount, base))
        return out


# -- 鬼探し --------------------------------------------------------------------------------
def _oni_cards(log: Sequence[Mapping[str, Any]]) -> list[str]:
    return sorted({str(e["params"]["card"]) for e in log if e.get("type") == "say" and e.get("key") == "hand-card"})


def _oni_declarations(log: Sequence[Mapping[str, Any]]) -> Iterator[tuple[float, Mapping[str, Any], set[str]]]:
    """Each declaration with the start of its turn and the declarer's hand that round
    (the truth the adversaries are scored against, read from the full log)."""
    hands: dict[int, set[str]] = defaultdict(set)
    seat = None
    began = 0.0
    for e in log:
        if e.get("type") == "round":
            hands = defaultdict(set)
        elif e.get("type") == "say" and e.get("key") == "hand-card":
            hands[int(str(e["to"])[5:])].add(str(e["params"]["card"]))
        elif e.get("type") == "turn":
            seat, began = int(e["seat"]), float(e["t"])
        elif e.get("type") == "declare" and seat is not None:
            yield began, e, hands.get(seat) or set()


def _oni_trial(rng: random.Random, cards: Sequence[str], hand: set[str], declare: Mapping[str, Any],
               suspects: Sequence[str]) -> Trial | None:
    """Guess the last suspect, else any card not declared; None when there is nothing to guess."""
    declared = {f"oni:card-{c}" for c in declare["cards"]}
    pool = [c for c in cards if c not in declared]
    if not pool or not hand:
        return None
    guess = suspects[-1] if suspects else _pick_card(rng, pool)
    return Trial(guess in hand, len(hand & set(pool)) / len(pool))


def oni_declarer_card(watched: Watched, log: Sequence[Mapping[str, Any]], rng: random.Random) -> list[Trial]:
    """Each declaration: guess one card the declarer holds.  A token lifted off the field
    during the turn (an own card taken back, or a change of mind) is guessed; else any card
    not declared (in beginner rules a declarer never declares its own)."""
    out: list[Trial] = []
    cards = _oni_cards(log)
    lifts = sorted((s.t, s.piece) for s in watched.scans if s.seat is None and s.lifted and s.piece)
    for began, e, hand in _oni_declarations(log):
        suspects = [str(p).replace("oni:token-", "oni:card-") for t, p in lifts if began <= t <= float(e["t"])]
        trial = _oni_trial(rng, cards, hand, e, suspects)
        if trial is not None:
            out.append(trial)
    return out


def oni_declarer_card_by_third_token(watched: Watched, log: Sequence[Mapping[str, Any]],
                                     rng: random.Random) -> list[Trial]:
    """Each declaration: a token that made three kinds on the field, after which the field
    moved again before the declaration was said, was not taken: guess it is the declarer's
    card (before the settle of docs/onisagashi.md a valid third token was declared on its scan, so only an
    own card left the field to move on).  Else any card not declared."""
    out: list[Trial] = []
    cards = _oni_cards(log)
    kinds = {f"oni:token-{c}": i for e in watched.public if e.get("type") == "declare"
             for i, c in enumerate(e["cards"])}  # the printed kinds, as the declarations show them
    field = [s for s in watched.scans if s.seat is None and s.piece]
    for began, e, hand in _oni_declarations(log):
        turn = [s for s in field if began <= s.t <= float(e["t"])]
        on: dict[Any, str] = {}
        suspects: list[str] = []
        for n, scan in enumerate(turn):
            piece = str(scan.piece)
            if scan.lifted:
                on = {k: v for k, v in on.items() if v != piece}
                continue
            on[kinds.get(piece, piece)] = piece
            if len(on) == 3 and n + 1 < len(turn):
                suspects.append(piece.replace("oni:token-", "oni:card-"))
        trial = _oni_trial(rng, cards, hand, e, suspects)
        if trial is not None:
            out.append(trial)
    return out


def _pick_card(rng: random.Random, pool: Sequence[str]) -> str:
    return rng.choice(sorted(pool))


#: game -> (options, [(adversary name, secret, function)]); イントリーゲ's is `TrainedGuess`.
ADVERSARIES: dict[str, tuple[dict[str, Any], list[tuple[str, str, Adversary]]]] = {
    "witch": ({}, [("priest by day scans", "a role", witch_priest_by_day_scans),
                   ("witch by night scans", "a role", witch_witch_by_night_scans),
                   ("silencer by talk scans", "who chose silence", witch_silencer_by_scans),
                   ("witch by ballot scans", "a role", witch_witch_by_ballot_scans)]),
    "mafia42": ({}, [("politician by tally", "a role", mafia_politician_by_tally),
                     ("vote by reading", "a vote", mafia_vote_by_reading),
                     ("vote by a one-seat rise", "a vote", mafia_vote_by_one_seat_rise),
                     ("mafia target by night timing", "a night target", mafia_target_by_night_timing),
                     ("a non-voter is not mafia", "a role", mafia_not_mafia_by_abstention)]),
    "onisagashi": ({}, [("declarer's card", "a declarer's card", oni_declarer_card),
                        ("declarer's card by the third token", "a declarer's card", oni_declarer_card_by_third_token)]),
}
