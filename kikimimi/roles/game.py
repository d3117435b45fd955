"""`HiddenRoleGame`: the runtime half of every hidden-role game.

It owns what 闇に笑う魔女, マフィア42 and the next such game share: the deal
by scanning, private role announcements and partners, the input routing
(seat tokens, command tags, the console's `act`/`yes`/`no`/`ok`/`hint`/
`next`/`stop`), refusals that stay in the refused seat's earphone, phases,
real-time phase timers, removals announced without their cause, the win
check after every removal, the ranking, and the `hint` answer.  A game
subclass keeps only its rules: what a phase allows, how a night settles,
who has won.  See docs/roles.md.
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kikimimi.contract import hints
from kikimimi.contract.commands import Command, dispatch, refusal
from kikimimi.contract.hints import Line, line
from kikimimi.contract.phases import Phases
from kikimimi.contract.protocol import REFEREE, TABLE, Event, Input, Play, error, event, say, seat_audience

from .clock import PhaseTimer
from .deal import Deal, all_card_tags, check_deck, parse_card
from .phases import Clocks
from .roster import Player, Roster, partners_of, ranking, team_event

#: Bound on a console line's words a game will look at (untrusted input).
MAX_WORDS = 64
#: Bound on a console line's characters a game will look at.
MAX_LINE = 4000


class HiddenRoleGame(Play):
    """Subclass, set the class attributes, call `setup_roles(deck)` in `__init__`."""

    #: The tag set of the role cards and the game's catalogue, e.g. "witch".
    card_set: ClassVar[str]
    #: "role" (cards `SET:role-ROLE-N`, event `role`) or "job" (マフィア42).
    card_kind: ClassVar[str] = "role"
    #: role -> team word (the same words as `winner`).
    teams: ClassVar[Mapping[str, str]]
    #: role -> roles whose holders it is told at the deal (witch: ("witch",)).
    knows: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: This game's own command tags (without "cmd:"), e.g. ("advise", "silence").
    commands: ClassVar[tuple[str, ...]] = ()
    #: The phase that shows before the deal is complete.
    DEAL = "deal"
    #: The referee's console commands; a game adds its own: `HiddenRoleGame.console_commands + (...)`.
    console_commands: ClassVar[tuple[Command, ...]] = (
        Command("act SEAT TARGET", "seat SEAT scans seat TARGET's token (vote, night action)", "console_act"),
        Command("yes SEAT", "the seat's answer", "console_yes"),
        Command("no SEAT", "the seat's answer", "console_no"),
        Command("ok SEAT", "the seat's confirmation", "console_ok"),
        Command("hint SEAT", "tell that seat, in its earphone, everything it may know", "console_hint"),
        Command("next", "end the current phase now", "console_next"),
        Command("stop", "stop the game (nobody wins)", "console_stop"))
    #: The game's phases as data (kikimimi.contract.phases); when given, every move is checked against it.
    PHASES: ClassVar[Phases | None] = None
    #: Each phase's limit (kikimimi.roles.phases), if the game times its phases: drawn beside them.
    CLOCKS: ClassVar[Clocks | None] = None
    #: Each seat's record: a game that keeps more per seat names its `Player` subclass.
    seat_type: ClassVar[type[Player]] = Player
    #: The public event a removal logs (マフィア42: "death"); the cause goes in "<it>-cause".
    out_event: ClassVar[str] = "out"
    #: Seconds after a scan moved the game on (a count, a dawn) in which the referee's
    #: `next` is refused: typed then, it was meant for the step just ended (0: off).
    next_settle: ClassVar[float] = 0.0

    @classmethod
    def mermaid(cls) -> str:
        """`kikimimi diagram GAME` (`Declaration(diagram=".game:TheGame.mermaid")`): the phases
        that run, each with its limit, so the drawing is the declared machine, never a copy."""
        if cls.PHASES is None:
            raise NotImplementedError(f"{cls.__name__} declares no PHASES to draw")
        return "\n".join([cls.PHASES.mermaid(), *(cls.CLOCKS.notes() if cls.CLOCKS else [])])

    def setup_roles(self, deck: Sequence[str]) -> None:
        self.roster: Roster[Any] = Roster(self.players, self.seat_type)
        self.deal = Deal(check_deck(deck, self.players, self.teams), self.players)
        self.phase: str = self.DEAL
        self.day = 0
        self.finished = False
        self.winner: str | None = None
        self.phase_timer = PhaseTimer()
        self.console_line = ""
        #: When a table input last moved the game on (`next_settle`).
        self.moved_at = -math.inf

    # -- protocol -------------------------------------------------------------
    @classmethod
    def known_tags(cls, players: int) -> frozenset[str]:
        return all_card_tags(cls.card_set, cls.card_kind, cls.teams) | {f"cmd:{c}" for c in cls.commands}

    @property
    def over(self) -> bool:
        return self.finished

    def start(self, t: float) -> list[Event]:
        # No `phase` event for the deal: the contract's phases begin when the deal is done.
        return [say(TABLE, "scan-role")]

    def handle(self, inp: Input) -> list[Event]:
        if self.finished:
            return [error("the game is over")]
        if inp.timer is not None:
            if self.phase_timer.is_current(inp.timer):
                return self.on_phase_timeout(inp.t)
            return self.on_timer(inp.timer, inp.t)
        if inp.console is not None:
            return self._console(inp.console, inp.t)
        if not self.next_settle:
            return self._table_input(inp)
        before = self.stage()
        out = self._table_input(inp)
        if self.stage() != before and before[0] != self.DEAL:  # `next` is never meant for the deal
            self.moved_at = inp.t
        return out

    def _table_input(self, inp: Input) -> list[Event]:
        if inp.reader == "field":
            return self.on_field(inp)
        if inp.removed or inp.seat is None:
            return []
        return self._hand(inp.seat, inp.tag or "", inp.t)

    def stage(self) -> tuple[Any, ...]:
        """Where the game stands, as far as the referee's `next` is concerned: a game
        adds what else `next` would end (a vote's round)."""
        return (self.phase, self.day)

    def snapshot(self) -> dict[str, Any]:
        return {"phase": self.phase, "day": self.day, "winner": self.winner,
                "roles": {s: p.role for s, p in self.roster.seats.items()},
                "alive": self.roster.alive(),
                "out": {s: {"cause": p.cause, "day": p.left_day} for s, p in self.roster.seats.items()
                        if not p.alive}}

    # -- what a game overrides ---------------------------------------------------
    def on_dealt(self, t: float) -> list[Event]:
        """Every seat has its role: start the first phase."""
        raise NotImplementedError

    def on_choose(self, seat: int, target: int, t: float) -> list[Event]:
        """Seat `seat` scanned `seat:target` (or the console's `act`)."""
        return refusal(seat, f"nothing to choose in the {self.phase}", "not-now")

    def on_command(self, seat: int, name: str, t: float) -> list[Event]:
        """A command tag `cmd:NAME` on the seat's hand reader (or console `yes`/`no`/`ok`)."""
        return refusal(seat, f"cmd:{name} has no use in the {self.phase}", "not-now")

    def on_console(self, words: list[str], t: float) -> list[Event] | None:
        """A console command of the game's own (None: not one)."""
        return None

    def on_next(self, t: float) -> list[Event]:
        """The referee's `next`: end the current phase early."""
        return [error(f"next: nothing to end in the {self.phase}", private=REFEREE)]

    def on_field(self, inp: Input) -> list[Event]:
        # a role card looks like any other: its name is the referee's alone
        return [error(f"{inp.tag} has no use on the field", private=REFEREE), say(TABLE, "not-now")]

    def on_timer(self, name: str, t: float) -> list[Event]:
        return []

    def on_phase_timeout(self, t: float) -> list[Event]:
        """The current phase's real-time limit ran out."""
        return self.on_next(t)

    def on_clock_started(self, t: float) -> list[Event]:
        """The phase's limit started counting at `t` (its deadline is `phase_timer.deadline`):
        what else counts from then (マフィア42's tally readings).  The warnings are set already."""
        return []

    def decide_winner(self) -> str | None:
        """The winning team now, or None (called after every removal)."""
        raise NotImplementedError

    def winning_teams(self, winner: str) -> tuple[str, ...]:
        """Teams that share a win (default: the winner alone)."""
        return (winner,)

    def dead_may_act(self, seat: int, tag: str) -> bool:
        """May a seat that has left scan this (default: no)?"""
        return False

    def seen_more(self) -> list[Line]:
        """The game's public lines (clocks, who holds the microphone, the tally):
        said in a HINT and, on the speaker, after an undo, a resume or a reader back."""
        return []

    def own_more(self, seat: int) -> list[Line]:
        """The game's part of what only this seat knows (its allowance, its
        vote, what it was told at night), said in its HINT after its role."""
        return []

    # -- the phase's limit, counted from when its announcement has been heard ----------
    def time_phase(self, seconds: float) -> list[Event]:
        """The current phase ends `seconds` after what the table says now has been heard
        (the announcement played whole on every output; docs/roles.md): the limit's timer now,
        its deadline and its warnings at the moment (`clock_started`)."""
        return self.phase_timer.start_when_heard(seconds)

    def move_clock(self, t: float, delta: float) -> list[Event]:
        """The limit moves by `delta` seconds: before the moment the whole phase grows or
        shrinks; after it the deadline moves, and its warnings with it."""
        out = self.phase_timer.move(t, delta)
        deadline = self.phase_timer.deadline
        if deadline is not None and self.CLOCKS is not None:
            out += self.CLOCKS.warnings(self.phase, t, deadline)
        return out

    def clock_started(self, name: str, t: float) -> list[Event]:
        """The runtime's moment (`Play.clock_started`): the live limit counts from `t`.  The
        public `phase-clock` event says so (everyone hears the announcement end: nothing
        secret), with the seconds from then, for whoever times the phase (the event bots)."""
        if self.finished:
            return []
        moved = self.phase_timer.heard(name, t)
        deadline = self.phase_timer.deadline
        if moved is None or deadline is None:
            return []
        out = [event("phase-clock", phase=self.phase, day=self.day, seconds=self.phase_timer.seconds), *moved]
        if self.CLOCKS is not None:
            out += self.CLOCKS.warnings(self.phase, t, deadline)
        return out + self.on_clock_started(t)

    def time_left(self, now: float) -> int:
        """Whole seconds left in the phase at `now` (the whole phase before its announcement
        has been heard: docs/roles.md)."""
        return self.phase_timer.left(now)

    # -- helpers for games ---------------------------------------------------------
    def enter(self, phase: str, day: int | None = None) -> Event:
        """Move to a phase; the `phase` event for the log."""
        self.phase = self._moved(phase)
        if day is not None:
            self.day = day
        return event("phase", phase=phase, day=self.day)

    def _moved(self, phase: str) -> str:
        return phase if self.PHASES is None else self.PHASES.step(self.phase, phase)

    def remove(self, causes: Mapping[int, str], when: str, key: str | None = None) -> list[Event]:
        """Seats leave: public `out` events in seat order without the cause, the
        cause in a referee-only `out-cause`, an optional speaker line naming
        them, then the win check.  Several seats leave together (a night), so
        the check runs once after them."""
        seats = sorted(s for s in causes if self.roster.is_alive(s))
        out: list[Event] = []
        for s in seats:
            out += self.leave(s, causes[s], when)
        if key:
            out.append(say(TABLE, key, seats=seats, day=self.day))
        return out + self.check_win()

    def leave(self, seat: int, cause: str, when: str) -> list[Event]:
        """One seat leaves, with no win check (a game whose deaths have
        consequences runs them first, then `check_win`): the public event without
        the cause, the referee's with it."""
        self.roster.remove(seat, cause, self.day)
        return [event(self.out_event, seat=seat, when=when),
                event(f"{self.out_event}-cause", seat=seat, when=when, cause=cause, private=REFEREE)]

    def check_win(self) -> list[Event]:
        """The win check: `decide_winner`, then the end with `win_reason`."""
        winner = self.decide_winner()
        return self.finish(winner, self.win_reason(winner)) if winner else []

    def win_reason(self, winner: str) -> str:
        """The `reason` of a won game's `game-over` (default "win"; マフィア42 names the line)."""
        return "win"

    def game_over_fields(self) -> dict[str, Any]:
        """Fields a game adds to its `game-over` event (after the layer's)."""
        return {}

    def ranking_fields(self, seat: int) -> dict[str, Any]:
        """Fields a game adds to a seat's ranking row (after the layer's)."""
        return {}

    def finish(self, winner: str, reason: str) -> list[Event]:
        """The end: ranking by team (docs/contract.md), every role told on the speaker."""
        self.finished, self.winner = True, winner
        self.phase = self._moved("over")
        out = self.phase_timer.stop()
        teams = self.winning_teams(winner) if winner != "void" else ()
        rows = [{**row, **self.ranking_fields(row["seat"])} for row in ranking(self.roster, teams)]
        out.append(event("game-over", ranking=rows, reason=reason, winner=winner, **self.game_over_fields()))
        if winner == "void":  # nobody won: "stopped" or "void", never "nobody's win"
            out.append(say(TABLE, "game-stopped" if reason == "stopped" else "game-void"))
        else:
            out.append(say(TABLE, "game-over", team=f"team:{winner}"))
        for s, p in self.roster.seats.items():
            if p.role:
                out.append(say(TABLE, "reveal", seat=s, role=self.role_name(p.role)))
        return out

    def role_told(self, seat: int) -> list[Event]:
        """What a seat hears after its role when it scans its card (マフィア42: its team)."""
        return []

    def role_name(self, role: str) -> str:
        """The catalogue name a role is spoken by (`role:witch`)."""
        return f"{self.card_kind}:{role}"

    def lot(self, t: float, what: str) -> random.Random:
        """A draw that is the same in every replay of the script and that no
        player can foresee (it hangs on the moment the input arrived)."""
        return random.Random(f"{self.card_set}:{self.options.get('seed', 0)}:{t!r}:{what}")

    def seen(self) -> list[Line]:
        """What every seat sees: the phase, who is on the island, who left, then the game's part."""
        phase = f"phase:{self.phase}"  # before day 1 (the deal, a prologue) there is no day to name
        out = [line("hint-phase", phase=phase, day=self.day) if self.day else line("hint-phase-only", phase=phase),
               line("hint-alive", seats=self.roster.alive())]
        if self.roster.dead():
            out.append(line("hint-out", seats=self.roster.dead()))
        return out + self.seen_more()

    def sight(self, seat: int) -> list[Line]:
        """HINT (`kikimimi.contract.hints`): the public lines; the seat's own come from `own`."""
        return self.seen()

    def own(self, seat: int) -> list[Line]:
        """What only this seat holds: its role card, the partners it was shown, then the game's part."""
        out: list[Line] = []
        role = self.roster.role(seat)
        if role:
            out.append(line("your-role", role=self.role_name(role)))
            if self.deal.complete:
                partners = partners_of(self.roster, seat, self.knows)
                if partners:
                    out.append(line("partners", role=self.role_name(role), seats=partners))
        return out + self.own_more(seat)

    def hint(self, seat: int) -> list[Event]:
        """Everything this seat may know (and a sighted player could see), in its earphone."""
        return hints.hint(self, seat)

    def situation(self) -> list[Event]:
        """Where the table stands, on the speaker (after an undo, a resume, a reader
        back): the public lines only."""
        return hints.situation(self.seen())

    # -- the deal ------------------------------------------------------------
    def _scan_card(self, seat: int, role: str, n: int, t: float) -> list[Event]:
        me = seat_audience(seat)
        why = self.deal.refusal(seat, role, n)
        if why:
            return refusal(seat, "that card cannot be dealt to you", why)
        if not self.deal.scan(seat, role, n):  # your own card again: hear it again
            return [say(me, "your-role", role=self.role_name(role))] + self.role_told(seat)
        p = self.roster[seat]
        p.role, p.team = role, self.teams[role]
        out = [event(self.card_kind, seat=seat, **{self.card_kind: role}, team=p.team, private=me),
               say(me, "your-role", role=self.role_name(role)), *self.role_told(seat),
               say(TABLE, "role-scanned", seat=seat)]
        if not self.deal.complete:
            return out
        out += self._tell_partners()
        return out + [say(TABLE, "dealt")] + self.on_dealt(t)

    def _tell_partners(self) -> list[Event]:
        out: list[Event] = []
        done: set[frozenset[int]] = set()
        for seat in self.roster.seats:
            partners = partners_of(self.roster, seat, self.knows)
            if not partners:
                continue
            group = frozenset([seat, *partners])
            role = self.roster.role(seat) or ""
            if group not in done:  # logged for the members who are told: knowing may go one way only
                done.add(group)
                told = [m for m in sorted(group) if partners_of(self.roster, m, self.knows)]
                out.append(team_event("partners", told, role=role, seats=sorted(group)))
            out.append(say(seat_audience(seat), "partners", role=self.role_name(role), seats=partners))
        return out

    # -- routing ----------------------------------------------------------------
    def _hand(self, seat: int, tag: str, t: float) -> list[Event]:
        card = parse_card(tag, self.card_set, self.card_kind, self.teams)
        if card:
            if self.phase != self.DEAL and self.roster.role(seat) and self.deal.cards.get(seat) == card:
                return [say(seat_audience(seat), "your-role", role=self.role_name(card[0]))] + self.role_told(seat)
            if self.phase != self.DEAL:
                return refusal(seat, "role cards are scanned only at the deal", "not-now")
            return self._scan_card(seat, card[0], card[1], t)
        if tag == "cmd:hint":
            return self.hint(seat)
        if self.phase == self.DEAL and self.roster.role(seat):  # its card is in: the others' are not
            return refusal(seat, "the deal is not over yet", "deal-waiting")
        if self.phase == self.DEAL:
            return refusal(seat, "scan your role card first", "scan-role-first")
        if not self.roster.is_alive(seat) and not self.dead_may_act(seat, tag):
            return refusal(seat, "you have left the game", "you-are-out")
        if tag.startswith("seat:"):
            target = int(tag[5:])
            return self.on_choose(seat, target, t)
        if tag.startswith("cmd:"):
            return self.on_command(seat, tag[4:], t)
        return refusal(seat, f"{tag} has no use now", "not-now")

    def _console(self, line: str, t: float) -> list[Event]:
        self.console_line = line[:MAX_LINE]  # the raw line, for commands that carry text
        words = line.split()[:MAX_WORDS]
        if words and words[0].lower() not in {c.name for c in self.console_commands}:
            own = self.on_console(words, t)  # a game still parsing its own lines
            if own is not None:
                return own
        return dispatch(self, self.console_commands, self.console_line, t, self.players)

    # the layer's console commands (the table: `console_commands`)
    def console_stop(self, t: float) -> list[Event]:
        return self.finish("void", "stopped")

    def console_next(self, t: float) -> list[Event]:
        if self.phase == self.DEAL:
            return [error("next: the deal ends when every seat has scanned its role card", private=REFEREE)]
        since = t - self.moved_at
        if 0 <= since < self.next_settle:  # typed for the step a scan has just ended
            return [error(f"next: a scan moved the game on {since:.1f} s ago; listen to where it stands, "
                          "then type next again", private=REFEREE)]
        return self.on_next(t)

    def console_hint(self, t: float, seat: int) -> list[Event]:
        return self.hint(seat)

    def console_act(self, t: float, seat: int, target: int) -> list[Event]:
        return self._hand(seat, f"seat:{target}", t)

    def console_yes(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:yes", t)

    def console_no(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:no", t)

    def console_ok(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:ok", t)
