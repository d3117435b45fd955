"""闇に笑う魔女 (Witch laughing in the dark), as `docs/rules/witch.md` rules it.

The controller is the game master of the seed's chat game: roles dealt by
scanning, the day before, days whose talk costs virtual time, votes with one
revote, nights where every living player scans (the witches' Ba-Shiruura,
the mirror, the knight's guard, or cover) and settles in the seed's
priority order, and the win checked after every removal.  Speech and time
are `talk.py`; the night's priority rules `night.py`.  The shared
hidden-role machinery is `kikimimi.roles`; this module keeps only the rules.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import (REFEREE, TABLE, Command, deck_cards, error, event, Event, Input, line,
                           Line, own_set, refusal, say, seat_audience)
from kikimimi.roles import (HiddenRoleGame, Night, VirtualClock, Vote, assign_with_preferences, decide, settle,
                            team_event, team_say)

from . import night as night_rules
from .options import OPTIONS
from .rules import KNOWS, MAX_PLAYERS, MIN_PLAYERS, PHASES, TEAMS, finding
from .talk import Talk, width

#: Longest typed speech accepted (characters); a table speech is bounded by the clock.
MAX_SPEECH = 2000


class WitchGame(Talk, HiddenRoleGame):
    """One play of 闇に笑う魔女 on the hidden-role layer (the layer's settings first)."""

    PHASES = PHASES
    card_set = "witch"
    teams = TEAMS
    knows = KNOWS
    commands = ("advise", "exorcise", "silence", "pass")
    next_settle = 2.0  # docs/witch.md: a `next` typed just after a scan moved the game on
    console_commands = HiddenRoleGame.console_commands + (
        Command("speak SEAT TEXT", "seat SEAT says TEXT (costs time by characters; a full-width one counts 2)",
                "console_speak"),
        Command("deadroom SEAT TEXT", "seat SEAT speaks into the dead room (no time cost)", "console_deadroom"),
        Command("advise SEAT TARGET", "the human's speech-restraint advisory on TARGET", "console_advise"),
        Command("exorcise SEAT TARGET", "the priest marks TARGET for tonight's exorcism (once per game)",
                "console_exorcise"),
        Command("silence SEAT", "seat SEAT chooses silence", "console_silence"),
        Command("pass SEAT TARGET", "seat SEAT's day act is PASS (then TARGET's token, which does nothing)",
                "console_pass"),
        Command("silencecall", "a silence call: every living seat scans SILENCE or PASS (day_acts together)",
                "console_silencecall"),
        Command("nosilence SEAT", "seat SEAT answers the silence call with PASS", "console_nosilence"))

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.opts = OPTIONS.parse(players, self.options)
        self.setup_roles(self.opts["roles"])
        self.ready: set[int] = set()
        self.day_clock = VirtualClock(0)
        self.night_clock = VirtualClock(0)
        self.allowance: dict[int, VirtualClock] = {}
        self.cut: Counter[int] = Counter()  # permanent allowance lost to advisories
        self.pending_cut: Counter[int] = Counter()  # advisories of the day, felt from the next day
        self.advised: dict[int, int] = {}  # human -> target, today
        self.mark: int | None = None  # the priest's exorcism mark, today
        self.exorcism_used = False
        self.silenced: set[int] = set()
        self.silence_due = False  # a majority chose silence: the hour goes when its timer fires
        self.votes: list[Vote] = []
        self.talk_over = False
        self.armed: dict[int, str] = {}  # seat -> "advise" | "exorcise": its next seat scan
        self.mic: tuple[int, float, str, int] | None = None  # seat, since, phase, day
        self.night: Night | None = None
        self.voted_out: dict[int, int] = {}  # day -> seat voted out that day
        self.findings: dict[int, list[tuple[int, str]]] = {}
        self.fired: Counter[str] = Counter()
        self._tonight: int | None = None  # the exorcism that happens tonight
        self.acted: set[int] = set()  # the seats that made today's day act (`day_acts` together or acts)
        self.hush: dict[int, bool] | None = None  # the open silence call's answers (seat -> chose silence)
        self.confirmed: set[int] = set()  # the seats that scanned their last word this round
        self.last_word = False  # every act and ballot of this round is in: the last word is called

    # -- start and the day before ------------------------------------------------
    def start(self, t: float) -> list[Event]:
        out = super().start(t)
        prefs = self.opts["preferences"]
        if prefs:  # the referee hands the cards out accordingly; the scans remain the deal
            plan = assign_with_preferences(self.deal.deck, prefs, self.players, self.lot(t, "deal"))
            out.append(event("deal-plan", roles={str(s): r for s, r in sorted(plan.items())}, private=REFEREE))
        return out

    def on_dealt(self, t: float) -> list[Event]:
        return [self.enter("prologue", 0), say(TABLE, "prologue")]

    def _ready(self, seat: int, t: float) -> list[Event]:
        self.ready.add(seat)
        out = [say(seat_audience(seat), "ready-noted")]
        if self.ready >= set(self.roster.alive()):
            return out + self._day(1, t)
        return out

    # -- days ---------------------------------------------------------------------
    def _day(self, day: int, t: float) -> list[Event]:
        out = [self.enter("day", day)]
        alive = self.roster.alive()
        self.day_clock = VirtualClock(self.opts["day_minutes"])
        for seat, minutes in self.pending_cut.items():
            self.cut[seat] += minutes
        bonus = self.opts["island_bonus"] * max(0, 7 - len(alive))
        self.allowance = {s: VirtualClock(max(0, self.opts["allowance"] - self.cut[s] + bonus),
                                          grace=self.opts["overrun"]) for s in alive}
        self.votes = [Vote.open(alive)]
        self.talk_over, self.silenced, self.armed, self.advised, self.mark = False, set(), {}, {}, None
        self.acted = set()
        self.hush, self.confirmed, self.last_word = None, set(), False
        self.silence_due = False
        length = self.opts["day_minutes"]  # the dawn line says this table's day, not the seed's 12 hours
        out.append(say(TABLE, "day", day=day, alive=len(alive), hours=length // 60) if length % 60 == 0
                   else say(TABLE, "day-in-minutes", day=day, alive=len(alive), minutes=length))
        if bonus:
            out.append(say(TABLE, "island-bonus", minutes=bonus))
        for seat, minutes in sorted(self.pending_cut.items()):
            if seat in self.allowance:
                me = seat_audience(seat)
                out += [event("advisory", seat=seat, minutes=minutes, allowance=self.allowance[seat].length,
                              private=me),
                        say(me, "advised", minutes=minutes, allowance=self.allowance[seat].length)]
        self.pending_cut = Counter()
        return out + self._priest_finding(day)

    def _priest_finding(self, day: int) -> list[Event]:
        """From day 2 the priest learns whether yesterday's voted-out player was human or witch."""
        target = self.voted_out.get(day - 1)
        priests = self.roster.holders("priest", alive_only=True)
        if day < 2 or target is None or not priests:
            return []
        return self._tell_finding(priests[0], target, "priest")

    def _tell_finding(self, seat: int, target: int, how: str) -> list[Event]:
        found = finding(self.roster.role(target))
        self.findings.setdefault(seat, []).append((target, found))
        me = seat_audience(seat)
        return [event("result", seat=seat, target=target, found=found, by=how, private=me),
                say(me, f"{how}-result", target=target, found=f"found:{found}")]

    def on_choose(self, seat: int, target: int, t: float) -> list[Event]:
        if self.phase == "day":
            power = self.armed.pop(seat, None)
            if power in ("pretend", "pass"):  # cover: a power this seat lacks takes its target and does nothing
                self.acted.add(seat)
                key = "no-power-target" if power == "pretend" else "pass-noted"
                if not (self.votes and seat in self.votes[-1].ballots):  # no vote yet to stay unchanged
                    key += "-no-ballot"
                return [say(seat_audience(seat), key, seat=target)] + self._count_if_done(t)
            if power in ("advise", "exorcise"):
                out = self._advise(seat, target) if power == "advise" else self._exorcise(seat, target)
                if out and out[0].type == "error":  # a refused target: the power stays armed
                    self.armed[seat] = power
                    return out
                self.acted.add(seat)
                return out + self._count_if_done(t)
            return self._vote(seat, target, t)
        if self.phase == "night":
            return self._night_act(seat, target, t)
        return refusal(seat, f"nothing to choose in the {self.phase}", "not-now")

    def _vote(self, seat: int, target: int, t: float) -> list[Event]:
        vote = self.votes[-1]
        if self.at_calls:
            why_not = self._not_now_ballot(seat, vote)
            if why_not:
                return refusal(seat, why_not[0], why_not[1], seat=target)
        why = vote.refusal(seat, target)
        if why:
            return refusal(seat, "that vote is not allowed", why, seat=target)
        vote.cast(seat, target)
        key = "voted"
        if self.at_calls and self.last_word:
            self.confirmed.add(seat)
            key = "ballot-final"
        elif self.at_calls:
            key = "voted-call"
        return [say(seat_audience(seat), key, seat=target)] + self._count_if_done(t)

    def _not_now_ballot(self, seat: int, vote: Vote) -> tuple[str, str] | None:
        """With every motion at a call (docs/witch.md, "the same motions for silence and
        ballots"): a ballot is one seat token in the vote call (the first round: once the talk
        is over; a revote: from its call), and a change is only the last word, one more seat
        token every seat scans once.  A scan at any other time, or a second one, would be a
        motion the others do not make."""
        if vote.round == 1 and not self.talk_over:
            return "ballots are cast at the vote call", "vote-at-call"
        if self.last_word:
            return ("your ballot is final", "ballot-final-done") if seat in self.confirmed else None
        if seat in vote.ballots:
            return "one ballot now; you may change it at the last word", "ballot-cast"
        return None

    @property
    def together(self) -> bool:
        """Every living seat makes one day act a day (`day_acts` together or acts)."""
        return self.opts["day_acts"] in ("together", "acts")

    @property
    def at_calls(self) -> bool:
        """Every motion of the day is made in a call every living seat answers: silence at a
        silence call, the day act and the ballot at the vote call, a change at the last word."""
        return bool(self.opts["day_acts"] == "together")

    def _count_if_done(self, t: float) -> list[Event]:
        """The count comes when every ballot is in and, with `day_acts` together, every
        living seat has made its day act (a last act must not be told by a count that
        came before it) and scanned its last word."""
        if not self.votes[-1].complete:
            return []
        alive = set(self.roster.alive())
        if self.together and not alive <= self.acted:
            return []
        if self.at_calls:
            if not self.last_word:
                self.last_word = True
                return [event("last-word", round=self.votes[-1].round), say(TABLE, "last-word")]
            if not alive <= self.confirmed:
                return []
        return self._count(t)

    def _count(self, t: float) -> list[Event]:
        vote = self.votes[-1]
        out: list[Event] = [event("tally", round=vote.round,
                                  ballots={str(v): c for v, c in sorted(vote.ballots.items())},
                                  totals={str(c): n for c, n in vote.totals().items()}),
                            say(TABLE, "tally", round=vote.round)]
        out += [say(TABLE, "ballot", voter=v, seat=c) for v, c in sorted(vote.ballots.items())]
        totals = sorted(vote.totals().items(), key=lambda kv: (-kv[1], kv[0]))
        out += [say(TABLE, "total", seat=c, votes=n) for c, n in totals]  # the totals, as the CGI shows them
        if vote.round == 1:
            decision = decide(self.votes)
            if decision.seat is None and decision.how == "tie":
                self.votes.append(Vote.open(self.roster.alive(), round=2))
                self.confirmed, self.last_word = set(), False
                out.append(say(TABLE, "revote", seats=vote.leaders()))
                if self.at_calls:  # the motion expected of all: one ballot now, the last word after
                    out.append(say(TABLE, "revote-call"))
                elif self.talk_over:  # no time left to talk: straight to the ballots (the call
                    out.append(say(TABLE, "vote-now"))  # above names them already: said once)
                return out
        else:
            decision = decide(self.votes, ("cumulative", "lot"), self.lot(t, f"vote-{self.day}"))
        if decision.seat is None:  # the referee counted an empty ballot box
            return out + [say(TABLE, "nobody-out")] + self._nightfall(t)
        self.fired[f"vote-{decision.how}"] += 1
        if decision.how in ("lot", "cumulative"):  # a lot is said to be a lot
            out.append(say(TABLE, f"decided-by-{decision.how}", seat=decision.seat))
        seat = decision.seat
        self.voted_out[self.day] = seat
        out += self.remove({seat: f"vote-{decision.how}"}, "day", "voted-out")
        if self.mark is not None and self.roster.role(seat) == "priest":
            self.mark = None  # priority rule 4: the priest voted out, the exorcism is void
            self.fired["exorcism-void"] += 1
        return out if self.finished else out + self._nightfall(t)

    def _advise(self, seat: int, target: int) -> list[Event]:
        if not self.roster.is_alive(target) or target == seat:
            return refusal(seat, "advise another seat on the island", "not-on-island", seat=target)
        self.advised[seat] = target
        return [event("advise", seat=seat, target=target, private=seat_audience(seat)),
                say(seat_audience(seat), "advise-noted", seat=target)]

    def _exorcise(self, seat: int, target: int) -> list[Event]:
        if not self.roster.is_alive(target) or target == seat:
            return refusal(seat, "mark another seat on the island", "not-on-island", seat=target)
        self.mark = target
        return [event("exorcise", seat=seat, target=target, private=seat_audience(seat)),
                say(seat_audience(seat), "exorcise-noted", seat=target)]

    def on_command(self, seat: int, name: str, t: float) -> list[Event]:
        me = seat_audience(seat)
        role = self.roster.role(seat)
        if name == "ok" and self.phase == "prologue":
            return self._ready(seat, t)
        if self.phase != "day":
            return refusal(seat, f"cmd:{name} has no use in the {self.phase}", "not-now")
        if self.at_calls and name in ("silence", "pass") and self.hush is not None and seat not in self.hush:
            return self._answer_silence_call(seat, name == "silence", t)
        if name == "silence":
            if self.at_calls:  # silence is chosen only where every living seat answers
                why = "silence-answered" if self.hush is not None else "silence-at-call"
                return refusal(seat, "silence is chosen at a silence call", why)
            return self._silence(seat, t)
        if name in ("advise", "exorcise", "pass") and self.at_calls and not self.talk_over:
            # The same window for all: the day acts are made at the vote call.
            return refusal(seat, "day acts are made at the vote call", "act-at-call")
        if name in ("advise", "exorcise", "pass") and self.together:
            # Same motions (docs/witch.md): every living seat makes one day act a day, a
            # power or PASS, each a command tag and a seat token; the count waits for all.
            if seat in self.acted:
                return refusal(seat, "one day act a day", "act-done")
        if name == "pass":
            if not self.together:
                return refusal(seat, "cmd:pass has no use by day", "not-now")
            self.armed[seat] = "pass"
            return [say(me, "pass-armed")]
        if name in ("advise", "exorcise"):
            # Cover (docs/witch.md): every player holds both tags and may scan them with
            # a seat token after; for a seat without the power the pair does nothing, so
            # neither the scans nor what follows them show who has it.
            has = role == "human" if name == "advise" else role == "priest" and not self.exorcism_used
            if not has:
                self.armed[seat] = "pretend"
                return refusal(seat, f"no {name} power for this seat", "no-power")
            self.armed[seat] = name
            return [say(me, f"{name}-armed")]
        return refusal(seat, f"cmd:{name} has no use by day", "not-now")

    # -- silence calls (`day_acts` together) ---------------------------------------------
    def console_silencecall(self, t: float) -> list[Event]:
        """The referee calls for silence (at a quiet table, or when a player asks aloud):
        every living seat then scans SILENCE or PASS, and only the call's end is heard."""
        why = self._no_call()
        if why is not None:
            return [error(f"silencecall: {why[0]}", private=REFEREE)]
        return self._open_call("referee")

    def field_refusal(self) -> str:
        """Where SILENCE on the field asks for a silence call, the refusal names it too:
        "only seat tokens" would tell a player who never saw the reader a wrong rule."""
        return "field-seats-or-silence" if self.opts["day_acts"] == "together" else "field-seats-only"

    def on_field(self, inp: Input) -> list[Event]:
        """SILENCE on the field reader asks for a silence call (docs/witch.md, "asking for a
        call"): the table's public reader, so asking is as open as asking aloud, and a table
        with no screen and no referee can still call silence."""
        if inp.tag != "cmd:silence":
            return super().on_field(inp)
        if inp.removed:  # the tag taken back off the field: asked already
            return []
        why = self._no_call()
        if why is not None:
            return [error(f"field cmd:silence: {why[0]}", private=REFEREE), say(TABLE, why[1])]
        return self._open_call("field")

    def _no_call(self) -> tuple[str, str] | None:
        """Why no silence call can open now (the referee's reason, the speaker's line), or None:
        the same limits for the referee's command and a player's ask."""
        if not self.at_calls:
            return "at this table silence is scanned freely (day_acts)", "silence-ask-free"
        if self.phase != "day" or self.talk_over:
            return "only while the day's talk is on", "silence-ask-not-now"
        if self.hush is not None:
            return "a silence call is open", "silence-ask-open"
        return None

    def _open_call(self, by: str) -> list[Event]:
        # The speaker's line is the same whoever asked: it names nothing but the open call.
        self.hush = {}
        return [event("silence-call", open=True, by=by), say(TABLE, "silence-call")]

    def console_nosilence(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:pass", t)

    def _answer_silence_call(self, seat: int, silent: bool, t: float) -> list[Event]:
        """One seat's answer; at the last living seat's, the call closes: more than half chose
        silence, the day loses its hour (and another call may come the same day).  The end
        comes at the last answer whatever the answers were, so no scan shows a choice."""
        assert self.hush is not None
        self.hush[seat] = silent
        out = [say(seat_audience(seat), "silence-noted" if silent else "silence-passed")]
        alive = self.roster.alive()
        if not set(alive) <= set(self.hush):
            return out
        chose = sum(1 for s in alive if self.hush[s])
        self.hush = None
        out.append(event("silence-call", open=False))
        if 2 * chose <= len(alive):
            return out + [say(TABLE, "silence-call-over")]
        self.day_clock.shorten(self.opts["silence_minutes"])
        self.fired["silence"] += 1
        out += [event("silence", day_left=self.day_clock.left), say(TABLE, "silence", minutes=self.day_clock.left)]
        return out + self._talk_check()

    def _talk_check(self) -> list[Event]:
        """The day's time is up: the speaker names the motion expected of all (with every motion
        at a call, the whole vote call: act, ballot, last word; an open silence call ends)."""
        out = super()._talk_check()
        if not out or not self.together:
            return out
        self.hush = None
        call = "vote-now-all" if self.at_calls else "vote-now-acts"
        return [say(TABLE, call) if e.type == "say" and e.fields.get("key") in ("vote-now", "vote-now-acts") else e
                for e in out]

    # -- nights ---------------------------------------------------------------------
    def _nightfall(self, t: float) -> list[Event]:
        for human, target in sorted(self.advised.items()):
            if self.roster.is_alive(human) and self.roster.is_alive(target):
                self.pending_cut[target] += self.lot(t, f"advise-{self.day}-{human}").randint(
                    self.opts["advisory_min"], self.opts["advisory_max"])
                self.fired["advisory"] += 1
        exorcism = self.mark
        if exorcism is not None:
            self.exorcism_used = True
        self.mark = None
        self._tonight = exorcism
        kinds: dict[int, str | None] = {}
        for s in self.roster.alive():
            role = self.roster.role(s)
            kinds[s] = {"witch": "banish", "mirror": "mirror"}.get(role or "")
            if role == "knight" and self.day >= 2:
                kinds[s] = "guard"
        self.night = Night.open(self.roster.alive(), kinds, joint={"banish"}, final={"mirror"})
        self.night_clock = VirtualClock(self.opts["night_minutes"])
        self.armed = {}
        # the night's limit counts from when its announcement has been heard (docs/rules/witch.md)
        return [self.enter("night"), say(TABLE, "night", day=self.day)] + self.time_phase(self.opts["night_seconds"])

    def _night_act(self, seat: int, target: int, t: float) -> list[Event]:
        night = self.night
        assert night is not None
        me = seat_audience(seat)
        why = night.refusal(seat, target)
        kind = night.kind(seat)
        if not why and kind is not None and target == seat:
            why = "night-not-self"
        if not why and kind == "banish" and self.roster.role(target) == "witch":
            why = "banish-witch"
        if why:
            return refusal(seat, "not tonight", why, seat=target)
        night.choose(seat, target)
        if kind == "banish":
            witches = self.roster.holders("witch", alive_only=True)
            out = [team_event("banish", witches, seat=seat, target=target)]
            out += team_say(witches, "witches-chose", seat=target, by=seat)
        elif kind == "mirror":
            out = [event("mirror", seat=seat, target=target, private=me), say(me, "mirror-cast", seat=target)]
        elif kind == "guard":
            out = [event("guard", seat=seat, target=target, private=me), say(me, "guarding", seat=target)]
        else:
            out = [say(me, "night-scanned")]
        return out + (self._dawn(t) if night.complete else [])

    def _dawn(self, t: float) -> list[Event]:
        night = self.night
        assert night is not None
        self.night = None
        result = settle(night, night_rules.steps(self.roster, self._tonight))
        self.fired.update(result.fired)
        laughs = night.acts["banish"]
        out = self.phase_timer.stop()
        if laughs:
            out += [event("laughter", count=laughs), say(TABLE, "laughter", count=laughs)]
        out.append(event("night-rules", fired=dict(sorted(result.fired.items())), private=REFEREE))
        seen = result.notes.get("mirror")
        if seen:
            out += self._tell_finding(seen[0], seen[1], "mirror")  # type: ignore[index]
        key = "morning" if result.removed else "morning-quiet"
        out += self.remove(result.removed, "night", key) if result.removed else [say(TABLE, key)]
        return out if self.finished else out + self._day(self.day + 1, t)

    def stage(self) -> tuple[Any, ...]:
        return (*super().stage(), self.votes[-1].round if self.phase == "day" and self.votes else None)

    def on_next(self, t: float) -> list[Event]:
        if self.phase == "prologue":
            return self._day(1, t)
        if self.phase == "night":
            return self._dawn(t)
        if self.phase == "day":
            if not self.talk_over:
                self.day_clock.used = max(self.day_clock.used, self.day_clock.length + self.day_clock.grace)
                return self._talk_check()
            return self._count(t)  # ruling: the referee counts the ballots cast
        return super().on_next(t)

    # -- the end --------------------------------------------------------------------
    def decide_winner(self) -> str | None:
        alive = self.roster.alive()
        witches = self.roster.holders("witch", alive_only=True)
        imp = bool(self.roster.holders("imp", alive_only=True))
        if not witches:
            return "imp" if imp else "islanders"
        if 2 * len(witches) >= len(alive):
            return "imp" if imp else "witches"
        return None

    def finish(self, winner: str, reason: str) -> list[Event]:
        """The end, with its reason spoken; a stopped game is said to be stopped
        ("nobody (stopped) wins" was heard before)."""
        self.mic = None
        out = [self.enter("epilogue")] + super().finish(winner, reason)
        for n, ev in enumerate(out):
            if ev.type == "say" and ev.fields["key"] == "game-over":
                why = say(TABLE, f"why-{winner}") if winner != "void" else say(TABLE, "game-stopped")
                out[n:n + 1] = [why] if winner == "void" else [ev, why]
                break
        return out

    def seen(self) -> list[Line]:
        """Before day 1 there is no day number to say ("day 0" was heard)."""
        out = super().seen()
        if self.day == 0 and out and out[0][0] == "hint-phase":
            out[0] = line("hint-phase-only", phase=f"phase:{self.phase}")
        return out

    # -- console, hint, view ------------------------------------------------------------
    def console_speak(self, t: float, seat: int, text: str) -> list[Event]:
        if len(text) > MAX_SPEECH:
            return [error(f"speak: a speech is at most {MAX_SPEECH} characters", private=REFEREE)]
        if self.phase == self.DEAL:
            return refusal(seat, "scan your role card first", "scan-role-first")
        return self.speak(seat, width(text), t, text)

    def console_deadroom(self, t: float, seat: int, text: str) -> list[Event]:
        if len(text) > MAX_SPEECH:
            return [error(f"deadroom: a speech is at most {MAX_SPEECH} characters", private=REFEREE)]
        return self.dead_room(seat, text)

    def console_advise(self, t: float, seat: int, target: int) -> list[Event]:
        return self._armed_act(seat, "advise", target, t)

    def console_exorcise(self, t: float, seat: int, target: int) -> list[Event]:
        return self._armed_act(seat, "exorcise", target, t)

    def _armed_act(self, seat: int, cmd: str, target: int, t: float) -> list[Event]:
        """The command tag, then the target's token if the tag armed it (as on the reader)."""
        first = self._hand(seat, f"cmd:{cmd}", t)
        if self.armed.get(seat) not in (cmd, "pretend"):  # the pair as a table scans it, cover included
            return first
        return first + self._hand(seat, f"seat:{target}", t)

    def console_pass(self, t: float, seat: int, target: int) -> list[Event]:
        return self._armed_act(seat, "pass", target, t)

    def console_silence(self, t: float, seat: int) -> list[Event]:
        return self._hand(seat, "cmd:silence", t)

    def seen_more(self) -> list[Line]:
        """Public: who holds the microphone, the day's or the night's time, the vote's
        round, how many seats the prologue still waits for."""
        out: list[Line] = []
        if self._speaker() is not None:
            out.append(line("hint-mic", seat=self._speaker()))
        if self.phase == "day":
            out.append(line("hint-day", minutes=self.day_clock.left, round=self.votes[-1].round))
            if self.hush is not None:
                out.append(line("silence-call"))
            if self.at_calls and self.last_word:
                out.append(line("last-word"))
            elif self.talk_over:
                out.append(line("vote-now-all" if self.at_calls else "vote-now"))
        elif self.phase == "night":
            out.append(line("hint-night", minutes=self.night_clock.left))
        elif self.phase == "prologue":
            out.append(line("hint-prologue", waiting=len(set(self.roster.alive()) - self.ready)))
        return out

    def own_more(self, seat: int) -> list[Line]:
        """This seat's allowance and vote by day, whether it has scanned tonight, its
        findings, the priest's exorcism."""
        out: list[Line] = []
        if self.phase == "day":
            if seat in self.allowance:
                a = self.allowance[seat]
                out.append(line("hint-allowance", minutes=a.left, limit=a.length))
            mine = self.votes[-1].ballots.get(seat)
            out.append(line("hint-vote", seat=mine) if mine else line("hint-no-vote"))
            if self.hush is not None and seat in self.hush:
                out.append(line("hint-silence-answered"))
        elif self.phase == "night" and self.night:
            out.append(line("hint-scanned" if seat in self.night.scanned else "hint-scan-now"))
        for target, found in self.findings.get(seat, []):
            out.append(line("hint-finding", target=target, found=f"found:{found}"))
        if self.roster.role(seat) == "priest":
            out.append(line("hint-exorcism-used" if self.exorcism_used else "hint-exorcism-left"))
        return out

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        snap.update({
            "day_left": self.day_clock.left, "night_left": self.night_clock.left, "talk_over": self.talk_over,
            "allowance": {s: [a.left, a.length] for s, a in self.allowance.items()},
            "ballots": dict(self.votes[-1].ballots) if self.votes else {},
            "vote_round": self.votes[-1].round if self.votes else 0,
            "mic": self._speaker(), "mark": self.mark, "exorcism_used": self.exorcism_used,
            "night": dict(self.night.scanned) if self.night else None,
            "findings": {s: list(f) for s, f in self.findings.items()}, "fired": dict(self.fired),
        })
        return snap


#: What each player holds beside its seat tokens (the declaration's `command_tags`).
COMMAND_TAGS = ("ok", "hint", "advise", "exorcise", "silence", "pass", "agree")


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Everyone holds every power tag (docs/witch.md, cover): scanning EXORCISE
    must not show the priest, nor ADVISE a human."""
    deck = OPTIONS.parse(players, options)["roles"]
    return own_set(players, COMMAND_TAGS), deck_cards("witch", "role", deck)


def phrase_values(players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
    """Every value a phrase parameter takes at such a table, so what players hear in play
    (ballots, roles, the morning, the allowance after a speech) is rendered before the game.
    Left to render when said: typed speech, and the minute readouts of a HINT, a silence or an
    advisory (any minute of a 12-hour day: thousands of clips for a line said a few times)."""
    from kikimimi.voice.domains import seat_sets

    try:
        o = OPTIONS.parse(players, options)
    except ValueError:
        return {}
    seats = list(range(1, players + 1))
    counts = range(0, players + 1)
    bonuses = [o["island_bonus"] * k for k in range(1, 7)]  # seven or fewer on the island
    longest = o["allowance"] + bonuses[-1] + o["overrun"]
    everyone = seat_sets(seats) if players <= 8 else seat_sets(seats, 3)
    return {
        "seat": seats, "voter": seats, "by": seats, "target": seats,
        "role": [f"role:{r}" for r in sorted(TEAMS)], "partners.role": [f"role:{r}" for r in sorted(KNOWS)],
        "team": [f"team:{t}" for t in sorted({*TEAMS.values(), "void"})],
        "found": [f"found:{f}" for f in ("human", "witch")], "result": [f"found:{f}" for f in ("human", "witch")],
        "phase": [f"phase:{p}" for p in PHASES.names],
        "day": range(0, 2 * players + 2), "alive": counts, "count": counts,
        "waiting": counts, "seats": seat_sets(seats, 3), "partners.seats": seat_sets(seats, 2),
        "hint-alive.seats": everyone, "hint-out.seats": everyone, "revote.seats": everyone,
        "island-bonus.minutes": bonuses, "allowance-left.minutes": range(0, longest + 1),
        "hours": range(0, o["day_minutes"] // 60 + 1), "day.hours": [o["day_minutes"] // 60], "votes": counts,
        "day-in-minutes.minutes": [o["day_minutes"]],
    }
