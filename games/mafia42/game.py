"""マフィア42 at the table (shared/rules/mafia42.md): deal by scanning, then
night, morning, discussion, vote, last defence and approval on real timers,
until the win arithmetic (`power`) names a side.

Cover: at night every living player scans a seat token, and every scan is
acknowledged the same way in the scanner's own earphone, so the sound of the
table gives no job away.  The madam and the thief act through their vote.
Team chats that cannot be private at a table become the team's joint act
(the mafia hear their common target); the console's `chat` keeps them.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kikimimi.protocol import REFEREE, TABLE, Event, Game, Input, cancel_timer, error, event, say, seat_audience, set_timer

from . import night
from .jobs import Catalogue, Job, default_catalogue
from .options import parse_options
from .power import Decision, Fired, Seat, as_event, decide, side_of, sides

JOB_PREFIX = "mafia42:job-"
PHASES = ("dealing", "night", "morning", "discussion", "vote", "defence", "approval", "over")
CHAT_LIMIT = 200


def job_tags(catalogue: Catalogue | None = None) -> frozenset[str]:
    catalogue = catalogue or default_catalogue()
    return frozenset(f"{JOB_PREFIX}{name}-{n}" for name, job in catalogue.jobs.items()
                     for n in range(1, max(job.count, 1) + 1))


def parse_job_tag(tag: str) -> tuple[str, int] | None:
    if not tag.startswith(JOB_PREFIX):
        return None
    name, _, n = tag[len(JOB_PREFIX):].rpartition("-")
    return (name, int(n)) if n.isdigit() and name else None


@dataclass
class Player:
    """A seat: what the arithmetic needs (`s`) and what the abilities need."""

    s: Seat
    card: str = ""
    original: str = ""
    used: dict[str, int] = field(default_factory=dict)
    frog_until: int = 0  # cursed: no ability through day N
    seduced_until: int = 0  # seduced: no ability through night N
    borrowed: str = ""  # the thief's ability for the coming night
    mark: int = 0  # the beastman's mark, the magician's target
    rested: bool = False  # the medium laid them to rest
    revive_on: int = 0  # the scientist wakes at the end of night N
    sun: bool = False  # society: sun (else moon)
    found_moon: bool = False
    client: int = 0  # the mercenary's client
    knows: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # hint phrases


class Mafia42Game(Game):
    name: ClassVar[str] = "mafia42"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 12
    official_players: ClassVar[int] = 8
    tag_sets: ClassVar[tuple[str, ...]] = ("mafia42",)

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.opts = parse_options(players, self.options)
        self.mode: str = self.opts["mode"]
        self.catalogue: Catalogue = self.opts["catalogue"]
        self.deck: list[str] = list(self.opts["jobs"])
        self.p: dict[int, Player] = {}
        self.phase = "dealing"
        self.day = 0
        self.deadline = 0.0
        self.choices: dict[int, int] = {}  # night targets or day votes
        self.order: list[int] = []  # who chose, in order (the mafia's latest choice counts)
        self.spy_looks: dict[int, int] = {}
        self.yes: set[int] = set()
        self.no: set[int] = set()
        self.accused: int | None = None
        self.timed: set[int] = set()  # extended or shortened today
        self.hushed = False
        self.announce: list[Event] = []
        self.fired = Fired()
        self.result: Decision | None = None
        self.decided_by: list[str] = []
        self.causes: list[str] = []  # jobs whose acts changed the board since the last check
        self._power: dict[str, Any] | None = None
        self._over = False

    # -- protocol ---------------------------------------------------------------
    @classmethod
    def known_tags(cls, players: int) -> frozenset[str]:
        return job_tags()

    @property
    def over(self) -> bool:
        return self._over

    @classmethod
    def referee_commands(cls) -> list[tuple[str, str]]:
        return [
            ("act SEAT TARGET", "seat SEAT scans seat:TARGET (night act or vote)"),
            ("yes SEAT / no SEAT", "an approval ballot"),
            ("extend SEAT / shorten SEAT", "move the discussion's end by 15 s (once a day each)"),
            ("hint SEAT", "what SEAT may know, in its earphone"),
            ("chat SEAT TEXT", "console play: a line to whoever may hear SEAT now"),
            ("next", "end the current phase now"),
            ("stop", "end the game with no winner"),
        ]

    def start(self, t: float) -> list[Event]:
        return [event("phase", phase="dealing", day=0), say(TABLE, "deal", players=self.players,
                                                               mode=self.mode)]

    def handle(self, inp: Input) -> list[Event]:
        if self._over:
            return [error("the game is over")]
        if inp.timer is not None:
            out = self._timer(inp.timer, inp.t)
        elif inp.console is not None:
            out = self._console(inp.console, inp.t)
        elif inp.removed or inp.tag is None:
            return []
        elif inp.reader != "hand" or inp.seat is None:
            out = self._refuse(None, "hand-only", "マフィア42 reads tags on the hand readers only")
        else:
            out = self._scan(inp.seat, inp.tag, inp.t)
        power = self._power_event()
        ends = [i for i, ev in enumerate(out) if ev.type == "game-over"]
        at = ends[0] if ends else len(out)
        return out[:at] + power + out[at:]

    def snapshot(self) -> dict[str, Any]:
        return {"phase": self.phase, "day": self.day, "deadline": self.deadline, "mode": self.mode,
                "catalogue": self.catalogue.version, "choices": dict(self.choices),
                "accused": self.accused,
                "seats": {n: {"job": p.s.job, "team": p.s.team, "alive": p.s.alive, "contacted": p.s.contacted,
                              "converted": p.s.converted, "revealed": p.s.revealed, "threatened": p.s.threatened}
                          for n, p in self.p.items()}}

    # -- hooks --------------------------------------------------------------------
    @classmethod
    def simulation(cls, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None):
        from .bots import Mafia42Simulation

        return Mafia42Simulation(seed, players, options, bot)

    @classmethod
    def tune(cls, games: int, seed: int, players: int, options: Mapping[str, Any],
             bot: str | None = None, plot: str | None = None, progress: bool = True) -> str:
        from .tuning import tune

        return tune(games, seed, players, options, progress=progress)

    # -- helpers ------------------------------------------------------------------
    def job(self, seat: int) -> Job:
        return self.catalogue[self.p[seat].s.job]

    def alive(self) -> list[int]:
        return [n for n, p in self.p.items() if p.s.alive]

    def seats(self) -> list[Seat]:
        return [p.s for p in self.p.values()]

    def mafia_team(self) -> list[int]:
        """Who hears the mafia's joint act: living mafia and contacted helpers."""
        return [n for n, p in self.p.items() if p.s.alive and side_of(p.s, self.catalogue) == "mafia"
                and p.s.team == "mafia"]

    def tell(self, who: int, key: str, remember: bool = False, /, **params: Any) -> Event:
        """A phrase for one earphone; `remember` keeps it for that seat's HINT."""
        if remember:
            self.p[who].knows.append((key, params))
        return say(seat_audience(who), key, **params)

    def _refuse(self, seat: int | None, key: str, message: str) -> list[Event]:
        """A refusal stays in the seat's earphone: its wording may reveal a job."""
        if seat is None:
            return [error(message), say(TABLE, key)]
        return [error(message, private=seat_audience(seat)), say(seat_audience(seat), key)]

    def _power_event(self) -> list[Event]:
        if self.phase == "dealing":
            return []
        now = as_event(sides(self.seats(), self.catalogue), self.mode)
        if now == self._power:
            return []
        self._power = now
        return [event("power", sides=now, private=REFEREE)]

    # -- scans ----------------------------------------------------------------------
    def _scan(self, seat: int, tag: str, t: float) -> list[Event]:
        parsed = parse_job_tag(tag)
        if parsed is not None:
            return self._deal(seat, tag, parsed[0], parsed[1], t)
        if tag == "cmd:hint":
            return self.hint(seat, t)
        if self.phase == "dealing":
            return self._refuse(seat, "deal-first", "scan your job card first")
        if tag.startswith("seat:"):
            return self.act(seat, int(tag[5:]), t)
        if tag in ("cmd:yes", "cmd:no"):
            return self.ballot(seat, tag == "cmd:yes")
        if tag in ("cmd:extend", "cmd:shorten"):
            return self.move_time(seat, 15 if tag == "cmd:extend" else -15, t)
        return self._refuse(seat, "not-now", f"{tag} has no use now")

    def _deal(self, seat: int, tag: str, name: str, n: int, t: float) -> list[Event]:
        if seat in self.p:
            if self.p[seat].card == tag:
                p = self.p[seat]
                return [self.tell(seat, "your-job", job=f"job:{p.original}", team=p.s.team)]
            return self._refuse(seat, "already-dealt", "this seat already has a job card")
        if self.phase != "dealing":
            return self._refuse(seat, "not-now", "job cards are scanned only at the deal")
        if any(p.card == tag for p in self.p.values()):
            return self._refuse(seat, "card-taken", "that card is already another seat's")
        dealt = [p.original for p in self.p.values()]
        if name not in self.catalogue or dealt.count(name) >= self.deck.count(name):
            return self._refuse(seat, "not-in-deck", f"{name} is not (or no more) in this deck")
        job = self.catalogue[name]
        self.p[seat] = Player(Seat(seat, name, job.team, skill=self.opts["skills"].get(seat, "")),
                              card=tag, original=name, sun=(name == "society" and n % 2 == 1))
        out = [event("job", seat=seat, job=name, team=job.team, private=seat_audience(seat)),
               self.tell(seat, "your-job", job=f"job:{name}", team=job.team)]
        if len(self.p) < self.players:
            return out
        return out + self._dealt() + self._begin("night", t)

    def _dealt(self) -> list[Event]:
        """Everyone has a card: tell each what the rules let them know of the others."""
        out: list[Event] = [say(TABLE, "dealt")]
        societies = sorted(n for n, p in self.p.items() if p.original == "society")
        if len(societies) == 2 and not any(self.p[n].sun for n in societies):
            self.p[societies[0]].sun = True
        if len(societies) == 2 and all(self.p[n].sun for n in societies):
            self.p[societies[1]].sun = False
        by_job: dict[str, list[int]] = {}
        for n, p in self.p.items():
            by_job.setdefault(p.original, []).append(n)
        mafia = by_job.get("mafia", [])
        for n in mafia:
            out.append(self.tell(n, "partners", True, seats=[m for m in mafia if m != n] or ["-"]))
        lovers = by_job.get("lover", [])
        for n in lovers:
            out.append(self.tell(n, "lover-is", True, seat=[m for m in lovers if m != n][0]))
        for n in by_job.get("fanatic", []):
            for leader in by_job.get("cult-leader", []):
                out.append(self.tell(n, "leader-is", True, seat=leader))
        for n in societies:
            out.append(self.tell(n, "society-sun" if self.p[n].sun else "society-moon", True))
        citizens = [n for n, p in self.p.items() if p.s.team == "citizens" and p.original != "mercenary"]
        for n in by_job.get("mercenary", []):
            if citizens:
                client = min(citizens, key=lambda c: (c - n) % self.players)
                self.p[n].client = client
                out.append(self.tell(n, "client-is", True, seat=client))
        return out

    # -- phases --------------------------------------------------------------------
    def _seconds(self, phase: str) -> float:
        if phase == "discussion":
            return float(self.opts["discussion_per_player"]) * len(self.alive())
        return float(self.opts[phase])

    def _begin(self, phase: str, t: float) -> list[Event]:
        self.phase = phase
        if phase == "night":
            self.day += 1
        self.choices, self.order, self.spy_looks = {}, [], {}
        seconds = self._seconds(phase)
        self.deadline = t + seconds
        out: list[Event] = [event("phase", phase=phase, day=self.day, seconds=seconds),
                            say(TABLE, f"{phase}-start", day=self.day, seconds=int(seconds))]
        if phase == "night":
            out += self._night_start()
            if self._over:
                return out
        if phase == "discussion":
            self.timed = set()
        if phase == "vote":
            self.hushed = False
            if seconds > 5:
                out.append(set_timer("hush", self.deadline - 5))
        if phase == "approval":
            self.yes, self.no = set(), set()
        return out + self._timers()

    def _timers(self) -> list[Event]:
        out = [set_timer("phase", self.deadline)]
        if self.phase != "morning" and self.deadline - 10 > self.deadline - self._seconds(self.phase):
            out.append(set_timer("warn", self.deadline - 10))
        else:
            out.append(cancel_timer("warn"))
        return out

    def _timer(self, name: str, t: float) -> list[Event]:
        if name == "warn":
            return [say(TABLE, "ten-seconds")]
        if name == "hush" and self.phase == "vote":
            self.hushed = True
            return [say(TABLE, "tally-hidden")]
        if name == "phase":
            return self._end_phase(t)
        return []

    def _end_phase(self, t: float) -> list[Event]:
        out: list[Event] = [cancel_timer("warn"), cancel_timer("hush"), say(TABLE, "time-up")]
        if self.phase == "night":
            out += night.resolve(self)
            out += self._begin("morning", t)
            out += self._morning()
            return out
        if self.phase == "morning":
            return out + self._begin("discussion", t)
        if self.phase == "discussion":
            return out + self._begin("vote", t)
        if self.phase == "vote":
            return out + self._close_vote(t)
        if self.phase == "defence":
            return out + self._begin("approval", t)
        if self.phase == "approval":
            return out + self._close_approval(t)
        return out

    def _night_start(self) -> list[Event]:
        """Time-limited holders alive at their night win for their team."""
        out: list[Event] = []
        point = self.players // 2 + 2
        if self.day == point:
            holders = [n for n, p in self.p.items() if p.s.alive and p.s.skill == "time-limited"]
            if holders:
                self.fired.time_limited = holders
                self.causes.append("time-limited")
                out += self._check()
        return out

    def _morning(self) -> list[Event]:
        out = list(self.announce) or [say(TABLE, "quiet-night")]
        self.announce = []
        prophets = [n for n, p in self.p.items() if p.s.alive and self.catalogue[p.s.job].effect == "revelation"
                    and self.catalogue[p.s.job].on_morning == self.day + 0 and self.day > 0]
        if prophets and not self._over:
            self.fired.revelation = prophets[0]
            self.causes.append(self.p[prophets[0]].s.job)
            out.append(say(TABLE, "revelation", seat=prophets[0]))
        return out + self._check()

    # -- acts -------------------------------------------------------------------------
    def act(self, seat: int, target: int, t: float) -> list[Event]:
        if seat not in self.p:
            return self._refuse(seat, "deal-first", "scan your job card first")
        if not 1 <= target <= self.players:
            return self._refuse(seat, "no-such-seat", f"there is no seat {target}")
        if not self.p[seat].s.alive:
            return self._refuse(seat, "you-are-dead", "the dead do not act")
        if self.phase == "night":
            return night.choose(self, seat, target)
        if self.phase == "vote":
            return self._vote(seat, target)
        return self._refuse(seat, "not-now", "seat tokens count at night and in the vote")

    def _vote(self, seat: int, target: int) -> list[Event]:
        if self.p[seat].s.threatened:
            return self._refuse(seat, "threatened", "a threatened player cannot vote today")
        if not self.p[target].s.alive:
            return self._refuse(seat, "target-dead", "vote for a living player")
        self.choices[seat] = target
        out = [self.tell(seat, "voted", seat=target)]
        if not self.hushed:
            totals = self._totals(shown=True)
            out += [event("tally", totals=totals, final=False),
                    say(TABLE, "tally-now", counts=self._spoken(totals))]
        return out

    def _totals(self, shown: bool) -> dict[str, int]:
        """Votes per target; `shown` counts the politician's ballot as 1, as the app displays it."""
        out: dict[str, int] = {}
        for voter, target in self.choices.items():
            weight = 1 if shown else self.job(voter).ballot
            out[str(target)] = out.get(str(target), 0) + weight
        return dict(sorted(out.items(), key=lambda kv: int(kv[0])))

    @staticmethod
    def _spoken(totals: Mapping[str, int]) -> list[str]:
        return [f"{s}:{n}" for s, n in totals.items()] or ["0"]

    def _close_vote(self, t: float) -> list[Event]:
        shown, real = self._totals(True), self._totals(False)
        out: list[Event] = [event("tally", totals=shown, final=True),
                            say(TABLE, "tally-final", counts=self._spoken(shown))]
        night.day_abilities(self, out)
        top = max(real.values(), default=0)
        leaders = [int(s) for s, n in real.items() if n == top]
        if top == 0 or len(leaders) != 1:
            self.accused = None
            out += [event("accused", seat=None), say(TABLE, "no-accused")]
            return out + self._to_night(t)
        self.accused = leaders[0]
        out += [event("accused", seat=self.accused), say(TABLE, "accused", seat=self.accused)]
        return out + self._begin("defence", t)

    def ballot(self, seat: int, yes: bool) -> list[Event]:
        if seat not in self.p or self.phase != "approval":
            return self._refuse(seat, "not-now", "yes and no count in the approval vote")
        if not self.p[seat].s.alive or seat == self.accused:
            return self._refuse(seat, "no-ballot", "only the living, other than the accused, approve")
        (self.yes if yes else self.no).add(seat)
        (self.no if yes else self.yes).discard(seat)
        return [self.tell(seat, "ballot-yes" if yes else "ballot-no")]

    def _close_approval(self, t: float) -> list[Event]:
        voters = [n for n in self.alive() if n != self.accused]
        yes = {n for n in self.yes if not self.p[n].s.threatened}
        no = len(voters) - len(yes)
        executed = 2 * len(yes) >= len(voters) and bool(voters)
        out: list[Event] = []
        judges = [n for n in voters if self.job(n).effect == "judge" and not self.p[n].s.threatened
                  and self._able(n)]
        revealed = [n for n in judges if self.p[n].s.revealed]
        deciding = revealed[0] if revealed else None
        if deciding is None:
            for n in judges:
                choice = True if n in self.yes else False if n in self.no else None
                if choice is not None and choice != executed:
                    self.p[n].s.revealed = True
                    deciding = n
                    out.append(say(TABLE, "judge-revealed", seat=n))
                    break
        if deciding is not None:
            executed = deciding in self.yes
            self.causes.append("judge")
        out += [event("approval", yes=len(yes), no=no, executed=executed),
                say(TABLE, "approval-result", yes=len(yes), no=no)]
        accused = self.accused
        assert accused is not None
        if executed:
            job = self.job(accused)
            if job.effect == "unexecutable":
                out.append(say(TABLE, "politician-survives", seat=accused))
                executed = False
            elif self.p[accused].s.skill == "escape" and not self.p[accused].s.escaped:
                self.p[accused].s.escaped = True
                out.append(say(TABLE, "escaped", seat=accused))
                executed = False
        if executed:
            out.append(say(TABLE, "executed", seat=accused))
            out += night.kill(self, accused, "day", "vote")
        else:
            out.append(say(TABLE, "spared", seat=accused))
        out += self._check()
        if self._over:
            return out
        return out + self._to_night(t)

    def _to_night(self, t: float) -> list[Event]:
        for p in self.p.values():
            p.s.threatened = False
        return self._begin("night", t)

    def _able(self, seat: int) -> bool:
        """May this seat use its ability now (not a frog, not seduced)?"""
        p = self.p[seat]
        return p.frog_until < self.day and p.seduced_until < self.day

    def move_time(self, seat: int, delta: int, t: float) -> list[Event]:
        if self.phase != "discussion" or seat not in self.p or not self.p[seat].s.alive:
            return self._refuse(seat, "not-now", "extend and shorten work in the discussion")
        if seat in self.timed:
            return self._refuse(seat, "once-a-day", "once a day each")
        self.timed.add(seat)
        self.deadline = max(t, self.deadline + delta)
        return [say(TABLE, "extended" if delta > 0 else "shortened", seat=seat,
                    left=int(math.ceil(self.deadline - t)))] + self._timers()

    # -- knowledge ----------------------------------------------------------------
    def hint(self, seat: int, t: float) -> list[Event]:
        """What a sighted player sees on the app's screen, plus what this seat was told."""
        me = seat_audience(seat)
        out = [say(me, "hint-phase", phase=self.phase, day=self.day, left=max(0, int(self.deadline - t))),
               say(me, "hint-alive", seats=self.alive() or ["-"])]
        if self.phase == "vote" and not self.hushed:
            out.append(say(me, "tally-now", counts=self._spoken(self._totals(True))))
        if seat in self.p:
            p = self.p[seat]
            out.append(say(me, "your-job", job=f"job:{p.s.job}", team=p.s.team))
            out += [say(me, key, **params) for key, params in p.knows[-6:]]
            if seat in self.choices:
                out.append(say(me, "your-choice", seat=self.choices[seat]))
        return out

    # -- the end --------------------------------------------------------------------
    def _check(self) -> list[Event]:
        decision = decide(self.seats(), self.mode, self.catalogue, self.fired)
        self.fired = Fired()
        if decision is None:
            self.causes = []
            return []
        self.result = decision
        self.decided_by = sorted(set(self.causes))
        winner = decision.winner
        if self.mode == "general" and self.day < 2:
            winner = "void"
        return self._game_over(winner, decision.line)

    def _game_over(self, winner: str, reason: str) -> list[Event]:
        self._over = True
        self.phase = "over"
        ranking = []
        for n in sorted(self.p):
            p = self.p[n]
            won = p.s.team == winner
            ranking.append({"seat": n, "place": 1 if won else 2, "won": won, "team": p.s.team,
                            "job": p.original})
        return [cancel_timer("phase"), cancel_timer("warn"), cancel_timer("hush"),
                event("game-over", ranking=ranking, reason=reason, winner=winner, day=self.day,
                      decided_by=self.decided_by),
                say(TABLE, f"winner-{winner}")]

    # -- console -------------------------------------------------------------------
    def _console(self, line: str, t: float) -> list[Event]:
        words = line.split()
        cmd, args = words[0].lower(), words[1:]
        seat = int(args[0]) if args and args[0].isdigit() and 1 <= int(args[0]) <= self.players else None
        if cmd == "stop":
            return self._game_over("none", "stopped")
        if cmd == "next":
            if self.phase == "dealing":
                return [error("next: the deal ends when every seat has scanned a job card")]
            return self._end_phase(t)
        if cmd == "act" and seat is not None and len(args) == 2 and args[1].isdigit():
            if self.phase == "dealing":
                return [error("act: the deal is not finished")]
            return self.act(seat, int(args[1]), t)
        if cmd in ("yes", "no") and seat is not None and len(args) == 1:
            return self.ballot(seat, cmd == "yes")
        if cmd in ("extend", "shorten") and seat is not None and len(args) == 1:
            return self.move_time(seat, 15 if cmd == "extend" else -15, t)
        if cmd == "hint" and seat is not None and len(args) == 1:
            return self.hint(seat, t)
        if cmd == "ok" and seat is not None:
            return []
        if cmd == "chat" and seat is not None and len(args) >= 2:
            return self.chat(seat, " ".join(args[1:])[:CHAT_LIMIT])
        syntax = ", ".join(s for s, _ in self.referee_commands())
        return [error(f"unknown console command {line[:60]!r} (have: {syntax})")]

    def chat(self, seat: int, text: str) -> list[Event]:
        """Console play keeps the seed's chats: who may hear `seat` in this phase."""
        if seat not in self.p:
            return [error("chat: that seat has no job yet")]
        p = self.p[seat]
        dead = [n for n, q in self.p.items() if not q.s.alive]
        if not p.s.alive:
            hearers = dead + [n for n in self.alive() if self.job(n).effect == "read-dead"]
        elif self.phase in ("discussion", "morning", "vote") or (self.phase == "defence" and seat == self.accused):
            return [event("chat", seat=seat, text=text)]
        elif self.phase == "night" and seat in self.mafia_team():
            hearers = self.mafia_team() + dead
        elif self.phase == "night" and p.s.job == "lover":
            hearers = [n for n in self.alive() if self.p[n].s.job == "lover"] + dead
        elif self.phase == "night" and p.s.team == "cult":
            hearers = [n for n in self.alive() if self.p[n].s.team == "cult"] + dead
        else:
            return self._refuse(seat, "cannot-chat", "nobody hears you now")
        return [event("chat", seat=seat, text=text, private=[seat_audience(n) for n in sorted(set(hearers))])]
