"""マフィア42 at the table (docs/rules/mafia42.md), on the hidden-role layer.

The layer (`kikimimi.roles`) deals the job cards by scanning, tells each
seat its job and the partners the rules give it, routes seat tokens, command
tags and the console, keeps refusals in the refused seat's earphone, and
ends the game with the ranking.  This module adds マフィア42's own shape:
night, morning, discussion, vote, last defence and approval on real timers,
the live tally, the approval with the judge, and the win arithmetic
(`power`) checked after every change through the layer's hooks.  The phases
are data (`PHASES`, `CLOCKS`); the seats and the play's state are `board`;
the jobs' acts are `night`, the vote and the approval `day`.

Cover: at night every living player scans a seat token, and every scan is
acknowledged the same way in the scanner's own earphone, so the sound of the
table gives no job away.  The madam and the thief act through their vote.
Team chats that cannot be private at a table become the team's joint act
(the mafia hear their common target); the console's `chat` keeps them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kikimimi.game import (REFEREE, TABLE, cancel_timer, Command, deck_cards, error, event, Event,
                           Input, line, Line, own_set, Phases, refusal, say, set_timer)
from kikimimi.roles import Vote, team_event, team_say
from kikimimi.roles.phases import Clock, Clocks, Warning

from . import day, night
from .board import Board
from .options import parse_options
from .power import Decision, Fired, as_event, decide, side_of, sides

CHAT_LIMIT = 200
#: "Ten seconds left" (not in the morning: it is five seconds long).
WARN = Warning("warn", 10)
#: The tally goes silent for the vote's last five seconds.
HUSH = Warning("hush", 5)
#: The phases and what moves the table from one to the next: the layer checks every
#: move against these (`HiddenRoleGame.PHASES`) and `kikimimi diagram mafia42` draws them.
PHASES = Phases("deal", (
    ("deal", "night", "every seat has a job card"),
    ("night", "morning", "timer or next"), ("morning", "discussion", "timer or next"),
    ("discussion", "vote", "timer or next"),
    ("vote", "defence", "one seat has the most votes"), ("vote", "night", "no votes or a tie"),
    ("defence", "approval", "timer or next"), ("approval", "night", "executed or spared"),
    ("night", "over", "time-limited"), ("morning", "over", "a side wins"), ("approval", "over", "a side wins"),
    *((phase, "over", "stop") for phase in ("deal", "discussion", "vote", "defence")),
), "over")
#: Each timed phase's limit (an option) and its warnings.
CLOCKS = Clocks(
    Clock("night", "night", (WARN,)),
    Clock("morning", "morning"),
    Clock("discussion", "discussion_per_player", (WARN,), per_living=True),
    Clock("vote", "vote", (HUSH, WARN)),
    Clock("defence", "defence", (WARN,)),
    Clock("approval", "approval", (WARN,)),
)


class Mafia42Game(Board):
    """One play of マフィア42 on the hidden-role layer (the layer's settings first)."""

    PHASES = PHASES
    CLOCKS = CLOCKS
    knows: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "mafia": ("mafia",), "lover": ("lover",), "fanatic": ("cult-leader",)}
    console_commands = Board.console_commands + (
        Command("extend SEAT", "move the discussion's end 15 s later (once a day each)", "console_extend"),
        Command("shorten SEAT", "move the discussion's end 15 s earlier (once a day each)", "console_shorten"),
        Command("chat SEAT TEXT", "console play: a line to whoever may hear SEAT now (the seed's chats)",
                "console_chat"))

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.timed: set[int] = set()  # extended or shortened today
        self.result: Decision | None = None
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

    def situation_at(self, t: float) -> list[Event]:
        """The situation with the time left counted from now: after an undo the last
        input the game saw may be long past ("8 seconds left" with 0.75 s)."""
        self.now = max(self.now, t)
        return self.situation()

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "deadline": self.phase_timer.deadline, "mode": self.mode,
                "catalogue": self.catalogue.version, "choices": dict(self.choices),
                "ballots": dict(self.vote.ballots), "accused": self.accused,
                "seats": {n: {"job": p.job, "team": p.team, "alive": p.alive, "contacted": p.contacted,
                              "converted": p.converted, "revealed": p.revealed, "threatened": p.threatened}
                          for n, p in self.roster.seats.items()} if self.deal.complete else {}}

    def _power_event(self) -> list[Event]:
        if not self.deal.complete:
            return []
        now = as_event(sides(self.members(), self.catalogue), self.mode)
        if now == self._power:
            return []
        self._power = now
        return [event("power", sides=now, private=REFEREE)]

    # -- the deal -------------------------------------------------------------------
    def on_dealt(self, t: float) -> list[Event]:
        """Every seat has its card; the layer told the partners.  Then night 1."""
        for seat, (name, n) in sorted(self.deal.cards.items()):
            p = self.roster[seat]
            p.job, p.skill, p.sun = name, self.opts["skills"].get(seat, ""), name == "society" and n % 2 == 1
        out: list[Event] = []
        societies = self.roster.holders("society")
        if len(societies) == 2 and self.roster[societies[0]].sun == self.roster[societies[1]].sun:
            self.roster[societies[0]].sun, self.roster[societies[1]].sun = True, False  # two odd or two even cards
        for n in societies:
            out.append(self.tell(n, "society-sun" if self.roster[n].sun else "society-moon", True))
        citizens = [p.seat for p in self.members() if p.team == "citizens" and p.role != "mercenary"]
        for p in self.members():
            if p.role == "mercenary" and citizens:
                p.client = min(citizens, key=lambda c: (c - p.seat) % self.players)
                out.append(self.tell(p.seat, "client-is", True, seat=p.client))
        return out + self.begin("night", t)

    # -- phases --------------------------------------------------------------------
    def begin(self, phase: str, t: float) -> list[Event]:
        today = self.day + 1 if phase == "night" else self.day
        seconds = CLOCKS[phase].seconds(self.opts, len(self.roster.alive()))
        ev = self.enter(phase, today)
        ev.fields["seconds"] = seconds
        self.choices, self.order, self.spy_looks, self.spy_bonus = {}, [], {}, set()
        out: list[Event] = [ev, say(TABLE, f"{phase}-start", day=self.day, seconds=int(seconds))]
        if phase == "night":
            out += self._night_start()
            if self.finished:
                return out
        elif phase == "discussion":
            self.timed = set()
        elif phase == "vote":
            self.hushed, self.read, self.marked = False, {}, set()
            living = self.roster.alive()
            voters = [n for n in living if not self.roster[n].threatened]
            self.vote = Vote.open(voters, living, self_vote=True,
                                  weights={n: self.job(n).ballot for n in voters if self.job(n).ballot != 1})
            # the app greys it out; at a table the seat scans like a voter, or its stillness
            # (and the tally read without it) showed the gangster's target
            out += [self.tell(n, "threatened-scan") for n in living if n not in voters]
        elif phase == "approval":
            self.yes, self.no = set(), set()
            out += [self.tell(n, "threatened-ballot") for n in self.roster.alive()
                    if self.roster[n].threatened and n != self.accused]
        return out + self.time_phase(seconds)  # counted from when its announcement has been heard

    def on_clock_started(self, t: float) -> list[Event]:
        """The phase's clock started (its announcement heard): the vote's tally readings count from then."""
        self.now = max(self.now, t)
        return self._next_reading(t) if self.phase == "vote" else []

    def _next_reading(self, t: float) -> list[Event]:
        deadline = self.phase_timer.deadline
        if deadline is not None and t + day.READ_EVERY < deadline - HUSH.before:
            return [set_timer(day.READING, t + day.READ_EVERY)]
        return []

    def on_timer(self, name: str, t: float) -> list[Event]:
        if name == WARN.timer:
            return [say(TABLE, "ten-seconds")]
        if name == day.READING and self.phase == "vote":
            return day.reading(self) + self._next_reading(t)
        if name == HUSH.timer and self.phase == "vote":
            out = day.reading(self)  # the last reading, then the tally is hidden
            self.hushed = True
            return out + [say(TABLE, "tally-hidden")]
        return []

    def on_phase_timeout(self, t: float) -> list[Event]:
        return self.on_next(t)

    def on_next(self, t: float) -> list[Event]:
        """The phase ends (its timer, or the referee's `next`)."""
        out: list[Event] = CLOCKS.cancel_warnings() + [say(TABLE, "time-up")]
        if self.phase == "vote":
            out.insert(0, cancel_timer(day.READING))
        if self.phase == "night":
            out += night.resolve(self)
            out += self.begin("morning", t)
            return out + self._morning()
        following = {"morning": "discussion", "discussion": "vote", "defence": "approval"}
        if self.phase in following:
            return out + self.begin(following[self.phase], t)
        if self.phase == "vote":
            out += day.close_vote(self)
            return out + (self.to_night(t) if self.accused is None else self.begin("defence", t))
        if self.phase == "approval":
            out += day.close_approval(self)
            out += self.check_win()
            return out if self.finished else out + self.to_night(t)
        return [error(f"next: nothing to end in the {self.phase}", private=REFEREE)]

    def _night_start(self) -> list[Event]:
        """Time-limited holders alive at their night (players ÷ 2 + 2) win for their team."""
        if self.day != self.players // 2 + 2:
            return []
        holders = [p.seat for p in self.members() if p.alive and p.skill == "time-limited"]
        if not holders:
            return []
        self.fired.time_limited = holders
        self.causes.append("time-limited")
        return self.check_win()

    def _morning(self) -> list[Event]:
        out = list(self.announce) or [say(TABLE, "quiet-night")]
        self.announce = []
        for p in self.members():
            job = self.catalogue[p.job]
            if p.alive and job.effect == "revelation" and job.on_morning == self.day:
                self.fired.revelation = p.seat
                self.causes.append(p.job)
                out.append(say(TABLE, "revelation", seat=p.seat))
                break
        return out + self.check_win()

    # -- acts -------------------------------------------------------------------------
    def on_choose(self, seat: int, target: int, t: float) -> list[Event]:
        if self.phase == "night":
            return night.choose(self, seat, target)
        if self.phase == "vote":
            return day.cast_vote(self, seat, target)
        return refusal(seat, "seat tokens count at night and in the vote", "not-now")

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
        for p in self.members():
            p.threatened = False
        return self.begin("night", t)

    def _move_time(self, seat: int, delta: int, t: float) -> list[Event]:
        if self.phase != "discussion":
            return refusal(seat, "extend and shorten work in the discussion", "not-now")
        if seat in self.timed:
            return refusal(seat, "once a day each", "once-a-day")
        self.timed.add(seat)
        moved = self.move_clock(t, delta)  # before its announcement was heard: the whole discussion
        return [say(TABLE, "extended" if delta > 0 else "shortened", seat=seat, left=self.time_left(t))] + moved

    # -- knowledge ----------------------------------------------------------------
    def seen_more(self) -> list[Line]:
        """What the app's screen shows everyone: the time left and, while it is public, the tally."""
        out: list[Line] = []
        if self.phase not in (self.DEAL, "over"):
            out.append(line("hint-time", left=self.time_left(self.now)))
        if self.phase == "vote" and not self.hushed:
            out += day.tally_lines("tally-now", self.read)  # as last read: a HINT never tells one scan
        return out

    def own_more(self, seat: int) -> list[Line]:
        """What this seat was told: its team, the job it plays as, its last findings, its choice now."""
        if not self.deal.complete:
            return []
        p = self.roster[seat]
        out = [line("your-team", team=f"team:{p.team}")]
        if p.job != p.role:
            out.append(line("you-play-as", job=f"job:{p.job}"))
        out += [(key, dict(params)) for key, params in p.knows[-6:]]
        choice = self.choices.get(seat) if self.phase == "night" else self.vote.ballots.get(seat)
        if choice is not None and self.phase in ("night", "vote"):
            out.append(line("your-choice", seat=choice))
        if p.threatened and p.alive and self.phase in ("vote", "approval"):  # what the app greys out
            out.append(line("threatened-scan" if self.phase == "vote" else "threatened-ballot"))
        return out

    def _chat(self, seat: int, text: str) -> list[Event]:
        """Console play keeps the seed's chats: who may hear `seat` in this phase."""
        if not self.deal.complete:
            return [error("chat: that seat has no job yet", private=REFEREE)]
        p, living = self.roster[seat], self.roster.alive()
        dead = self.roster.dead()
        if not p.alive:
            hearers = dead + [n for n in living if self.job(n).effect == "read-dead"]
        elif self.phase in ("morning", "discussion", "vote") or (self.phase == "defence" and seat == self.accused):
            return [event("chat", seat=seat, text=text), say(TABLE, "chat", seat=seat, text=text)]
        elif self.phase == "night" and seat in self.mafia_team():
            hearers = self.mafia_team() + dead
        elif self.phase == "night" and p.job == "lover":
            hearers = [n for n in living if self.roster[n].job == "lover"] + dead
        elif self.phase == "night" and p.job == "cult-leader":
            hearers = [n for n in living if self.roster[n].team == "cult"] + dead
        else:
            return refusal(seat, "nobody hears you now", "cannot-chat")
        return [team_event("chat", hearers, seat=seat, text=text), *team_say(hearers, "chat", seat=seat, text=text)]

    # -- the end (the layer's check, after every change) ----------------------------
    def decide_winner(self) -> str | None:
        """The win arithmetic after a change; general mode voids a game decided before night 2."""
        decision = decide(self.members(), self.mode, self.catalogue, self.fired)
        self.fired = Fired()
        if decision is None:
            self.causes = []
            return None
        self.result = decision
        return "void" if self.mode == "general" and self.day < 2 else decision.winner

    def win_reason(self, winner: str) -> str:
        return self.result.line if self.result else "win"

    def finish(self, winner: str, reason: str) -> list[Event]:
        readings = [cancel_timer(day.READING)] if self.phase == "vote" else []  # `stop` in the vote
        # Mafia alive yet the citizens win: their votes are 0 under the gangster's threat.
        # Said, or the table hears a win it cannot explain.
        silenced = [p.seat for p in self.members() if p.alive and p.threatened
                    and side_of(p, self.catalogue) == "mafia"] if winner == "citizens" else []
        out = super().finish(winner, reason)
        if silenced:
            at = next(n for n, ev in enumerate(out) if ev.type == "say" and ev.fields["key"] == "game-over")
            out.insert(at + 1, say(TABLE, "why-threatened", seats=silenced))
        return readings + CLOCKS.cancel_warnings() + out

    def game_over_fields(self) -> dict[str, Any]:
        if self.result is None:
            return {}
        return {"day": self.day, "decided_by": sorted(set(self.causes))}

    def ranking_fields(self, seat: int) -> dict[str, Any]:
        return {"job": self.roster[seat].role} if self.result is not None else {}


#: What each player holds beside its seat tokens (the declaration's `command_tags`).
COMMAND_TAGS = ("yes", "no", "extend", "shorten", "hint", "agree")


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Votes, night targets and YES/NO from each player's own look-alike set (kikimimi.contract.kit)."""
    deck = parse_options(players, options)["jobs"]
    return own_set(players, COMMAND_TAGS), deck_cards("mafia42", "job", deck)


def phrase_values(players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
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
        "partners.role": [f"job:{j}" for j in sorted(Mafia42Game.knows)],
        "hint-alive.seats": seat_sets(seats) if players <= 8 else groups,
        "hint-out.seats": seat_sets(seats) if players <= 8 else groups,
        "why-threatened.seats": groups,
        "role": [f"job:{j}" for j in names], "job": [f"job:{j}" for j in names],
        "team": [f"team:{t}" for t in ("mafia", "citizens", "cult", "void")],
        "phase": [f"phase:{p}" for p in PHASES.names], "day": range(0, players + 4),
        "seconds": seconds, "left": range(0, longest + 1), "votes": range(0, players + 2),  # the politician counts 2
        "yes": range(0, players + 1), "no": range(0, players + 1),
    }
