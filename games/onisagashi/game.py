"""鬼探し at the table: the controller knows every hand and answers "have" for everyone.

The physical shuffle happens off-controller, so a deal is whatever the seats
scan, as long as it matches the public counts (`cards.hand_counts`); the
three cards nobody scanned are the answer.  A seat's assistant reasons from
that seat's own knowledge only (`knowledge.Knowledge`): the controller's view
of the other hands never reaches an earphone.

By ear: every declaration token put on the field is named on the speaker,
HINT speaks what a sighted player sees (round, turn, tokens, counts, raised
hands, scores) before the seat's own assistant, and a refusal never names a
card the table should not hear.
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import (REFEREE, TABLE, cancel_timer, Command, dispatch, error, event, Event,
                           hint_command, hints, Input, line, Line, own_set, Play, refusal, say,
                           seat_audience, set_timer_after_heard, stop_command)

from .machine import PHASES
from .cards import CARDS, CATEGORIES, CATEGORY_OF, card_tag, hand_counts, parse_tag, sort_cards, token_tag
from .knowledge import Declaration, Knowledge
from .options import OPTIONS
from .solver import ANSWER, Analysis


#: The timer between a third declaration token and the declaration (option `settle`).
SETTLE = "settle"
#: Both timers count from when the speaker has said its lines (the token's name; the
#: declaration, the "have" and the invitation), set with `set_timer_after_heard`: a 3 s
#: settle or an 8 s window that ran from the scan could end while the lines still play.
#: The speaker alone: a private line still playing in one earphone (an own card's refusal,
#: an assistant's answer) must not move a moment the whole table hears.
SPEAKER = (TABLE,)

#: The referee's console commands (the declaration's table; `dispatch` parses by it).
COMMANDS = (
    Command("deal", "deal the next round (or deal this round again after a misdeal)", "console_deal"),
    Command("raise SEAT", "raise that seat's hand in the window after a declaration", "console_raise"),
    Command("next", "say the declaration now (three tokens on the field), or close the raise-hand window", "console_next"),
    hint_command(), stop_command("console_stop"))


class OnisagashiGame(Play):
    """One play of 鬼探し: the hands as scanned, the declarations, the raise window, the score."""

    state: str  # the phase, moved by `PHASES.fire`

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.opts = OPTIONS.parse(players, self.options)
        self.rules: str = self.opts["rules"]
        self.counts = hand_counts(self.rules, players)
        self.points = {s: 0 for s in range(1, players + 1)}
        self.round = 0
        self.first = self.opts["first"]
        self.hands: dict[int, set[str]] = {}
        self.answer: tuple[str, str, str] | None = None
        self.history: list[Declaration] = []
        self.turn_seat = 0
        self.tokens: dict[int, str] = {}  # category -> card, on the field
        self.settling = False  # a third token lies on the field: the declaration is said at `SETTLE`
        self.raised: list[int] = []
        self.answering = 0
        self.guess: dict[int, str] = {}
        self._analyses: dict[tuple[int, int, int], Analysis] = {}
        self._last: dict[int, Analysis] = {}  # per seat, the latest built
        PHASES.attach(self)

    # -- the play protocol ------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state == "over"

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "start", rules=self.rules)] + self._begin_round()

    def handle(self, inp: Input) -> list[Event]:
        if self.over:
            return [error("the game is over")]
        if inp.timer is not None:
            if inp.timer == SETTLE:
                self.settling = False
                return self._declare(inp.t) if self.state == "declaring" and len(self.tokens) == 3 else []
            return self._close_window(inp.t) if inp.timer == "raise-window" and self.state == "window" else []
        if inp.console is not None:
            return dispatch(self, COMMANDS, inp.console, inp.t, self.players)
        if inp.removed:
            if inp.reader == "field" and self.state == "declaring":
                parsed = parse_tag(inp.tag or "")
                if parsed and parsed[0] == "token" and self.tokens.get(CATEGORY_OF[parsed[1]]) == parsed[1]:
                    del self.tokens[CATEGORY_OF[parsed[1]]]
                if self.settling and len(self.tokens) < 3:  # one of three taken back before the declaration
                    self.settling = False
                    return [cancel_timer(SETTLE)]
            return []
        tag = inp.tag or ""
        if inp.reader == "hand":
            seat = inp.seat or 0
            if tag == "cmd:raise":
                return self._raise(seat)
            parsed = parse_tag(tag)
            if parsed is None:
                return refusal(seat, f"{tag} has no use in onisagashi", "not-now")
            kind, card = parsed
            if kind == "card":
                return self._scan_card(seat, card)
            if self.state == "answering" and seat == self.answering:
                return self._answer_token(seat, card)
            return self._assist(seat, card)
        parsed = parse_tag(tag)
        if parsed is None or parsed[0] != "token":
            # the tag may be a card from someone's hand: only the referee learns which
            return [error(f"{tag} does not belong on the field", private=REFEREE),
                    say(TABLE, "field-tokens-only")]
        return self._declare_token(parsed[1], inp.t)

    def snapshot(self) -> dict[str, Any]:
        return {"state": self.state, "rules": self.rules, "round": self.round, "turn": self.turn_seat,
                "hands": {s: sort_cards(h) for s, h in self.hands.items()}, "answer": self.answer,
                "points": dict(self.points), "history": [
                    {"declarer": d.declarer, "cards": list(d.cards), "have": sorted(d.have)} for d in self.history],
                "tokens": [self.tokens[g] for g in sorted(self.tokens)], "raised": list(self.raised)}

    # -- knowledge --------------------------------------------------------------
    def knowledge(self, seat: int) -> Knowledge:
        """What `seat` knows: its own hand, the public counts and declarations."""
        return Knowledge(self.rules, self.players, seat, frozenset(self.hands.get(seat, ())),
                         tuple(self.history), self.counts)

    def analysis(self, seat: int) -> Analysis:
        key = (self.round, len(self.history), seat)
        if key not in self._analyses:
            self._analyses = {k: v for k, v in self._analyses.items() if k[:2] == key[:2]}
            # built on the seat's last one when it only lacks the newest declarations
            self._analyses[key] = self._last[seat] = Analysis.following(self.knowledge(seat), self._last.get(seat))
        return self._analyses[key]

    # -- the deal ---------------------------------------------------------------
    def _begin_round(self) -> list[Event]:
        self.round += 1
        self.hands = {s: set() for s in range(1, self.players + 1)}
        self.answer, self.history, self.tokens, self.raised, self.guess = None, [], {}, [], {}
        self.answering = 0
        sizes = {str(s): (sum(c) if self.rules == "beginner" else c[0]) for s, c in self.counts.items()}
        return [event("round", number=self.round, counts=sizes),
                say(TABLE, "scan-hand", round=self.round)]

    def _scan_card(self, seat: int, card: str) -> list[Event]:
        me = seat_audience(seat)
        if card in self.hands.get(seat, ()):
            return [say(me, "hand-card", card=card_tag(card))]
        if self.state == "between":
            return refusal(seat, "cards are scanned after the referee's deal", "deal-not-begun")
        if self.state != "dealing":
            return refusal(seat, "cards are scanned only during the deal", "deal-over")
        if any(card in h for h in self.hands.values()):
            return refusal(seat, "that card was already scanned into another hand", "already-scanned")
        g = CATEGORY_OF[card]
        want = self.counts[seat]
        mine = self.hands[seat]
        if self.rules == "beginner" and sum(CATEGORY_OF[c] == g for c in mine) >= want[g]:
            return refusal(seat, f"seat {seat} already holds its {CATEGORIES[g]} cards", "too-many-kind")
        if self.rules == "advanced" and len(mine) >= want[0]:
            return refusal(seat, f"seat {seat} already holds its {want[0]} cards", "too-many")
        if sum(CATEGORY_OF[c] == g for h in self.hands.values() for c in h) >= 5:
            return refusal(seat, f"one {CATEGORIES[g]} must stay hidden as the answer", "kind-full")
        mine.add(card)
        out = [say(me, "hand-card", card=card_tag(card))]
        if all(len(self.hands[s]) == sum(self.counts[s]) for s in self.hands):
            held = set().union(*self.hands.values())
            self.answer = tuple(c for c in CARDS if c not in held)  # type: ignore[assignment]
            PHASES.fire(self, "dealt")
            out += [event("dealt", round=self.round), say(TABLE, "dealt")]
            self.turn_seat = (self.first + self.round - 2) % self.players + 1
            out += self._turn()
        return out

    # -- declarations -------------------------------------------------------------
    def _turn(self) -> list[Event]:
        self.tokens, self.raised, self.settling = {}, [], False
        return [event("turn", seat=self.turn_seat), say(TABLE, "turn", seat=self.turn_seat)]

    def _declare_token(self, card: str, t: float) -> list[Event]:
        if self.state == "dealing":
            return self._deal_short(None)
        if self.state != "declaring":
            return refusal(None, "declaration tokens go on the field only during a turn", "not-now")
        g = CATEGORY_OF[card]
        if g in self.tokens:
            if self.tokens[g] == card:
                return [say(TABLE, "token", card=card_tag(card))]
            return refusal(None, f"the field already has a {CATEGORIES[g]} token; take it off first", "same-kind")
        d = self.turn_seat
        if self.rules == "beginner" and card in self.hands[d]:
            # Everyone sees the token: a speaker's answer only this token gets ("that token
            # does not count") told the table the declarer holds that card.  It is
            # named like any other; only the declarer hears, in its earphone, that it does
            # not count, and takes it back as one changes one's mind.
            out = [*refusal(d, f"seat {d} may not declare a card it holds", "own-card"),
                   say(TABLE, "token", card=card_tag(card))]
            if len(self.tokens) == 2 and not self.settling:  # a third token: the settle runs as for any
                self.settling = True
                out.append(set_timer_after_heard(SETTLE, float(self.opts["settle"]), on=SPEAKER))
            return out
        self.tokens[g] = card
        if len(self.tokens) < 3:
            return [say(TABLE, "token", card=card_tag(card))]
        # The third token is named like the others and the declaration said a moment later
        # (`settle`), not on its scan: an own card, answered in the declarer's earphone alone,
        # is then taken back in that moment as a change of mind is, and no missing
        # declaration after a third token shows which token it was.
        out = [say(TABLE, "token", card=card_tag(card))]
        if self.settling:  # an own card still lies there: this settle's end will find three tokens
            out.append(cancel_timer(SETTLE))
        self.settling = True
        return out + [set_timer_after_heard(SETTLE, float(self.opts["settle"]), on=SPEAKER)]

    def _declare(self, t: float) -> list[Event]:
        """Three tokens lay on the field through the settle: the declaration and who has."""
        self.settling = False
        d = self.turn_seat
        cards = tuple(self.tokens[i] for i in range(3))
        have = frozenset(s for s in self.hands if s != d and self.hands[s] & set(cards))
        self.history.append(Declaration(d, cards, have))  # type: ignore[arg-type]
        PHASES.fire(self, "declared")
        tags = [card_tag(c) for c in cards]
        out = [cancel_timer(SETTLE), event("declare", seat=d, cards=list(cards)), say(TABLE, "declare", seat=d, cards=tags),
               event("answers", seat=d, cards=list(cards), have=sorted(have))]
        out.append(say(TABLE, "have", seats=sorted(have)) if have else say(TABLE, "nobody"))
        out.append(say(TABLE, "raise-invite"))  # the window is open: said, not only timed
        return out + [set_timer_after_heard("raise-window", float(self.opts["raise_window"]), on=SPEAKER)]

    def _raise(self, seat: int) -> list[Event]:
        if self.state == "dealing":
            return self._deal_short(seat)
        if self.state not in ("declaring", "window"):
            return refusal(seat, "hands are raised only during a turn", "not-now")
        if seat in self.raised:
            return [say(seat_audience(seat), "already-raised")]
        self.raised.append(seat)
        return [event("raise", seat=seat), say(TABLE, "raised", seat=seat)]

    def _close_window(self, t: float) -> list[Event]:
        out: list[Event] = [cancel_timer("raise-window")]
        if self.raised:
            order = [(self.turn_seat - 1 + i) % self.players + 1 for i in range(self.players)]
            self.answering = next(s for s in order if s in self.raised)
            self.guess = {}
            PHASES.fire(self, "granted")
            return out + [event("grant", seat=self.answering), say(TABLE, "grant", seat=self.answering)]
        PHASES.fire(self, "nobody_raised")
        self.turn_seat = self.turn_seat % self.players + 1
        return out + self._turn()

    # -- answering ---------------------------------------------------------------
    def _answer_token(self, seat: int, card: str) -> list[Event]:
        g = CATEGORY_OF[card]
        if g in self.guess and self.guess[g] != card:
            return refusal(seat, f"you already answered a {CATEGORIES[g]}", "same-kind")
        self.guess[g] = card
        out = [say(seat_audience(seat), "answer-token", card=card_tag(card))]
        if len(self.guess) < 3:
            return out
        guess = tuple(self.guess[i] for i in range(3))
        right = guess == self.answer
        self.points[seat] += 1 if right else -1
        PHASES.fire(self, "judged")
        assert self.answer is not None
        out += [event("verdict", seat=seat, cards=list(guess), correct=right, answer=list(self.answer)),
                say(TABLE, "right" if right else "wrong", seat=seat, cards=[card_tag(c) for c in self.answer])]
        out += [say(TABLE, "score", seat=s, points=p) for s, p in self.points.items()]
        target, rounds = self.opts["target"], self.opts["rounds"]
        if target is not None:
            if max(self.points.values()) >= target:
                return out + self._game_over("target")
        elif self.round >= rounds:
            return out + self._game_over("rounds")
        return out + [say(TABLE, "next-round")]

    def _game_over(self, reason: str) -> list[Event]:
        PHASES.fire(self, "finish")
        ranked = sorted(self.points, key=lambda s: (-self.points[s], s))
        ranking = []
        for s in ranked:
            place = 1 + sum(1 for o in self.points if self.points[o] > self.points[s])
            ranking.append({"seat": s, "place": place, "points": self.points[s]})
        winners = [r["seat"] for r in ranking if r["place"] == 1]
        return [event("game-over", ranking=ranking, reason=reason, rounds=self.round),
                say(TABLE, "game-over", seats=winners, points=self.points[winners[0]])]

    # -- the assistant -------------------------------------------------------------
    def _assist(self, seat: int, card: str) -> list[Event]:
        me = seat_audience(seat)
        tag = card_tag(card)
        if card in self.hands.get(seat, ()):
            return [say(me, "card-mine", card=tag)]
        if self.opts["assistant"][seat] == "off" or self.state == "dealing":
            return [say(me, "card-no-assistant", card=tag)]
        where = self.analysis(seat).possible[card]
        seats = sorted(o for o in where if o != ANSWER)
        if where == {ANSWER}:
            return [say(me, "card-answer", card=tag)]
        if ANSWER in where:
            return [say(me, "card-unknown", card=tag, seats=seats)]
        if len(seats) == 1:
            return [say(me, "card-held", card=tag, seat=seats[0])]
        return [say(me, "card-not-answer", card=tag, seats=seats)]

    def _assistant_hint(self, seat: int) -> list[Line]:
        """The full assistant's advice: from this seat's own knowledge only."""
        if self.opts["assistant"][seat] != "full":
            return [line("no-hint")]
        if self.state not in ("declaring", "window"):
            return []
        a = self.analysis(seat)
        solved = a.solved()
        if solved:
            return [line("hint-solved", cards=[card_tag(c) for c in solved])]
        return [line("hint", cards=[card_tag(c) for c in a.best()])]

    # -- what a sighted player sees ----------------------------------------------
    def _short(self) -> list[int]:
        return [s for s in sorted(self.hands) if len(self.hands[s]) < sum(self.counts[s])]

    def _deal_short(self, seat: int | None) -> list[Event]:
        """Finish the deal first, naming the seats still short (everyone sees the hands)."""
        return refusal(seat, "the deal is not finished", "deal-short", round=self.round, seats=self._short())

    def _where(self) -> list[Line]:
        """What the table is waiting for, as everyone sees it."""
        if self.state == "dealing":
            return [line("deal-short", round=self.round, seats=self._short())]
        if self.state == "declaring":
            out = [line("now-turn", seat=self.turn_seat)]
            if self.tokens:
                out.append(line("tokens-on-field", cards=[card_tag(self.tokens[g]) for g in sorted(self.tokens)]))
            return out
        if self.state == "window":
            return [line("window-open", seat=self.turn_seat)]
        if self.state == "answering":
            return [line("grant", seat=self.answering)]
        if self.state == "between":
            return [line("next-round")]
        return []

    def situation(self) -> list[Event]:
        return hints.situation(self._where())

    def sight(self, seat: int) -> list[Line]:
        """HINT: the round, whose move, the tokens, every hand's size, raised hands,
        the scores (the assistant's advice is in `own`)."""
        out = [line("round-now", round=self.round), *self._where()]
        # what was said aloud this round, again: a sighted player may have noted it down
        for d in self.history:  # in the words the speaker used
            out.append(line("declare", seat=d.declarer, cards=[card_tag(c) for c in d.cards]))
            out.append(line("have", seats=sorted(d.have)) if d.have else line("nobody"))
        out += [line("seat-cards", seat=s, count=len(self.hands.get(s, ()))) for s in range(1, self.players + 1)]
        if self.raised and self.state in ("declaring", "window"):
            out.append(line("raised-now", seats=sorted(self.raised)))
        return out + [line("score", seat=s, points=p) for s, p in self.points.items()]

    def own(self, seat: int) -> list[Line]:
        """HINT's private part: this seat's assistant, from its own knowledge only."""
        return self._assistant_hint(seat)

    # -- console and refusals ---------------------------------------------------
    def console_deal(self, t: float) -> list[Event]:
        if self.state not in ("dealing", "between"):
            return [error("deal: a round is under way; finish it first")]
        same_round = self.state == "dealing"  # the referee restarts a misdeal
        PHASES.fire(self, "redeal")
        if same_round:
            self.round -= 1
        return self._begin_round()

    def console_raise(self, t: float, seat: int) -> list[Event]:
        return self._raise(seat)

    def console_next(self, t: float) -> list[Event]:
        if self.state == "declaring" and len(self.tokens) == 3:  # the referee calls the declaration now
            return self._declare(t)
        if self.state != "window":
            return [error("next: there is no raise-hand window open")]
        return self._close_window(t)

    def console_stop(self, t: float) -> list[Event]:
        return self._game_over("stopped")


#: What each player holds beside its tokens (the declaration's `command_tags`).
COMMAND_TAGS = ("raise", "hint", "agree")


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Each player answers and asks the assistant with an own set of the 18 declaration
    tokens (taking them from the field's set would show which); the cards and the
    field's tokens are the table's."""
    tokens = [token_tag(c) for c in CARDS]
    return own_set(0, COMMAND_TAGS) + tokens, [card_tag(c) for c in CARDS] + tokens


def phrase_values(players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
    """Every value a phrase parameter takes at such a table, so the voice renders them before play."""
    from kikimimi.voice.domains import seat_sets

    from .cards import BY_CATEGORY

    seats = list(range(1, players + 1))
    opts = OPTIONS.parse(players, options)
    rounds, target = opts["rounds"], opts["target"]
    most = max(int(rounds or 1), int(target or 1))
    triples = [[card_tag(c) for c in trio] for trio in itertools.product(*(BY_CATEGORY[g] for g in CATEGORIES))]
    # the field's tokens so far: one to three, at most one of each category, in category order
    partial = [[card_tag(c) for c in pick if c] for pick in itertools.product(
        *(("",) + BY_CATEGORY[g] for g in CATEGORIES)) if any(pick)]
    return {
        "seat": seats, "seats": seat_sets(seats), "round": range(1, most + 1),
        "rules": ["beginner", "advanced"], "points": range(-most, most + 1),
        "card": [card_tag(c) for c in CARDS], "cards": triples, "tokens-on-field.cards": partial,
        "count": range(0, len(CARDS) + 1), "players": [players],
    }
