"""The Trident as the controller enforces it (docs/rules/trident.md).

The controller never sees a hand: it learns each piece when it is scanned and
attributes every scan from where that piece is (in a hand, on the field, in
the basket).  Attribution is the whole trick, so it is spelled out once here:

- a hand piece on the field is a play by whoever holds it (out of turn is a
  wrong piece for the holder, and the turn does not move);
- a basket piece on a hand reader is a draw by that seat (refused, with the
  reason in that earphone, when the seat may not draw now);
- a basket piece straight onto the field is a draw plus a play by the player
  whose turn it is;
- a hand piece on its holder's reader is the player listening to their hand.

Every refusal is checked before anything changes, so an `error` leaves the
state exactly as it was.  What a hand holds is spoken only into its holder's
earphone; a wrong piece goes back to the hand unnamed, and why it was wrong
reaches only its holder.

Everything a sighted player sees is said once on the speaker when it happens
(a draw, an attack taken, a penalty and its count, the turn staying put) and
again on request (HINT: `sight`), except the field suit, which everyone must
remember.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import (TABLE, Command, dispatch, error, Event, GameEvent, hint_command, hints, Input, line,
                           Line, own_set, Play, refusal, say, seat_audience, stop_command)

from .machine import PHASES
from .options import TridentOptions
from .pieces import BY_TAG, HAND_SIZE, TAGS, Kind, Piece, Suit, hand_points


BASKET = 0
FIELD = -1
DECLARATIONS = ("trident", "pass", "agree")


class OptionError(ValueError):
    """A header option the game cannot play with."""


#: The referee's console commands (the declaration's table; `dispatch` parses by it).
COMMANDS = (
    Command("declare trident|pass|agree SEAT", "declare for a seat (as its command tag would)", "console_declare"),
    Command("suit heart|diamond|spade|clover", "choose the suit for the seat that is choosing", "console_suit"),
    Command("penalty SEAT", "give a seat the wrong-piece penalty (draw two)", "console_penalty"),
    hint_command(), stop_command("console_stop"))
PLAYERS = range(2, 5)
#: What each player holds beside the pieces (the declaration's `command_tags`).
COMMAND_TAGS = ("trident", "pass", "agree", "hint")


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Each player's declarations and HINT; the pieces are the table's, drawn into hands."""
    return own_set(0, COMMAND_TAGS), sorted(TAGS)


class TridentGame(Play):
    """One play of The Trident: the state is plain data, the phases are the shared machine's."""

    state: str  # the phase, moved by `PHASES.fire`

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        Play.__init__(self, players, options)
        if players not in PLAYERS:
            raise OptionError(f"The Trident is played by 2 to 4 players, not {players}")
        try:
            opts = TridentOptions.parse(players, self.options)  # a typo must not play the default rules
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        self.opts = opts
        self.scoring: str = opts.scoring
        first = self.first = opts.first
        self.seats = tuple(range(1, players + 1))
        self._ears = {s: seat_audience(s) for s in self.seats}  # each earphone's audience name, made once
        self.hands: dict[int, list[str]] = {s: [] for s in self.seats}
        self.field: list[str] = []
        self.where: dict[str, int] = dict.fromkeys(BY_TAG, BASKET)
        self.basket_count = len(BY_TAG)
        self.turn: int = first
        self.suit: Suit | None = None
        self.pending = 0
        self.owed: dict[int, int] = dict.fromkeys(self.seats, 0)
        self.declared: dict[int, bool] = dict.fromkeys(self.seats, False)
        self.agreed: set[int] = set()
        self.has_drawn = False
        self.chooser: int | None = None
        self.result: dict[str, Any] | None = None
        self._out: list[GameEvent] = []
        PHASES.attach(self)

    #: True once the game has ended (the phase "over"): a plain attribute, set beside
    #: `finish()`, because the engine and the sim driver read it on every input and
    #: a property is a call each time.
    over: bool = False

    # -- the play protocol -------------------------------------------------
    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "deal", count=HAND_SIZE)]

    def handle(self, inp: Input) -> list[GameEvent]:
        out = self._out = []
        if self.state == "over":
            out.append(error("the game is over"))
        elif inp.console is not None:
            out += dispatch(self, COMMANDS, inp.console, inp.t, len(self.seats))
        elif inp.timer is not None:
            out.append(error(f"no timer named {inp.timer!r} in The Trident"))
        elif inp.tag is None or inp.removed:
            pass  # taking a piece off a reader means nothing in The Trident
        elif (p := BY_TAG.get(inp.tag)) is not None:  # a piece: nearly every input
            if inp.reader == "hand" and inp.seat is not None:
                self._hand_scan(inp.seat, p)
            elif inp.reader == "field":
                self._field_scan(p)
            else:
                out.append(error(f"no reader {inp.reader!r} in The Trident"))
        elif inp.tag.startswith("cmd:"):
            if inp.reader != "hand" or inp.seat is None:
                self._out += refusal(None, "command tags are read on a hand reader", "command-on-field")
            else:
                self._declare(inp.seat, inp.tag[4:])
        else:
            self._out += refusal(inp.seat, f"{inp.tag} is not a Trident piece", "not-a-piece")
        self._out = []
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            "phase": self.state, "turn": self.turn, "first": self.first,
            "suit": self.suit.value if self.suit else None, "pending": self.pending,
            "owed": dict(self.owed), "hands": {s: list(h) for s, h in self.hands.items()},
            "field": list(self.field), "basket": sorted(t for t, w in self.where.items() if w == BASKET),
            "declared": dict(self.declared), "agreed": sorted(self.agreed),
            "chooser": self.chooser, "scoring": self.scoring, "result": self.result,
        }

    # -- speaking ------------------------------------------------------------
    # A Trident input makes ~3 events, 2 of them says: its hot paths hand the
    # table each event as the one dict its log keeps (`protocol.log_shaped`'s
    # literal: the table adds seq, t, in and a say's text), not an Event, its
    # fields and then a log dict copied from them.
    def _announce(self, key: str, **params: Any) -> None:
        self._out.append({"type": "say", "to": TABLE, "key": key, "params": params})

    def _tell(self, seat: int, key: str, **params: Any) -> None:
        ears = self._ears
        self._out.append({"type": "say", "to": ears[seat] if seat in ears else seat_audience(seat), "key": key,
                          "params": params})

    # -- the basket ----------------------------------------------------------
    @property
    def available(self) -> int:
        """Basket pieces not already owed to a seat that still has to draw them."""
        return self.basket_count - sum(self.owed.values())

    def _take(self, seat: int, tag: str) -> None:
        """A basket piece goes into a hand (the holder hears what it is)."""
        hand = self.hands[seat]
        before = len(hand)
        hand.append(tag)
        self.where[tag] = seat
        self.basket_count -= 1
        ear = self._ears.get(seat) or seat_audience(seat)
        self._out += ({"type": "draw", "seat": seat, "tag": tag, "private": ear},
                      {"type": "say", "to": ear, "key": "drawn", "params": {"piece": tag}})
        if before == 0:  # only a hand now of one piece can need a new declaration: no call otherwise
            self._hand_size_changed(seat, before)

    def _hand_size_changed(self, seat: int, before: int) -> None:
        """Trident must be declared after the hand last dropped to one piece."""
        if len(self.hands[seat]) == 1 and before != 1:
            self.declared[seat] = False

    def _owe(self, seat: int, count: int) -> bool:
        """`seat` must draw `count` more; a draw the basket cannot cover is a crash."""
        if count > self.available:
            self._crash(seat)
            return False
        self.owed[seat] += count
        self._tell(seat, "draw-more", count=self.owed[seat])
        return True

    # -- hand readers ----------------------------------------------------------
    def _hand_scan(self, seat: int, p: Piece) -> None:
        at = self.where[p.tag]
        if at == seat:
            if self.state == "choosing" and seat == self.chooser and p.basic:
                assert p.suit is not None
                self._choose(p.suit)
                return
            self._tell(seat, "hand-piece", piece=p.tag)
            if self.state == "choosing" and seat == self.chooser:
                self._tell(seat, "choose-suit")
        elif at == FIELD:
            self._out += refusal(seat, "that piece is on the field", "on-field")
        elif at != BASKET:
            self._out += refusal(seat, f"seat {seat} scanned a piece held by another seat", "other-hand")
        else:
            self._draw_request(seat, p.tag)

    def _draw_request(self, seat: int, tag: str) -> None:
        if self.state == "dealing":
            if len(self.hands[seat]) >= HAND_SIZE:
                self._out += refusal(seat, f"seat {seat} already has {HAND_SIZE} pieces", "deal-full", count=HAND_SIZE)
                return
            self._take(seat, tag)
            if len(self.hands[seat]) == HAND_SIZE and all(len(h) == HAND_SIZE for h in self.hands.values()):
                PHASES.fire(self, "dealt")
                self._announce("opening-draw", seat=self.first)
            return
        if self.owed[seat] > 0:
            self.owed[seat] -= 1
            self._take(seat, tag)
            if self.owed[seat]:
                self._tell(seat, "draw-more", count=self.owed[seat])
            else:
                self._announce("debt-paid", seat=seat)
            return
        if seat != self.turn or self.state not in ("turn", "drawn"):
            self._out += refusal(seat, f"seat {seat} may not draw now", "no-draw-now")
        elif self.state == "drawn":
            self._out += refusal(seat, f"seat {seat} has already drawn this turn", "already-drew")
        elif self.pending:
            self._accept_attack(seat, tag)
        elif self.available < 1:
            self._out += refusal(seat, "the rest of the basket is owed to other seats", "basket-owed")
        else:
            self._take(seat, tag)
            self._announce("draws", seat=seat)
            self.has_drawn = True
            PHASES.fire(self, "drew")

    def _accept_attack(self, seat: int, first_tag: str | None) -> None:
        """The turn player takes the whole pending total; their turn ends at once."""
        total, self.pending = self.pending, 0
        if total > self.available:
            self._crash(seat)
            return
        self.owed[seat] += total
        self._out.append({"type": "pending", "total": 0})
        self._announce("takes", seat=seat, count=total)
        if first_tag is not None:
            self.owed[seat] -= 1
            self._take(seat, first_tag)
        if self.owed[seat]:
            self._tell(seat, "draw-more", count=self.owed[seat])
        self._next_turn()

    # -- the field reader --------------------------------------------------------
    def _field_scan(self, p: Piece) -> None:
        at = self.where[p.tag]
        if at == FIELD:
            self._out += refusal(None, "that piece is already on the field", "already-on-field")
        elif self.state == "dealing":
            self._out += refusal(None, "the deal is not finished", "deal-short", **self._short())
        elif at == BASKET:
            self._basket_to_field(p)
        elif self.state in ("opening", "resetting"):
            self._wrong(at, "out-of-turn")
        elif self.state == "choosing":
            if at == self.chooser:
                self._out += refusal(at, f"seat {at} must name a suit first", "choose-suit-first")
            else:
                self._wrong(at, "out-of-turn")
        elif at != self.turn:
            self._wrong(at, "out-of-turn")
        else:
            self._play(at, p)

    def _basket_to_field(self, p: Piece) -> None:
        if self.state == "opening" or (self.state == "resetting" and self.available >= 1):
            self._open_with(p)
        elif self.state == "turn" and not self.pending and self.available >= 1:
            self._take(self.turn, p.tag)
            self._announce("draws", seat=self.turn)
            self.has_drawn = True
            PHASES.fire(self, "drew")
            self._play(self.turn, p)
        else:
            self._out += refusal(None, "a piece from the basket cannot go on the field now", "basket-to-field")

    def _open_with(self, p: Piece) -> None:
        """The opening (and the reset): basic or change sets the suit, anything else is redone."""
        seat = self.first if self.state == "opening" else self.turn
        self.where[p.tag] = FIELD
        self.basket_count -= 1
        self.field.append(p.tag)
        self._out.append({"type": "play", "seat": seat, "tag": p.tag, "opening": True})
        if p.opens:
            assert p.suit is not None
            self._announce("field-piece", piece=p.tag)
            self._set_suit(p.suit)
            if self.state == "opening":
                PHASES.fire(self, "opened")
                self._start_turn()
            else:
                PHASES.fire(self, "reset_done")
                self._announce("reset-done", seat=self.turn)
        else:
            self._announce("field-no-effect", piece=p.tag, effect=p.effect)
            if self.available < 1 and self.state == "resetting":
                PHASES.fire(self, "reset_done")  # nothing left to open with: the suit stays as it was
                self._announce("reset-failed")

    # -- playing ---------------------------------------------------------------
    def _play(self, seat: int, p: Piece) -> None:
        hand = self.hands[seat]
        if self.pending and not p.answers_attack:
            self._wrong(seat, "not-an-answer")
            return
        if p.basic and p.suit is not self.suit:
            self._wrong(seat, "wrong-suit")
            return
        if len(hand) == 1 and not p.basic:
            self._wrong(seat, "non-basic-last")
            return
        before = len(hand)
        hand.remove(p.tag)
        self.where[p.tag] = FIELD
        self.field.append(p.tag)
        self.agreed.clear()
        played = {"type": "play", "seat": seat, "tag": p.tag}
        if p.kind is Kind.SPECIAL2:
            self._out.append(played)
            self._announce("field-unknown", piece=p.tag, effect=p.effect)
        else:  # the play and its say: nearly every play
            self._out += (played, {"type": "say", "to": TABLE, "key": "field-piece", "params": {"piece": p.tag}})
        if before == 2:  # only a hand now of one piece can need a new declaration: no call otherwise
            self._hand_size_changed(seat, before)
        if p.sets_suit is not None:
            self._set_suit(p.sets_suit)
        if p.rotate is not None:
            self._rotate(p.rotate)
        if p.adds:
            self.pending += p.adds
            self._out.append({"type": "pending", "total": self.pending})
            self._announce("pending", total=self.pending)
        elif self.pending:  # an unknown answer adds nothing; the total moves on
            self._out.append({"type": "pending", "total": self.pending})
            self._announce("pending", total=self.pending)
        if not hand:
            if self.declared[seat]:
                self._game_over("out", winner=seat)
                return
            self._penalty(seat, "no-trident")
            if self.over:
                return
        if p.kind is Kind.SPECIAL1:
            self.chooser = seat
            PHASES.fire(self, "choose")
            self._tell(seat, "choose-suit")
            return
        self._next_turn()

    def _set_suit(self, suit: Suit) -> None:
        self.suit = suit
        self._out.append({"type": "suit", "suit": suit.value})
        self._announce("suit-set", suit=suit.value)

    def _rotate(self, direction: str) -> None:
        """right: every hand goes to the left neighbour (seat k -> k+1); left: the reverse."""
        n = len(self.seats)
        step = 1 if direction == "right" else -1
        old = self.hands
        self.hands = {s: old[((s - 1 - step) % n) + 1] for s in self.seats}
        for s, h in self.hands.items():
            for tag in h:
                self.where[tag] = s
            self._hand_size_changed(s, len(old[s]))
        self._out.append({"type": "rotate", "direction": direction})
        self._announce(f"rotate-{direction}")

    def _choose(self, suit: Suit) -> None:
        self._set_suit(suit)
        self.chooser = None
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn = self.turn % len(self.seats) + 1
        self.has_drawn = False
        if self.state != "turn":  # turn -> turn changes nothing; skip the machine's overhead
            PHASES.fire(self, "pass_turn")
        self._start_turn()

    def _start_turn(self) -> None:
        self.has_drawn = False
        self._out += ({"type": "turn", "seat": self.turn},
                      {"type": "say", "to": TABLE, "key": "turn", "params": {"seat": self.turn}})

    # -- penalties and the end -------------------------------------------------
    def _wrong(self, seat: int, why: str) -> None:
        """A wrong piece: it goes back to its holder unnamed, who draws 2.  On one's
        own turn the turn passes on (taking any pending attack with it, so the
        speaker names the whole count); out of turn the turn does not move, and
        the speaker says so."""
        own_turn = seat == self.turn and self.state in ("turn", "drawn")
        self._tell(seat, f"wrong-{why}")
        if not self._penalty(seat, "wrong-piece", why, self.pending if own_turn else 0):
            return
        if own_turn:
            self._next_turn()
        else:
            for key, params in self._where(still=True):
                self._announce(key, **params)

    def _penalty(self, seat: int, reason: str, why: str | None = None, attack: int = 0) -> bool:
        """Draw 2 (plus an attack the wrong piece failed to answer).  The speaker
        says who and how many; why reaches only the seat (and the referee).
        False when the draw crashed the game."""
        self._out.append({"type": "penalty", "seat": seat, "reason": reason, "draw": 2})
        if why is not None:
            self._out.append({"type": "penalty-reason", "seat": seat, "why": why, "private": seat_audience(seat)})
        if reason == "wrong-piece":
            self._announce("wrong-piece-draws", seat=seat, count=2 + attack)
        else:
            self._announce(f"penalty-{reason}", seat=seat)
        if attack:
            self.pending = 0
            self._out.append({"type": "pending", "total": 0})
        return self._owe(seat, 2 + attack)

    def _crash(self, seat: int) -> None:
        """The seat cannot draw what it must: it takes whatever is left and finishes last."""
        rest = [t for t, w in self.where.items() if w == BASKET]
        for tag in rest:
            self._take(seat, tag)
        self._game_over("crash", crashed=seat)

    def _ranking(self, winner: int | None, crashed: int | None) -> list[dict[str, Any]]:
        order = [((self.first - 1 + i) % len(self.seats)) + 1 for i in range(len(self.seats))]
        middle = [s for s in order if s not in (winner, crashed)]
        if self.scoring == "competition":
            middle.sort(key=lambda s: (hand_points(self.hands[s]), order.index(s)))
        else:
            middle.sort(key=lambda s: (len(self.hands[s]), order.index(s)))
        ranked = ([winner] if winner else []) + middle + ([crashed] if crashed else [])
        return [
            {"seat": s, "place": i + 1, "pieces": len(self.hands[s]),
             "points": hand_points(self.hands[s]), "crash": s == crashed}
            for i, s in enumerate(ranked)
        ]

    def _game_over(self, reason: str, winner: int | None = None, crashed: int | None = None) -> None:
        ranking = self._ranking(winner, crashed)
        self.result = {"reason": reason, "ranking": ranking}
        PHASES.fire(self, "finish")
        self.over = True
        self._out.append({"type": "game-over", "reason": reason, "ranking": ranking})
        self._announce(f"game-over-{reason}", seat=winner or crashed or 0)
        key = "rank-points" if self.scoring == "competition" else "rank-pieces"
        for entry in ranking:
            self._announce(key, place=entry["place"], seat=entry["seat"],
                           pieces=entry["pieces"], points=entry["points"])

    # -- declarations and the console ---------------------------------------------
    def _declare(self, seat: int, what: str) -> None:
        if what not in DECLARATIONS:
            self._out += refusal(seat, f"cmd:{what} means nothing in The Trident", "no-such-declaration")
        elif self.state == "dealing":
            self._out += refusal(seat, "the deal is not finished", "deal-short", **self._short())
        elif what == "trident":
            if len(self.hands[seat]) != 1:
                self._out += refusal(seat, f"seat {seat} does not hold exactly one piece", "trident-not-one")
            elif self.declared[seat]:
                self._out += refusal(seat, f"seat {seat} has already declared Trident", "trident-again")
            else:
                self.declared[seat] = True
                self._out.append({"type": "declare", "seat": seat, "what": "trident"})
                self._announce("declared-trident", seat=seat)
        elif what == "pass":
            self._pass(seat)
        else:
            self._agree(seat)

    def _pass(self, seat: int) -> None:
        if seat != self.turn or self.state not in ("turn", "drawn"):
            self._out += refusal(seat, f"it is not seat {seat}'s turn", "not-your-turn")
        elif self.state == "drawn":
            self._out.append({"type": "declare", "seat": seat, "what": "pass"})
            self._announce("passed", seat=seat)
            self._next_turn()
        elif self.pending:
            # Passing under an attack takes the whole total (a crash if the basket cannot cover it).
            self._out.append({"type": "declare", "seat": seat, "what": "pass"})
            self._accept_attack(seat, None)
        elif self.available < 1:
            self._out.append({"type": "declare", "seat": seat, "what": "pass"})
            self._crash(seat)  # must draw, and the basket has nothing left
        else:
            self._out += refusal(seat, f"seat {seat} must draw before passing", "draw-first")

    def _agree(self, seat: int) -> None:
        if self.state not in ("turn", "drawn"):
            self._out += refusal(seat, "the suit cannot be reset now", "agree-not-now")
        elif seat in self.agreed:
            self._out += refusal(seat, f"seat {seat} has already agreed", "agree-again")
        elif self.available < 1:
            self._out += refusal(seat, "the basket is empty: the suit cannot be reset", "agree-empty-basket")
        else:
            self.agreed.add(seat)
            self._out.append({"type": "declare", "seat": seat, "what": "agree"})
            self._announce("agreed", seat=seat, count=len(self.agreed), players=len(self.seats))
            if len(self.agreed) == len(self.seats):
                self.agreed.clear()
                PHASES.fire(self, "all_agreed")
                self._announce("reset-draw")

    # -- the referee's console (the table: `COMMANDS`) -----------------------
    def console_declare(self, t: float, what: str, seat: int) -> None:
        self._declare(seat, what)

    def console_suit(self, t: float, suit: str) -> None:
        if self.state != "choosing":
            self._out.append(error("no suit is being chosen now"))
        else:
            self._choose(Suit(suit))

    def console_penalty(self, t: float, seat: int) -> None:
        if self.state == "dealing":
            self._out.append(error("the deal is not finished"))
        else:
            self._penalty(seat, "wrong-piece", "referee")

    def console_stop(self, t: float) -> None:
        self._game_over("stopped")

    # -- what a sighted player sees -------------------------------------------------
    def _short(self) -> dict[str, Any]:
        """The seats still short of a full deal (public: everyone sees the hands)."""
        return {"seats": [s for s in self.seats if len(self.hands[s]) < HAND_SIZE], "count": HAND_SIZE}

    def _where(self, still: bool = False) -> list[Line]:
        """Whose move it is and what is waiting: never the suit."""
        if self.state == "dealing":
            return [line("deal-short", **self._short())]
        if self.state == "opening":
            return [line("opening-draw", seat=self.first)]
        if self.state == "resetting":
            return [line("reset-draw")]
        if self.state == "choosing":
            return [line("choosing", seat=self.chooser)]
        if self.state == "over":
            return []
        out = [line("still-turn" if still else "now-turn", seat=self.turn)]
        if self.state == "drawn":
            out.append(line("has-drawn", seat=self.turn))
        if self.pending:
            out.append(line("pending", total=self.pending))
        return out

    def situation(self) -> list[Event]:
        return hints.situation(self._where())

    def sight(self, seat: int) -> list[Line]:
        """HINT: whose turn, each seat's piece count (and debt), the basket, the
        attack waiting, the agreements so far.  The suit is never among them."""
        out = self._where()
        if self.state in ("turn", "drawn") and not self.pending:
            out.append(line("no-pending"))
        for s in self.seats:
            if self.owed[s]:
                out.append(line("seat-pieces-owed", seat=s, pieces=len(self.hands[s]), owed=self.owed[s]))
            else:
                out.append(line("seat-pieces", seat=s, pieces=len(self.hands[s])))
        out.append(line("basket-count", count=self.basket_count))
        if self.agreed:
            out.append(line("agreed-so-far", count=len(self.agreed), players=len(self.seats)))
        return out


def phrase_values(players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
    """Every value a phrase parameter takes at such a table, so the voice renders them before play."""
    from kikimimi.voice.domains import seat_sets

    seats = list(range(1, players + 1))
    tags = sorted(TAGS)
    counts = range(0, len(TAGS) + 1)
    return {
        "seat": seats, "place": seats, "players": [players], "seats": seat_sets(seats),
        "count": counts, "total": counts, "pieces": counts, "owed": counts,
        "points": range(0, hand_points(tags) + 1), "agreed.count": range(1, players + 1),
        "deal-short.count": [HAND_SIZE], "deal-first.count": [HAND_SIZE], "deal.count": [HAND_SIZE],
        "piece": tags, "effect": sorted({BY_TAG[t].effect for t in tags}), "suit": [s.value for s in Suit],
    }
