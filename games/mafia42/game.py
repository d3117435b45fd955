"""マフィア42 at the table (shared/rules/mafia42.md), on the hidden-role layer.

The layer (`kikimimi.roles`) deals the job cards by scanning, tells each
seat its job and the partners the rules give it, routes seat tokens, command
tags and the console, keeps refusals in the refused seat's earphone, and
ends the game with the ranking.  This module adds マフィア42's own shape:
night, morning, discussion, vote, last defence and approval on real timers,
the live tally, the approval with the judge, and the win arithmetic
(`power`) checked after every change.  The jobs' acts are in `night`.

Cover: at night every living player scans a seat token, and every scan is
acknowledged the same way in the scanner's own earphone, so the sound of the
table gives no job away.  The madam and the thief act through their vote.
Team chats that cannot be private at a table become the team's joint act
(the mafia hear their common target); the console's `chat` keeps them.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kikimimi.commands import Command
from kikimimi.hints import Line, line
from kikimimi.kit import deck_cards, own_set
from kikimimi.phases import Phases
from kikimimi.protocol import REFEREE, TABLE, Event, Input, cancel_timer, error, event, say, seat_audience, set_timer
from kikimimi.roles import HiddenRoleGame, Vote, team_event, team_say

from . import day, night
from .jobs import Catalogue, Job, default_catalogue
from .options import parse_options
from .power import Decision, Fired, Seat, as_event, decide, side_of, sides

CHAT_LIMIT = 200
PHASES = ("night", "morning", "discussion", "vote", "defence", "approval", "over")


@dataclass
class Player:
    """A seat: what the arithmetic needs (`s`) and what the abilities need."""

    s: Seat
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
    knows: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # for HINT


class Mafia42Game(HiddenRoleGame):
    name: ClassVar[str] = "mafia42"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 12
    official_players: ClassVar[int] = 8
    tag_sets: ClassVar[tuple[str, ...]] = ("mafia42",)
    bots = ("plain", "ear")
    bot_table = ".bots:Mafia42Simulation"
    ear_table = ".ear:ear_simulation"
    report = ".tuning:Mafia42Report"
    diagram_of = ".game:diagram"
    console_commands = HiddenRoleGame.console_commands + (
        Command("extend SEAT", "move the discussion's end 15 s later (once a day each)", "console_extend"),
        Command("shorten SEAT", "move the discussion's end 15 s earlier (once a day each)", "console_shorten"),
        Command("chat SEAT TEXT", "console play: a line to whoever may hear SEAT now (the seed's chats)",
                "console_chat"))
    #: Options no spectator may read (`kikimimi.public`): a seat's skill tells its side.
    secret_options: ClassVar[frozenset[str]] = frozenset({"skills"})

    @classmethod
    def kit(cls, players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
        """Votes, night targets and YES/NO from each player's own look-alike set (kikimimi.kit)."""
        deck = parse_options(players, options)["jobs"]
        return own_set(players, ("yes", "no", "extend", "shorten", "hint")), deck_cards("mafia42", "job", deck)

    #: A seat whose reader is lost cannot act: its phase's clock stops (the runtime's).
    pause_when_reader_lost: ClassVar[bool] = True
    card_set: ClassVar[str] = "mafia42"
    card_kind: ClassVar[str] = "job"
    teams: ClassVar[Mapping[str, str]] = {n: j.team for n, j in default_catalogue().jobs.items()}
    knows: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "mafia": ("mafia",), "lover": ("lover",), "fanatic": ("cult-leader",)}

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.opts = parse_options(players, self.options)
        self.mode: str = self.opts["mode"]
        self.catalogue: Catalogue = self.opts["catalogue"]
        self.setup_roles(self.opts["jobs"])
        self.p: dict[int, Player] = {}
        self.now = 0.0
        self.deadline = 0.0
        self.choices: dict[int, int] = {}  # tonight's scans
        self.order: list[int] = []  # who scanned, in order (the mafia's latest choice counts)
        self.spy_looks: dict[int, int] = {}  # looks taken tonight
        self.spy_bonus: set[int] = set()  # spies who found a mafioso tonight: one more look
        self.vote = Vote.open(())
        self.yes: set[int] = set()
        self.no: set[int] = set()
        self.accused: int | None = None
        self.timed: set[int] = set()  # extended or shortened today
        self.hushed = False
        self.announce: list[Event] = []
        self.fired = Fired()
        self.result: Decision | None = None
        self.causes: list[str] = []  # jobs whose acts changed the board since the last check
        self._power: dict[str, Any] | None = None

    # -- protocol ---------------------------------------------------------------
    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "scan-role", players=self.players, mode=self.mode)]

    def handle(self, inp: Input) -> list[Event]:
        self.now = inp.t
        out = super().handle(inp)
        power = self._power_event()
        ends = [i for i, ev in enumerate(out) if ev.type == "game-over"]
        at = ends[0] if ends else len(out)
        return out[:at] + power + out[at:]

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "deadline": self.deadline, "mode": self.mode,
                "catalogue": self.catalogue.version, "choices": dict(self.choices),
                "ballots": dict(self.vote.ballots), "accused": self.accused,
                "seats": {n: {"job": p.s.job, "team": p.s.team, "alive": p.s.alive, "contacted": p.s.contacted,
                              "converted": p.s.converted, "revealed": p.s.revealed, "threatened": p.s.threatened}
                          for n, p in self.p.items()}}

    # -- hooks --------------------------------------------------------------------
    @classmethod
    def phrase_values(cls, players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
        """Every value a phrase parameter takes at such a table, so the voice renders them ahead.
        Left to render when said: the time left after an extension (seat x any second)."""
        from kikimimi.voice.domains import seat_sets

        try:
            opts = parse_options(players, options)
        except ValueError:
            return {}
        seats = list(range(1, players + 1))
        per_player = int(opts["discussion_per_player"])
        seconds = sorted({int(opts[k]) for k in ("night", "morning", "vote", "defence", "approval")}
                         | {per_player * n for n in seats})
        longest = per_player * players + 15 * players  # everyone extends
        groups = seat_sets(seats, 3)  # partners
        names = sorted(opts["catalogue"].jobs)
        return {
            "seat": seats, "seats": [["-"]] + groups, "players": [players], "mode": [opts["mode"]],
            "partners.role": [f"job:{j}" for j in sorted(cls.knows)],
            "hint-alive.seats": seat_sets(seats) if players <= 8 else groups,
            "hint-out.seats": seat_sets(seats) if players <= 8 else groups,
            "role": [f"job:{j}" for j in names], "job": [f"job:{j}" for j in names],
            "team": [f"team:{t}" for t in ("mafia", "citizens", "cult", "void")],
            "phase": [f"phase:{p}" for p in ("deal", *PHASES)], "day": range(0, players + 4),
            "seconds": seconds, "left": range(0, longest + 1), "votes": range(0, players + 1),
            "yes": range(0, players + 1), "no": range(0, players + 1),
        }

    #: The phases and what ends each (drawn by `kikimimi diagram mafia42`).
    FLOW: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("deal", "night", "every seat has a job card"), ("night", "morning", "timer or next"),
        ("morning", "discussion", "timer or next"), ("discussion", "vote", "timer or next"),
        ("vote", "defence", "one seat has the most votes"), ("vote", "night", "no votes or a tie"),
        ("defence", "approval", "timer or next"), ("approval", "night", "executed or spared"),
        ("night", "over", "time-limited"), ("morning", "over", "a side wins"), ("approval", "over", "a side wins"),
    )

    # -- helpers ------------------------------------------------------------------
    def job(self, seat: int) -> Job:
        return self.catalogue[self.p[seat].s.job]

    def alive(self) -> list[int]:
        return [n for n, p in self.p.items() if p.s.alive]

    def seats(self) -> list[Seat]:
        return [p.s for p in self.p.values()]

    def mafia_team(self) -> list[int]:
        """Who hears the mafia's joint act: living mafia and contacted helpers."""
        return [n for n, p in self.p.items() if p.s.alive and p.s.team == "mafia"
                and side_of(p.s, self.catalogue) == "mafia"]

    def tell(self, who: int, key: str, remember: bool = False, /, **params: Any) -> Event:
        """A phrase for one earphone; `remember` keeps it for that seat's HINT."""
        if remember:
            self.p[who].knows.append((key, params))
        return say(seat_audience(who), key, **params)

    def set_alive(self, seat: int, alive: bool, cause: str = "") -> None:
        """Keep the layer's roster (ranking, hint) in step with the arithmetic."""
        self.p[seat].s.alive = alive
        r = self.roster[seat]
        if alive:
            r.alive, r.cause, r.left_day = True, None, None
        else:
            self.roster.remove(seat, cause, self.day)

    def set_team(self, seat: int, team: str) -> None:
        self.p[seat].s.team = team
        self.roster[seat].team = team

    def able(self, seat: int) -> bool:
        """May this seat use its ability now (not a frog, not seduced)?"""
        p = self.p[seat]
        return p.frog_until < self.day and p.seduced_until < self.day

    def _power_event(self) -> list[Event]:
        if not self.p:
            return []
        now = as_event(sides(self.seats(), self.catalogue), self.mode)
        if now == self._power:
            return []
        self._power = now
        return [event("power", sides=now, private=REFEREE)]

    # -- the deal -------------------------------------------------------------------
    def on_dealt(self, t: float) -> list[Event]:
        """Every seat has its card; the layer told the partners.  Then night 1."""
        for seat, (name, n) in sorted(self.deal.cards.items()):
            job = self.catalogue[name]
            self.p[seat] = Player(Seat(seat, name, job.team, skill=self.opts["skills"].get(seat, "")),
                                  original=name, sun=(name == "society" and n % 2 == 1))
        out: list[Event] = []
        societies = [n for n, p in self.p.items() if p.original == "society"]
        if len(societies) == 2 and self.p[societies[0]].sun == self.p[societies[1]].sun:
            self.p[societies[0]].sun, self.p[societies[1]].sun = True, False  # two odd or two even cards
        for n in societies:
            out.append(self.tell(n, "society-sun" if self.p[n].sun else "society-moon", True))
        citizens = [n for n, p in self.p.items() if p.s.team == "citizens" and p.original != "mercenary"]
        for n, p in self.p.items():
            if p.original == "mercenary" and citizens:
                p.client = min(citizens, key=lambda c: (c - n) % self.players)
                out.append(self.tell(n, "client-is", True, seat=p.client))
        return out + self.begin("night", t)

    # -- phases --------------------------------------------------------------------
    def _seconds(self, phase: str) -> float:
        if phase == "discussion":
            return float(self.opts["discussion_per_player"]) * len(self.alive())
        return float(self.opts[phase])

    def begin(self, phase: str, t: float) -> list[Event]:
        day = self.day + 1 if phase == "night" else self.day
        seconds = self._seconds(phase)
        ev = self.enter(phase, day)
        ev.fields["seconds"] = seconds
        self.deadline = t + seconds
        self.choices, self.order, self.spy_looks, self.spy_bonus = {}, [], {}, set()
        out: list[Event] = [ev, say(TABLE, f"{phase}-start", day=self.day, seconds=int(seconds))]
        if phase == "night":
            out += self._night_start()
            if self.finished:
                return out
        elif phase == "discussion":
            self.timed = set()
        elif phase == "vote":
            self.hushed = False
            living = self.alive()
            voters = [n for n in living if not self.p[n].s.threatened]
            self.vote = Vote.open(voters, living, self_vote=True,
                                  weights={n: self.job(n).ballot for n in voters if self.job(n).ballot != 1})
            if seconds > 5:
                out.append(set_timer("hush", self.deadline - 5))
        elif phase == "approval":
            self.yes, self.no = set(), set()
        return out + self._timers(t)

    def _timers(self, t: float) -> list[Event]:
        out = self.phase_timer.start(t, self.deadline - t)
        if self.phase != "morning" and self.deadline - 10 > t:
            out.append(set_timer("warn", self.deadline - 10))
        else:
            out.append(cancel_timer("warn"))
        return out

    def on_timer(self, name: str, t: float) -> list[Event]:
        if name == "warn":
            return [say(TABLE, "ten-seconds")]
        if name == "hush" and self.phase == "vote":
            self.hushed = True
            return [say(TABLE, "tally-hidden")]
        return []

    def on_phase_timeout(self, t: float) -> list[Event]:
        return self.on_next(t)

    def on_next(self, t: float) -> list[Event]:
        """The phase ends (its timer, or the referee's `next`)."""
        out: list[Event] = [cancel_timer("warn"), cancel_timer("hush"), say(TABLE, "time-up")]
        if self.phase == "night":
            out += night.resolve(self)
            out += self.begin("morning", t)
            return out + self._morning()
        following = {"morning": "discussion", "discussion": "vote", "defence": "approval"}
        if self.phase in following:
            return out + self.begin(following[self.phase], t)
        if self.phase == "vote":
            return out + day.close_vote(self, t)
        if self.phase == "approval":
            return out + day.close_approval(self, t)
        return [error(f"next: nothing to end in the {self.phase}", private=REFEREE)]

    def _night_start(self) -> list[Event]:
        """Time-limited holders alive at their night (players ÷ 2 + 2) win for their team."""
        if self.day != self.players // 2 + 2:
            return []
        holders = [n for n, p in self.p.items() if p.s.alive and p.s.skill == "time-limited"]
        if not holders:
            return []
        self.fired.time_limited = holders
        self.causes.append("time-limited")
        return self.check()

    def _morning(self) -> list[Event]:
        out = list(self.announce) or [say(TABLE, "quiet-night")]
        self.announce = []
        for n, p in self.p.items():
            job = self.catalogue[p.s.job]
            if p.s.alive and job.effect == "revelation" and job.on_morning == self.day:
                self.fired.revelation = n
                self.causes.append(p.s.job)
                out.append(say(TABLE, "revelation", seat=n))
                break
        return out + self.check()

    # -- acts -------------------------------------------------------------------------
    def on_choose(self, seat: int, target: int, t: float) -> list[Event]:
        if self.phase == "night":
            return night.choose(self, seat, target)
        if self.phase == "vote":
            return day.cast_vote(self, seat, target)
        return self.refuse(seat, "seat tokens count at night and in the vote", "not-now")

    def on_command(self, seat: int, name: str, t: float) -> list[Event]:
        if name in ("yes", "no"):
            return day.ballot(self, seat, name == "yes")
        if name in ("extend", "shorten"):
            return self._move_time(seat, 15 if name == "extend" else -15, t)
        return super().on_command(seat, name, t)

    def console_extend(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:extend", t)

    def console_shorten(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:shorten", t)

    def console_chat(self, t: float, seat: int, text: str) -> list[Event]:
        return self._chat(seat, " ".join(text.split())[:CHAT_LIMIT])

    def to_night(self, t: float) -> list[Event]:
        for p in self.p.values():
            p.s.threatened = False
        return self.begin("night", t)

    def _move_time(self, seat: int, delta: int, t: float) -> list[Event]:
        if self.phase != "discussion":
            return self.refuse(seat, "extend and shorten work in the discussion", "not-now")
        if seat in self.timed:
            return self.refuse(seat, "once a day each", "once-a-day")
        self.timed.add(seat)
        self.deadline = max(t, self.deadline + delta)
        return [say(TABLE, "extended" if delta > 0 else "shortened", seat=seat,
                    left=int(math.ceil(self.deadline - t)))] + self._timers(t)

    # -- knowledge ----------------------------------------------------------------
    def seen_more(self) -> list[Line]:
        """What the app's screen shows everyone: the time left and, while it is public, the tally."""
        out: list[Line] = []
        if self.phase not in (self.DEAL, "over"):
            out.append(line("hint-time", left=max(0, int(math.ceil(self.deadline - self.now)))))
        if self.phase == "vote" and not self.hushed:
            out += day.tally_lines("tally-now", day.shown(self))
        return out

    def own_more(self, seat: int) -> list[Line]:
        """What this seat was told: its team, the job it plays as, its last findings, its choice now."""
        p = self.p.get(seat)
        if p is None:
            return []
        out = [line("your-team", team=f"team:{p.s.team}")]
        if p.s.job != p.original:
            out.append(line("you-play-as", job=f"job:{p.s.job}"))
        out += [(key, dict(params)) for key, params in p.knows[-6:]]
        choice = self.choices.get(seat) if self.phase == "night" else self.vote.ballots.get(seat)
        if choice is not None and self.phase in ("night", "vote"):
            out.append(line("your-choice", seat=choice))
        return out

    def _chat(self, seat: int, text: str) -> list[Event]:
        """Console play keeps the seed's chats: who may hear `seat` in this phase."""
        p = self.p.get(seat)
        if p is None:
            return [error("chat: that seat has no job yet", private=REFEREE)]
        dead = [n for n, q in self.p.items() if not q.s.alive]
        if not p.s.alive:
            hearers = dead + [n for n in self.alive() if self.job(n).effect == "read-dead"]
        elif self.phase in ("morning", "discussion", "vote") or (self.phase == "defence" and seat == self.accused):
            return [event("chat", seat=seat, text=text), say(TABLE, "chat", seat=seat, text=text)]
        elif self.phase == "night" and seat in self.mafia_team():
            hearers = self.mafia_team() + dead
        elif self.phase == "night" and p.s.job == "lover":
            hearers = [n for n in self.alive() if self.p[n].s.job == "lover"] + dead
        elif self.phase == "night" and p.s.job == "cult-leader":
            hearers = [n for n in self.alive() if self.p[n].s.team == "cult"] + dead
        else:
            return self.refuse(seat, "nobody hears you now", "cannot-chat")
        return [team_event("chat", hearers, seat=seat, text=text), *team_say(hearers, "chat", seat=seat, text=text)]

    # -- the end --------------------------------------------------------------------
    def decide_winner(self) -> str | None:
        decision = decide(self.seats(), self.mode, self.catalogue, self.fired)
        return decision.winner if decision else None

    def check(self) -> list[Event]:
        """The win arithmetic after a change; general mode voids a game decided before night 2."""
        decision = decide(self.seats(), self.mode, self.catalogue, self.fired)
        self.fired = Fired()
        if decision is None:
            self.causes = []
            return []
        self.result = decision
        winner = "void" if self.mode == "general" and self.day < 2 else decision.winner
        out = [cancel_timer("warn"), cancel_timer("hush")] + self.finish(winner, decision.line)
        for ev in out:
            if ev.type == "game-over":
                ev.fields.update(day=self.day, decided_by=sorted(set(self.causes)))
                for row in ev.fields["ranking"]:
                    row["job"] = self.p[row["seat"]].original
        return out


def diagram() -> str:
    """`kikimimi diagram mafia42`: the phases of `Mafia42Game.FLOW`."""
    return Phases("deal", Mafia42Game.FLOW, "over").mermaid()
