"""イントリーゲ as the controller enforces it (docs/rules/intrigue.md).

A turn of seat S, clockwise from seat 1:

1. income: the bank pays S for each of S's advisors employed in another mansion;
2. hiring: every advisor waiting in S's garden (and, in a conflict, the one
   already employed in that role) is offered for, one after another, and
   each confirmed bribe goes to S at once, kept in every case; then S places
   them, the non-conflicting first, then each conflict from the highest-paid
   section down (a conflict of newcomers only comes last), and the advisors
   a conflict does not keep leave the game;
3. dispatch: S sends two advisors from its hand to two different other
   gardens (none in the last round).

The board (who sits where, who waits where, whose turn, which step) is
public: it is announced as it changes and `hint` repeats it.  Cash is not:
every balance travels in a `cash` event private to its owner, and every
refusal that could hint at a balance is spoken only to the seat it refuses.
"""
from __future__ import annotations

import math
import random

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.game import (TABLE, choices, Command, dispatch, error, event, Event, hints, Input,
                           line, Line, own_set, Play, refusal, say, seat_audience, stop_command)

from .machine import PHASES, STATES
from .editions import COPIES, Edition
from .options import OPTIONS, edition_from_options
from .pieces import advisor_of, advisor_tag, parse_advisor, parse_section, section_tag

HAND, GARDEN, SECTION, OUT = "hand", "garden", "section", "out"


@dataclass
class Place:
    """Where one advisor is: in its owner's hand, in a garden, in a section, or out of the game."""

    kind: str
    mansion: int = 0
    section: int = 0


@dataclass
class Group:
    """Advisors settled together: one non-conflicting newcomer, or all advisors of one role in conflict."""

    role: str
    advisors: list[str]
    employed: str | None = None  # the advisor already in a section, if any

    @property
    def conflict(self) -> bool:
        return len(self.advisors) > 1


#: The referee's console commands (the declaration's table; `dispatch` parses by it).
COMMANDS = (
    Command("act SEAT TARGET", "dispatch: seat SEAT scans seat:TARGET (after choosing an advisor)", "console_act"),
    Command("place SEAT ADVISOR K", "owner SEAT places ADVISOR (a tag) in section K", "console_place"),
    Command("send SEAT ADVISOR TARGET", "seat SEAT sends ADVISOR (a tag) to seat TARGET's garden",
            "console_send"),
    Command("bribe SEAT", "seat SEAT raises its offer by one step", "console_bribe"),
    Command("ok SEAT", "seat SEAT confirms its offer", "console_ok"),
    Command("next", "confirm the current offer as it stands", "console_next"),
    Command("hint SEAT", "tell seat SEAT the board and its own cash", "console_hint"),
    stop_command("console_stop"))
PLAYERS = range(4, 6)


class IntrigueGame(Play):
    """One play of Intrige: plain state, the turn's steps on a `transitions` machine."""

    state: str  # the phase, moved by `PHASES.fire`

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        Play.__init__(self, players, options)
        if players not in PLAYERS:
            raise ValueError(f"Intrige is played by 4 or 5 players, not {players}")
        self.ed: Edition = edition_from_options(self.options)
        self.seats = tuple(range(1, players + 1))
        self.cash = dict.fromkeys(self.seats, self.ed.start_cash)
        self.where: dict[str, Place] = {
            advisor_tag(s, r, c): Place(HAND, s)
            for s in self.seats for r in self.ed.roles for c in range(1, COPIES + 1)
        }
        self.gardens: dict[int, list[str]] = {s: [] for s in self.seats}
        self.sections: dict[int, dict[int, str]] = {s: {} for s in self.seats}
        self.round = 1
        first: int = OPTIONS.parse(players, self.options)["first"]
        if not 1 <= first <= players:
            raise ValueError(f"first must be a seat 1-{players}, not {first}")
        #: The seat that begins every round (the option `first`; default seat 1).
        self.first = first
        self.turn = first
        self.now = 0.0  # the time of the input being handled: a dial's start hangs on it
        self.groups: list[Group] = []  # this turn's settlement order
        self.bids: list[str] = []  # advisors still to be offered for, in order
        self.taps = 0
        self.chosen: str | None = None  # the advisor scanned, waiting for a section or a seat token
        self.sent_to: list[int] = []
        self.to_send = 0
        self.result: dict[str, Any] | None = None
        self._out: list[Event] = []
        PHASES.attach(self)

    # -- the play protocol ---------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state == "over"

    def start(self, t: float) -> list[Event]:
        out = self._out = []
        self._announce("start", edition=self.ed.name, rounds=self.ed.rounds, start_cash=self.ed.start_cash,
                       players=len(self.seats), bribes=self.ed.bribes)
        for s in self.seats:
            self._whisper_cash(s)
        self._out.append(event("round", round=self.round))
        self._announce("round", round=self.round)
        self._begin_turn()
        self._out = []
        return out

    def handle(self, inp: Input) -> list[Event]:
        out = self._out = []
        self.now = inp.t
        if self.over:
            out.append(error("the game is over"))
        elif inp.console is not None:
            out += dispatch(self, COMMANDS, inp.console, inp.t, len(self.seats))
        elif inp.timer is not None:
            out.append(error(f"no timer named {inp.timer!r} in Intrige"))
        elif inp.tag is None or inp.removed:
            pass  # lifting a piece off a reader means nothing here
        elif inp.reader != "hand" or inp.seat is None:
            self._out += refusal(None, "Intrige is played on the hand readers", "hand-reader-only")
        else:
            self._scan(inp.seat, inp.tag)
        self._out = []
        return out

    def answered(self, answer: choices.Answer) -> list[Event]:
        """The seat token that answers "send it where?" (the runtime's pending choice)."""
        out = self._out = []
        if isinstance(answer.value, int) and not isinstance(answer.value, bool):
            self._send(answer.seat, answer.value, asked=False)
        self._out = []
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.state, "round": self.round, "turn": self.turn, "edition": self.ed.name,
            "cash": dict(self.cash),
            "hands": {s: self.hand(s) for s in self.seats},
            "gardens": {s: list(g) for s, g in self.gardens.items()},
            "sections": {s: dict(sec) for s, sec in self.sections.items()},
            "out": sorted(t for t, p in self.where.items() if p.kind == OUT),
            "bids": list(self.bids), "taps": self.taps, "chosen": self.chosen,
            "result": self.result,
        }

    def hand(self, seat: int) -> list[str]:
        return [t for t, p in self.where.items() if p.kind == HAND and p.mansion == seat]

    # -- speaking --------------------------------------------------------------
    def _announce(self, key: str, /, **params: Any) -> None:
        self._out.append(say(TABLE, key, **params))

    def _tell(self, to: int, key: str, /, **params: Any) -> None:
        self._out.append(say(seat_audience(to), key, **params))

    def _whisper_cash(self, seat: int) -> None:
        self._out.append(event("cash", seat=seat, cash=self.cash[seat], private=seat_audience(seat)))
        self._tell(seat, "cash", cash=self.cash[seat])

    @staticmethod
    def _who(tag: str) -> dict[str, Any]:
        """An advisor as the phrases speak it: its owner's seat and its role (the copy looks the same)."""
        a = advisor_of(tag)
        return {"seat": a.owner, "role": a.role, "advisor": tag}

    # -- a turn ------------------------------------------------------------------
    def _income_of(self, seat: int) -> int:
        return sum(self.ed.incomes[p.section - 1] for t, p in self.where.items()
                   if p.kind == SECTION and p.mansion != seat and t.startswith(f"intrigue:advisor-{seat}-"))

    def _pay_income(self, seat: int) -> None:
        amount = self._income_of(seat)
        self._out.append(event("income", seat=seat, amount=amount))
        if amount:
            self.cash[seat] += amount
            self._announce("income", seat=seat, amount=amount)
            self._whisper_cash(seat)

    def _begin_turn(self) -> None:
        PHASES.fire(self, "begin_turn")
        self.chosen, self.taps, self.sent_to = None, 0, []
        self._out.append(event("turn", seat=self.turn))
        self._announce("turn", seat=self.turn)
        self._pay_income(self.turn)
        self.groups = self._settlement_order(self.turn)
        if self.groups:
            self.bids = [t for g in self.groups for t in g.advisors]
            PHASES.fire(self, "call_offers")
            self._call_offer()
        else:
            self._after_hiring()

    def _settlement_order(self, owner: int) -> list[Group]:
        """Non-conflicting newcomers in the order sent; then conflicts, the highest-paid
        section's first; then conflicts among newcomers only, in the order sent."""
        waiting = self.gardens[owner]
        employed = {advisor_of(t).role: t for t in self.sections[owner].values()}
        by_role: dict[str, list[str]] = {}
        for t in waiting:
            by_role.setdefault(advisor_of(t).role, []).append(t)
        singles, held, fresh = [], [], []
        for role, ts in by_role.items():
            if role in employed:
                held.append(Group(role, [employed[role], *ts], employed[role]))
            elif len(ts) > 1:
                fresh.append(Group(role, ts))
            else:
                singles.append(Group(role, ts))
        held.sort(key=lambda g: (-self.ed.incomes[self.where[employed[g.role]].section - 1],
                                 -self.where[employed[g.role]].section))
        return singles + held + fresh

    def _group_of(self, tag: str) -> Group | None:
        return next((g for g in self.groups if tag in g.advisors), None)

    # -- offers --------------------------------------------------------------------
    def _offer_call(self) -> Line:
        """The speaker's call for the offer awaited now."""
        tag = self.bids[0]
        g = self._group_of(tag)
        assert g is not None
        key = "offer-call-employed" if tag == g.employed else "offer-call"
        return line(key, owner=self.turn, conflict=g.conflict, **self._who(tag))

    def _call_offer(self) -> None:
        tag = self.bids[0]
        g = self._group_of(tag)
        assert g is not None
        self.taps = 0
        if g.conflict and tag == g.advisors[0]:
            self._announce("conflict", owner=self.turn, role=g.role, count=len(g.advisors))
        key, params = self._offer_call()
        self._announce(key, **params)
        if self.ed.bribes == "hidden":
            bidder = advisor_of(tag).owner
            self.taps = self._dial_start(bidder)
            self._tell(bidder, "offer-dial", amount=self.taps * self.ed.step, top=self._dial_top() * self.ed.step)

    def _most(self, seat: int) -> int:
        """The most steps this seat can offer (its cash, in whole steps)."""
        return self.cash[seat] // self.ed.step

    def _dial_top(self) -> int:
        """The hidden-bribe dial's last position, in steps: the starting cash, the same for
        every bidder all game.  A dial wrapping at the bidder's own cash made the taps'
        spread tell the cash, and the cash the amount (docs/intrigue.md, the watcher)."""
        return max(1, self.ed.start_cash // self.ed.step)

    def _dial_start(self, seat: int) -> int:
        """Cover for hidden bribes (docs/intrigue.md): the offer is a dial that starts
        where nobody but the bidder hears, so the number of BRIBE taps says nothing of
        the amount.  Replays draw the same: the draw hangs on the table's secret `seed`
        option, the moment of the call and every seat's cash (known whole to nobody)."""
        lot = random.Random(repr((self.options.get("seed", 0), self.now, sorted(self.cash.items()), self.bids)))
        return lot.randint(0, self._dial_top())

    def _bribe_tap(self, seat: int) -> None:
        bidder = advisor_of(self.bids[0]).owner
        if seat != bidder:
            self._out += refusal(seat, f"seat {seat} is not the one offering now", "not-your-offer")
        elif self.ed.bribes == "hidden":  # the dial: one step up, past its top back to nothing
            self.taps = (self.taps + 1) % (self._dial_top() + 1)
            over = self.taps > self._most(seat)
            self._tell(seat, "offer-dial-over" if over else "offer-raised", amount=self.taps * self.ed.step)
        elif (self.taps + 1) * self.ed.step > self.cash[seat]:
            self._out += refusal(seat, f"seat {seat} cannot offer more", "offer-beyond-cash")
        else:
            self.taps += 1
            self._tell(seat, "offer-raised", amount=self.taps * self.ed.step)

    def _confirm_offer(self, seat: int) -> None:
        tag = self.bids[0]
        bidder = advisor_of(tag).owner
        if seat != bidder:
            self._out += refusal(seat, f"seat {seat} is not the one offering now", "not-your-offer")
            return
        amount, owner = self.taps * self.ed.step, self.turn
        if amount > self.cash[seat]:  # a hidden dial left past the bidder's cash: tap on
            self._out += refusal(seat, f"seat {seat} cannot offer {amount}: more than its cash", "offer-over-cash")
            return
        who = self._who(tag)
        if self.ed.bribes == "open":
            self._out.append(event("offer", seat=seat, advisor=tag, amount=amount))
            self._announce("offer-made" if amount else "offer-nothing", amount=amount, owner=owner, **who)
        else:
            group = [seat_audience(seat), seat_audience(owner)]
            self._out.append(event("offer", seat=seat, advisor=tag, amount=amount, private=group))
            self._announce("offer-hidden", owner=owner, **who)
            for s in (seat, owner):
                self._tell(s, "offer-made" if amount else "offer-nothing", amount=amount, owner=owner, **who)
        if amount:
            self.cash[seat] -= amount
            self.cash[owner] += amount
            self._whisper_cash(seat)
            self._whisper_cash(owner)
        self.bids.pop(0)
        self.taps = 0
        if self.bids:
            self._call_offer()
        else:
            PHASES.fire(self, "call_placing")
            self._announce("place-call", owner=self.turn)
            self._call_next_conflict()

    # -- placing ---------------------------------------------------------------------
    def _pending(self) -> list[Group]:
        return [g for g in self.groups if any(self.where[t].kind == GARDEN for t in g.advisors)]

    def _current(self) -> tuple[list[Group], Group | None]:
        """(non-conflicting groups still to place, the conflict to settle now or None)."""
        pending = self._pending()
        singles = [g for g in pending if not g.conflict]
        return singles, (None if singles else next((g for g in pending if g.conflict), None))

    def _conflict_call(self) -> Line | None:
        """The call to settle the conflict that is next, once the non-conflicting are placed."""
        singles, conflict = self._current()
        if singles or conflict is None:
            return None
        return line("settle-conflict", owner=self.turn, role=conflict.role, count=len(conflict.advisors))

    def _call_next_conflict(self) -> None:
        call = self._conflict_call()
        if call is not None:
            _, conflict = self._current()
            assert conflict is not None
            self._out.append(event("conflict", owner=self.turn, role=conflict.role,
                                   advisors=list(conflict.advisors)))
            self._announce(call[0], **call[1])

    def _choose_to_place(self, seat: int, tag: str) -> None:
        group = self._group_of(tag)
        singles, conflict = self._current()
        if group is None or group not in self._pending() or (
                group.employed != tag and self.where[tag].kind != GARDEN):
            self._out += refusal(seat, f"{tag} is not to be placed in seat {seat}'s mansion", "not-in-garden")
        elif group.conflict and singles:
            self._out += refusal(seat, "the advisors without a conflict are placed first", "settle-free-first")
        elif group.conflict and group is not conflict:
            self._out += refusal(seat, "conflicts are settled from the highest-paid section down", "conflict-order",
                                 role=conflict.role if conflict else group.role)
        else:
            self.chosen = tag
            self._tell(seat, "place-chosen", **self._who(tag))

    def _place(self, seat: int, k: int) -> None:
        tag = self.chosen
        if tag is None:
            self._out += refusal(seat, f"seat {seat} scanned a section before an advisor", "choose-advisor-first")
            return
        group = self._group_of(tag)
        assert group is not None
        mansion = self.sections[seat]
        if group.employed is not None:
            home = self.where[group.employed].section
            if k != home:
                self._out += refusal(seat, f"the {group.role} conflict is settled in section {home}", "conflict-section",
                                     section=home)
                return
        elif k in mansion:
            self._out += refusal(seat, f"section {k} is taken", "section-taken", section=k)
            return
        self.chosen = None
        for loser in group.advisors:
            if loser != tag:
                self._leave(seat, loser)
        if tag == group.employed:
            self._out.append(event("hire", owner=seat, advisor=tag, section=k, kept=True))
            self._announce("kept", owner=seat, section=k, income=self.ed.incomes[k - 1], **self._who(tag))
        else:
            self.gardens[seat].remove(tag)
            self.where[tag] = Place(SECTION, seat, k)
            mansion[k] = tag
            self._out.append(event("hire", owner=seat, advisor=tag, section=k))
            self._announce("hired", owner=seat, section=k, income=self.ed.incomes[k - 1], **self._who(tag))
        if self._pending():
            self._call_next_conflict()
        else:
            self._after_hiring()

    def _leave(self, owner: int, tag: str) -> None:
        place = self.where[tag]
        if place.kind == SECTION:
            del self.sections[owner][place.section]
        else:
            self.gardens[owner].remove(tag)
        self.where[tag] = Place(OUT)
        self._out.append(event("dismiss", owner=owner, advisor=tag))
        self._announce("dismissed", owner=owner, **self._who(tag))

    # -- dispatch --------------------------------------------------------------------------
    def _after_hiring(self) -> None:
        self.to_send = 0 if self.round >= self.ed.rounds else min(2, len(self.hand(self.turn)))
        if self.to_send:
            PHASES.fire(self, "call_dispatch")
            self._announce("dispatch-call", seat=self.turn, count=self.to_send)
        else:
            self._end_turn()

    def _choose_to_send(self, seat: int, tag: str) -> None:
        place = self.where.get(tag)
        if place is None or place.kind != HAND or place.mansion != seat:
            self._out += refusal(seat, f"{tag} is not in seat {seat}'s hand", "not-in-hand")
        else:
            self.chosen = tag
            self._ask_target(seat)

    def _ask_target(self, seat: int) -> None:
        """Where to send the chosen advisor: a seat token, taken by the runtime (`kikimimi.contract.choices`).
        Every seat answers it, its own too, so that a wrong mansion is refused with the rule's
        own words (`_send`) and then asked again."""
        self._out.append(choices.ask_seat(seat, "send", "send-chosen", among=self.seats, **self._who(self.chosen or "")))

    def _send(self, seat: int, target: int, asked: bool = True) -> None:
        """`asked`: the runtime may still hold the question (the console's `act`/`send` came
        another way), so a send takes it back; an answer to it settled it already."""
        tag = self.chosen
        if tag is None:
            self._out += refusal(seat, f"seat {seat} scanned a seat token before an advisor", "choose-advisor-first")
        elif target == seat or target in self.sent_to:
            if target == seat:
                self._out += refusal(seat, "an advisor is never sent to its own mansion", "not-own-garden")
            else:
                self._out += refusal(seat, f"seat {seat} has already sent an advisor to seat {target}",
                                     "different-mansion", target=target)
            if not asked:  # the answer settled the question: ask it again
                self._ask_target(seat)
        else:
            if asked:
                self._out.append(choices.cancel(seat))
            self.chosen = None
            self.where[tag] = Place(GARDEN, target)
            self.gardens[target].append(tag)
            self.sent_to.append(target)
            self.to_send -= 1
            self._out.append(event("dispatch", seat=seat, advisor=tag, target=target))
            self._announce("dispatched", target=target, **self._who(tag))
            if self.to_send:
                self._announce("dispatch-again", seat=seat)
            else:
                self._end_turn()

    def _end_turn(self) -> None:
        nxt = self.turn % len(self.seats) + 1
        if nxt == self.first:
            if self.round >= self.ed.rounds:
                self._final()
                return
            self.round += 1
            self._out.append(event("round", round=self.round))
            self._announce("round", round=self.round)
        self.turn = nxt
        self._begin_turn()

    # -- the end ------------------------------------------------------------------------------
    def _final(self) -> None:
        self._announce("final-income")
        for s in self.seats:
            self._pay_income(s)
        self._game_over("end")

    def _game_over(self, reason: str) -> None:
        ranking = [{"seat": s, "place": 1 + sum(1 for o in self.seats if self.cash[o] > self.cash[s]),
                    "cash": self.cash[s]} for s in self.seats]
        ranking.sort(key=lambda e: (e["place"], e["seat"]))
        for e in ranking:
            e["won"] = e["place"] == 1
        self.result = {"reason": reason, "ranking": ranking}
        PHASES.fire(self, "finish")
        self._out.append(event("game-over", reason=reason, ranking=ranking))
        self._announce(f"game-over-{reason}")
        for e in ranking:
            self._announce("rank", place=e["place"], seat=e["seat"], cash=e["cash"])

    # -- what a seat hears on request -------------------------------------------------------------
    def sight(self, seat: int) -> list[Line]:
        """Everything a sighted player sees on the board now (public lines; `seat` is the one asking)."""
        lines: list[Line] = [("hint-turn", {"round": self.round, "rounds": self.ed.rounds, "turn": self.turn,
                                            "step": self.state})]
        if self.state == "offers":
            lines.append(("hint-offer", {"owner": self.turn, **self._who(self.bids[0])}))
        for m in self.seats:
            sections = self.sections[m]
            if not sections and not self.gardens[m]:
                lines.append(("hint-empty", {"owner": m}))
            for k in sorted(sections):
                lines.append(("hint-section", {"owner": m, "section": k, "income": self.ed.incomes[k - 1],
                                               **self._who(sections[k])}))
            lines += [("hint-garden", {"owner": m, **self._who(t)}) for t in self.gardens[m]]
        return lines

    def own(self, seat: int) -> list[Line]:
        """What only the asking seat may hear after the board: its hand and its cash."""
        roles = [advisor_of(t).role for t in self.hand(seat)]
        return [line("hint-hand", count=len(roles), roles=roles), line("cash", cash=self.cash[seat])]

    def situation(self) -> list[Event]:
        """Where the table stands, on the speaker (after an undo, a resume or a reader coming back):
        whose turn, and the call that is waiting to be answered."""
        if self.over:
            return []
        lines = [line("turn", seat=self.turn)]
        if self.state == "offers":
            lines.append(self._offer_call())
        elif self.state == "placing":
            lines.append(line("place-call", owner=self.turn))
            conflict = self._conflict_call()
            lines += [conflict] if conflict else []
        elif self.state == "dispatching":
            lines.append(line("dispatch-call", seat=self.turn, count=self.to_send))
        return hints.situation(lines)

    def _identify(self, seat: int, tag: str) -> None:
        """A piece scanned when it is no move: the player asks what it is (the pieces look alike by touch)."""
        a = parse_advisor(tag)
        k = parse_section(tag)
        if a is not None:
            self._tell(seat, "piece-advisor", **self._who(tag))
        elif k is not None:
            self._tell(seat, "piece-section", section=k, income=self.ed.incomes[k - 1])

    # -- inputs ------------------------------------------------------------------------------------
    def _scan(self, seat: int, tag: str) -> None:
        if tag in ("cmd:bribe", "cmd:ok"):
            if self.state != "offers":
                self._out += refusal(seat, "no offer is being made now", "no-offer-now")
            elif tag == "cmd:bribe":
                self._bribe_tap(seat)
            else:
                self._confirm_offer(seat)
        elif tag.startswith("seat:"):
            if self.state != "dispatching" or seat != self.turn:
                self._out += refusal(seat, f"seat {seat} cannot send an advisor now", "not-now")
            else:
                self._send(seat, int(tag[5:]))
        else:
            self._piece(seat, tag)

    def _piece(self, seat: int, tag: str) -> None:
        a, k = parse_advisor(tag), parse_section(tag)
        if (a is not None and a.role not in self.ed.roles) or (k is not None and k > self.ed.sections):
            self._out += refusal(seat, f"{tag} is not used in the {self.ed.name} edition", "not-this-edition")
        elif seat != self.turn or self.state not in ("placing", "dispatching"):
            self._identify(seat, tag)
        elif self.state == "placing":
            if k is None:
                self._choose_to_place(seat, tag)
            else:
                self._place(seat, k)
        elif a is not None:
            self._choose_to_send(seat, tag)
        else:
            self._identify(seat, tag)

    # -- the referee's console (the table: `COMMANDS`): the readers' acts, seat first ----------
    def console_act(self, t: float, seat: int, target: int) -> None:
        self._scan(seat, f"seat:{target}")

    def console_place(self, t: float, seat: int, advisor: str, section: str) -> None:
        tag, k = self._tag(advisor), self._section(section)
        if tag is not None and k is not None:
            self._scan(seat, tag)
            if self.chosen == tag:
                self._scan(seat, section_tag(k))

    def console_send(self, t: float, seat: int, advisor: str, target: int) -> None:
        tag = self._tag(advisor)
        if tag is not None:
            self._scan(seat, tag)
            if self.chosen == tag:
                self._scan(seat, f"seat:{target}")

    def console_bribe(self, t: float, seat: int) -> None:
        self._scan(seat, "cmd:bribe")

    def console_ok(self, t: float, seat: int) -> None:
        self._scan(seat, "cmd:ok")

    def console_hint(self, t: float, seat: int) -> None:
        self._out += hints.hint(self, seat)

    def console_next(self, t: float) -> None:
        if self.state == "offers":
            if self.ed.bribes == "hidden":  # the dial's start was the lot's, never the bidder's choice
                self.taps = 0
            self._confirm_offer(advisor_of(self.bids[0]).owner)
        else:
            self._out.append(error("next: no offer is being made now"))

    def console_stop(self, t: float) -> None:
        self._game_over("stopped")

    def _section(self, word: str) -> int | None:
        if word.isascii() and word.isdigit() and len(word) <= 2 and 1 <= int(word) <= self.ed.sections:
            return int(word)
        self._out.append(error(f"no section {word[:10]!r} (1 to {self.ed.sections})"))
        return None

    def _tag(self, word: str) -> str | None:
        tag = word if word.startswith("intrigue:") else f"intrigue:{word}"
        if tag in self.where or parse_section(tag) is not None:
            return tag
        self._out.append(error(f"no piece {word[:60]!r} in this game"))
        return None




#: What each player holds beside its seat tokens (the declaration's `command_tags`).
COMMAND_TAGS = ("bribe", "ok", "hint", "agree")


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Each player's seat tokens and offer tags; the advisors (each player's own, laid
    out in the open) and the section tokens are the table's."""
    ed = edition_from_options(options)
    advisors = [advisor_tag(s, r, c) for s in range(1, players + 1) for r in ed.roles for c in range(1, COPIES + 1)]
    return own_set(players, COMMAND_TAGS), advisors + [section_tag(k) for k in range(1, ed.sections + 1)]


def phrase_values(players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
    """What each phrase parameter can be at this table, so its clips are rendered before play.

    Money is any multiple of the edition's unit: balances up to eight times the starting
    cash (the bots' richest seat ends near seven), offers as the taps raise them, and the
    table-wide offer line up to as many steps as the voice's limit allows at this table.
    A section and its income go together ("section,income"), so no text pairs a section
    with another's income.  Left to render when said: the final ranking with its balances,
    and a hand listed in a HINT."""
    from kikimimi.voice.domains import MAX_VARIANTS

    ed = edition_from_options(options)
    seats = list(range(1, players + 1))
    unit = math.gcd(ed.step, ed.start_cash, *ed.incomes) or 1
    money = range(0, min(8 * ed.start_cash // unit, MAX_VARIANTS // 3) * unit + 1, unit)
    incomes = range(0, (players - 1) * sum(ed.incomes) // unit * unit + 1, unit)
    most_steps = max(1, min(10, MAX_VARIANTS // (players * players * len(ed.roles))))
    return {
        "seat": seats, "owner": seats, "target": seats, "turn": seats, "place": seats,
        "players": [players], "role": list(ed.roles), "section": list(range(1, ed.sections + 1)),
        "section,income": [(k, ed.incomes[k - 1]) for k in range(1, ed.sections + 1)],
        "count": list(range(0, ed.advisors_each + 1)),
        "round": list(range(1, ed.rounds + 1)), "rounds": [ed.rounds], "step": list(STATES),
        "edition": [ed.name], "bribes": [ed.bribes], "start_cash": [ed.start_cash],
        "cash": money, "offer-raised.amount": range(0, money.stop, ed.step),
        "offer-dial.amount": range(0, money.stop, ed.step) if ed.bribes == "hidden" else [0],
        "offer-dial.top": [max(1, ed.start_cash // ed.step) * ed.step],
        "offer-dial-over.amount": range(0, max(1, ed.start_cash // ed.step) * ed.step + 1, ed.step),
        "offer-made.amount": [ed.step * k for k in range(0, most_steps)], "income.amount": incomes,
    }


__all__ = ["IntrigueGame", "COMMANDS", "PLAYERS", "kit", "phrase_values"]
