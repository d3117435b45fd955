"""Bot games of The Trident: a seeded physical table and players who act only on what they hear.

The table (`World`) is physics: a shuffled basket, who holds which piece, what
lies on the field.  It follows the controller's events the way real pieces
follow the players' hands, and it is the only thing that sees everything.
Each `Bot` sees only the log events its seat may know (`visible_to`'s rule,
worked out once per event by `TridentSimulation.observe`), and of the table
only what a player at it sees: its own pieces (a copy: the table's list of a
hand moves to the next seat when the hands rotate) and how many lie in the basket
(it takes the top one as `BASKET_TOP`, which the table names).  It never holds
the `World` nor the deal's generator or seed, so no line of a bot can read
another hand (docs/bots.md, "What a bot is handed").  It keeps
its own memory: what it heard its pieces to be, the suit it heard last, whose
turn it is.  An unknown piece is remembered only as "unknown", as it is heard.

`random` bots remember perfectly and pick uniformly among legal moves;
`human` bots (the default) forget and misremember, so their games contain
wrong pieces, missed Trident declarations and the occasional "everyone forgot".
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.game import TABLE, audiences_of, seat_audience

from .options import TridentOptions
from .pieces import BY_TAG, HAND_SIZE, TAGS, Kind, Suit

BOTS = ("human", "random")
#: A search bot (games/trident/search.py) in one seat, rotated with the seed, among these bots.
SEARCH = {"search": "human", "search-random": "random"}
SUITS = [s.value for s in Suit]
#: A bot game still running after this many inputs is stopped by the referee.
STEP_CAP = 3000
#: The piece a bot takes from the basket: the top one, whatever it is.  The bot
#: cannot see which (the pieces look alike, face down); the table puts the real
#: piece's tag in the line (`TridentSimulation.next_input`).
BASKET_TOP = "basket:top"


def heard(tag: str) -> str:
    """What a player hears a piece to be: its suit or effect, and only "unknown" for an unknown."""
    p = BY_TAG[tag]
    return "unknown" if p.kind is Kind.SPECIAL2 else p.effect


#: `heard` of every piece, worked out once: bots look it up on every piece they hear.
HEARD = {tag: heard(tag) for tag in TAGS}


#: What a basic piece is heard to be (its suit).
BASIC = frozenset(SUITS)
#: What a piece that answers an attack is heard to be.
ANSWERS = frozenset({"draw-2", "draw-4", "change-draw-4", "unknown"})
#: What a remembered piece turns into when a human bot misremembers it.
MISREMEMBERED = (*SUITS, "change-heart", "draw-2", "unknown")


@dataclass
class Temper:
    """How a bot's memory fails (all zero for `random`)."""

    misremember: float = 0.0  # per remembered piece, per own turn: believes it is something else
    forget_suit: float = 0.0  # per own turn: the field suit is gone from memory
    miss_trident: float = 0.0  # per drop to one piece: forgets to declare
    impatience: float = 0.0  # per input: plays out of turn
    straight_to_field: float = 0.0  # per draw: puts the basket piece straight on the field


HUMAN = Temper(misremember=0.03, forget_suit=0.06, miss_trident=0.15, impatience=0.004, straight_to_field=0.1)


def shuffled(pieces: list[str], rng: random.Random) -> list[str]:
    """`rng.shuffle(pieces)`, draw for draw (a test holds the two equal): the
    Fisher-Yates swaps with each index drawn straight from `getrandbits`, as
    `random` draws it (k bits, again while not below the bound), without the
    two Python calls `shuffle` makes per piece, the largest part of a bot
    game's set-up."""
    getrandbits = rng.getrandbits
    for i in range(len(pieces) - 1, 0, -1):
        bound = i + 1
        k = bound.bit_length()
        j = getrandbits(k)
        while j >= bound:
            j = getrandbits(k)
        pieces[i], pieces[j] = pieces[j], pieces[i]
    return pieces


@dataclass
class World:
    """The physical table: follows the controller's events like pieces follow hands."""

    players: int
    rng: random.Random
    basket: list[str] = field(default_factory=list)
    hands: dict[int, list[str]] = field(default_factory=dict)
    field_pieces: list[str] = field(default_factory=list)
    needs_field_piece: bool = False
    over: bool = False

    def __post_init__(self) -> None:
        self.basket = shuffled(sorted(TAGS), self.rng)
        self.hands = {s: [] for s in range(1, self.players + 1)}

    def top(self) -> str | None:
        return self.basket[-1] if self.basket else None

    #: The event types that move something on the table (the rest never do;
    #: of the `say`s, only the speaker's).
    FOLLOWS = frozenset({"draw", "play", "rotate", "game-over", "say"})
    #: The speaker's lines that move something (whether the field waits for a piece).
    SPEAKER_KEYS = frozenset({"opening-draw", "field-no-effect", "reset-draw", "suit-set", "reset-failed"})

    def follow(self, ev: Mapping[str, Any]) -> None:
        kind = ev["type"]
        if kind == "draw":  # done inline by `TridentSimulation.observe`: change both alike
            basket, tag = self.basket, ev["tag"]
            if basket and basket[-1] == tag:  # nearly always the top: no scan of the whole basket
                basket.pop()
            else:
                basket.remove(tag)
            self.hands[ev["seat"]].append(tag)
        elif kind == "play":
            tag = ev["tag"]
            if tag in self.basket:
                self.basket.remove(tag)
            else:
                self.hands[ev["seat"]].remove(tag)
            self.field_pieces.append(tag)
        elif kind == "rotate":
            n = self.players
            step = 1 if ev["direction"] == "right" else -1
            old = self.hands
            self.hands = {s: old[((s - 1 - step) % n) + 1] for s in old}
        elif kind == "game-over":
            self.over = True
        elif kind == "say" and ev["to"] == "table":
            if ev["key"] in ("opening-draw", "field-no-effect", "reset-draw"):
                self.needs_field_piece = True
            elif ev["key"] in ("suit-set", "reset-failed"):
                self.needs_field_piece = False


class Follows:
    """What every Trident player keeps of what it heard, the event bots and the ear bots alike."""

    def __init__(self) -> None:
        self.suit: str | None = None
        self.turn: int | None = None
        self.pending = 0
        self.owed = 0
        self.drawn = False
        self.choosing = False
        self.want_agree = False
        self.agreed = False


class Bot(Follows):
    """One seat's player: acts on its own memory of what its earphone and the speaker said."""

    def __init__(self, seat: int, players: int, temper: Temper, rng: random.Random):
        super().__init__()
        self.seat = seat
        self.players = players
        self.temper = temper
        self.rng = rng
        self.memory: dict[str, str] = {}  # physical piece -> what it was heard to be
        self.want_trident = False
        self.tried: str | None = None
        #: Every piece in my hand was heard when last looked, and none came or was
        #: forgotten since: `off_turn_action`, asked of every bot on every input,
        #: then skips walking the hand.  Cleared where a piece can turn unheard (a
        #: draw into this hand, a wrong piece forgotten, a rotation's new hand), all
        #: in `Bot.hear`: a subclass that hears otherwise calls it too (SearchBot does).
        self.all_heard = False

    # -- hearing -------------------------------------------------------------
    #: The event types `hear` acts on; of the `say`s, only an earphone's (a bot
    #: follows the speaker's news through the structured events).
    HEARS = frozenset({"say", "draw", "suit", "turn", "pending", "play", "rotate", "declare"})
    #: The earphone's phrases `hear` acts on (besides "wrong-..."): the others never reach it.
    EARPHONE_KEYS = frozenset({"drawn", "hand-piece", "draw-more", "choose-suit"})
    #: Whether the speaker's lines reach `hear` too (a bot that counts the hands does).
    HEARS_SPEAKER = False

    def hear(self, ev: Mapping[str, Any], hand: Sequence[str]) -> None:
        kind = ev["type"]
        if kind == "say":
            if ev["to"] != "table":
                key = ev["key"]
                if key == "drawn" or key == "hand-piece":
                    piece = ev["params"]["piece"]
                    self.memory[piece] = HEARD[piece]
                elif key == "draw-more":
                    self.owed = int(ev["params"]["count"])
                elif key == "choose-suit":
                    self.choosing = True
                elif key.startswith("wrong-") and self.tried:
                    self.memory.pop(self.tried, None)  # it was not what I thought: listen again
                    self.all_heard = False
        elif kind == "draw" and ev["seat"] == self.seat:
            self.all_heard = False  # a new piece in my hand
            if self.owed:
                self.owed -= 1
            elif self.turn == self.seat and not self.pending:
                self.drawn = True
        elif kind == "suit":
            self.suit = ev["suit"]
            self.choosing = False
        elif kind == "turn":
            self._new_turn(ev["seat"])
        elif kind == "pending":
            self.pending = int(ev["total"])
        elif kind == "play" and ev.get("seat") == self.seat and not ev.get("opening"):
            if len(hand) == 1:  # my hand just dropped to one piece
                self.want_trident = self.rng.random() >= self.temper.miss_trident
        elif kind == "rotate":
            self.memory = {}  # a new hand, unheard
            self.all_heard = False
            self.want_trident = len(hand) == 1 and self.rng.random() >= self.temper.miss_trident
        elif kind == "declare":
            if ev["what"] == "agree" and ev["seat"] != self.seat and not self.agreed:
                self.want_agree = self.suit is None or self.rng.random() < 0.5
            elif ev["what"] == "agree" and ev["seat"] == self.seat:
                self.agreed = True
            elif ev["what"] == "trident" and ev["seat"] == self.seat:
                self.want_trident = False

    def _new_turn(self, seat: int) -> None:
        # Up to the return: what `TridentSimulation.observe` does inline for another seat's turn.
        self.turn = seat
        self.drawn = False
        self.agreed = self.want_agree = False
        if seat != self.seat:
            return
        t = self.temper
        if self.suit is not None and self.rng.random() < t.forget_suit:
            self.suit = None
        # One draw per remembered piece, in memory's order (a value replaced in place
        # leaves the dict's iteration as it was); the lookups made once, not per piece.
        memory, rng, draw, misremember = self.memory, self.rng, self.rng.random, t.misremember
        for tag in memory:
            if draw() < misremember:
                memory[tag] = rng.choice(MISREMEMBERED)

    # -- acting ----------------------------------------------------------------
    def off_turn_action(self, hand: Sequence[str], basket: int) -> dict[str, Any] | None:
        """What this player does whatever the turn: declare, agree, pay a debt, listen.
        `basket`: how many pieces lie in the basket (anyone sees the pile)."""
        if self.want_trident and len(hand) == 1:
            self.want_trident = False
            return self._hand("cmd:trident")
        if self.want_agree:
            self.want_agree = False
            return self._hand("cmd:agree")
        if self.owed and basket:
            return self._hand(BASKET_TOP)
        if self.all_heard:
            return None
        memory = self.memory
        for tag in hand:
            if tag not in memory:  # the first piece not heard yet: listen to it
                return self._hand(tag)
        self.all_heard = True
        return None

    def impatient_play(self, hand: Sequence[str]) -> dict[str, Any] | None:
        if hand and self.rng.random() < self.temper.impatience:
            return self._field(self.rng.choice(hand))
        return None

    def choose(self, hand: Sequence[str]) -> dict[str, Any]:
        basics = [t for t in hand if self.memory.get(t) in BASIC]
        if basics:
            counts = {s: sum(self.memory[t] == s for t in basics) for s in SUITS}
            best = max(SUITS, key=lambda s: counts[s])
            return self._hand(next(t for t in basics if self.memory[t] == best))
        return {"console": f"suit {self.rng.choice(SUITS)}"}

    def turn_action(self, hand: Sequence[str], basket: int) -> dict[str, Any]:
        if self.suit is None and not self.pending and not self.agreed and self.rng.random() < 0.5:
            return self._hand("cmd:agree")
        legal = self._believed_legal(hand)
        if self.pending:
            if legal and (self.temper.misremember == 0 or self.rng.random() < 0.9):
                return self._play(self.rng.choice(legal))
            return self._draw(basket)
        if self.temper.misremember == 0:  # a random legal player
            options: list[str | None] = list(legal) + [None]
            choice = self.rng.choice(options)
            return self._play(choice) if choice else self._draw_or_pass(basket)
        memory = self.memory
        basics = [t for t in legal if memory[t] in BASIC]
        if basics:
            return self._play(self.rng.choice(basics))
        others = [t for t in legal if memory[t] not in BASIC]
        if others and (self.drawn or self.rng.random() < 0.5):
            return self._play(self.rng.choice(others))
        return self._draw_or_pass(basket)

    def _believed_legal(self, hand: Sequence[str]) -> list[str]:
        suit = self.suit or self.rng.choice(SUITS)  # forgotten: a guess
        out: list[str] = []
        memory, several = self.memory, len(hand) > 1
        if self.pending:  # only an answer to the attack, and never the last piece
            if several:
                for tag in hand:
                    if memory.get(tag) in ANSWERS:  # an unheard piece (None) is no answer
                        out.append(tag)
            return out
        for tag in hand:
            h = memory.get(tag)
            if h is None:
                continue
            if h in BASIC:
                if h == suit:
                    out.append(tag)
            elif several:
                out.append(tag)
        return out

    def _draw_or_pass(self, basket: int) -> dict[str, Any]:
        if self.drawn:
            return self._hand("cmd:pass")
        return self._draw(basket)

    def _draw(self, basket: int) -> dict[str, Any]:
        if not basket:
            return self._hand("cmd:pass")  # nothing to draw: the controller decides (a crash)
        if not self.pending and self.rng.random() < self.temper.straight_to_field:
            return self._field(BASKET_TOP)
        return self._hand(BASKET_TOP)

    def _play(self, tag: str) -> dict[str, Any]:
        self.tried = tag
        return self._field(tag)

    def _hand(self, tag: str) -> dict[str, Any]:
        return {"reader": "hand", "seat": self.seat, "tag": tag}

    @staticmethod
    def _field(tag: str) -> dict[str, Any]:
        return {"reader": "field", "tag": tag}


#: What `Bot.hear` is handed for an event it reads no hand for (all but a play and a rotation).
NO_HAND: tuple[str, ...] = ()
#: The event types `Bot.hear` acts on without looking at the hand.
_HANDLESS = Bot.HEARS - {"play", "rotate"}

#: What `observe` routes by: the event types the table follows and those bots hear,
#: the speaker's lines that move the table, the earphone's that bots act on.
_ROUTES = (World.FOLLOWS, Bot.HEARS, World.SPEAKER_KEYS, Bot.EARPHONE_KEYS)


class TridentSimulation:
    """The `Simulation` of protocol.py: proposes the next script line, hears the results."""

    def __init__(self, seed: int, players: int, options: Mapping[str, Any] | None = None,
                 bot: str | None = None, step_cap: int = STEP_CAP):
        kind = bot or "human"
        if kind not in BOTS and kind not in SEARCH:
            raise ValueError(f"no Trident bot {kind!r} (have: {', '.join((*BOTS, *SEARCH))})")
        rng = random.Random(seed)
        self.players = players
        self.opts = TridentOptions.parse(players, options)
        self.first = self.opts.first
        self.world = World(players, random.Random(rng.random()))
        others = SEARCH.get(kind, kind)
        temper = HUMAN if others == "human" else Temper()
        self.bots = {s: Bot(s, players, temper, random.Random(rng.random())) for s in range(1, players + 1)}
        self.steps = 0
        self.step_cap = step_cap
        self.errors_in_a_row = 0
        self._ears: dict[str, tuple[tuple[Bot, bool], ...]] = {}
        self._speaker_ears: tuple[Bot, ...] = ()
        self._listeners: tuple[tuple[Bot, bool], ...] = ()
        self._seated_bots: tuple[tuple[int, Bot, bool], ...] = ()
        self._seated()

    def replace(self, seat: int, bot: Bot) -> None:
        """Seat another player (before the game starts)."""
        self.bots[seat] = bot
        self._seated()

    def _seated(self) -> None:
        """Who hears what, worked out once per seating rather than once per event."""
        everyone = tuple(self.bots.values())
        #: Every bot, and whether it hears as `Bot.hear` does: such a bot acts on a
        #: public move ("play", "draw") only when it is its own, and on a turn only
        #: through `_new_turn`, so `observe` skips the call that would do nothing;
        #: and it looks at its hand only for a play or a rotation (`_HANDLESS`), so
        #: it is handed no copy of it for the other events.
        self._listeners = tuple((b, type(b).hear is Bot.hear) for b in everyone)
        #: audience name -> (bot, plain) of the bots who hear it (the table: everyone; a seat: its bot)
        self._ears = {TABLE: self._listeners}
        self._ears.update((seat_audience(s), ((b, type(b).hear is Bot.hear),)) for s, b in self.bots.items())
        self._speaker_ears = tuple(b for b in everyone if b.HEARS_SPEAKER)
        #: (seat, bot, whether it acts off turn as `Bot.off_turn_action` does): such a
        #: bot with no wish, no debt and its hand all heard has nothing to do off turn,
        #: which `next_input` sees without the call (nearly every bot on every input).
        #: Such a bot also plays out of turn as `Bot.impatient_play` does, which `next_input` inlines.
        self._seated_bots = tuple((s, b, type(b).off_turn_action is Bot.off_turn_action
                                   and type(b).impatient_play is Bot.impatient_play)
                                  for s, b in self.bots.items())

    def next_input(self) -> dict[str, Any] | None:
        if self.world.over:
            return None
        self.steps += 1
        if self.steps > self.step_cap or self.errors_in_a_row > 50:
            return {"console": "stop"}
        w = self.world
        if not w.field_pieces:  # dealing: the first seat short of a full hand takes the basket's top
            for short, h in w.hands.items():
                if len(h) < HAND_SIZE:
                    return {"reader": "hand", "seat": short, "tag": w.basket[-1]}
        if w.needs_field_piece and w.basket:
            return {"reader": "field", "tag": w.basket[-1]}
        hands, seated = w.hands, self._seated_bots
        chooser = None  # the first seat naming a suit: it acts once no bot acts off turn
        for seat, bot, plain in seated:
            if bot.choosing and chooser is None:
                chooser = seat, bot
            if plain and bot.all_heard and not (bot.want_trident or bot.want_agree or bot.owed):
                continue  # `off_turn_action` would return None
            action = bot.off_turn_action(tuple(hands[seat]), len(w.basket))
            if action:
                return self._placed(action)
        if chooser is not None:
            return chooser[1].choose(tuple(hands[chooser[0]]))
        turn = self._listeners[0][0].turn
        for seat, bot, plain in seated:
            if seat != turn:
                if plain:  # `Bot.impatient_play` inline: one draw per seat with pieces, no copy of the hand
                    hand = hands[seat]
                    if hand and bot.rng.random() < bot.temper.impatience:
                        return bot._field(bot.rng.choice(hand))
                    continue
                action = bot.impatient_play(tuple(hands[seat]))
                if action:
                    return action
        if turn is None:
            return {"console": "stop"}
        action = self.bots[turn].turn_action(tuple(w.hands[turn]), len(w.basket))
        if action.get("tag") == BASKET_TOP:  # `_placed`, inline: once an input
            action["tag"] = w.basket[-1]
        return action

    def _placed(self, action: dict[str, Any]) -> dict[str, Any]:
        """A bot's line as the table plays it: `BASKET_TOP` becomes the top piece's tag
        (the bot took it without seeing which; the bot counted a piece there)."""
        if action.get("tag") == BASKET_TOP:
            action["tag"] = self.world.basket[-1]
        return action

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        refused = False
        world = self.world
        hands = world.hands
        ears, speaker_ears = self._ears, self._speaker_ears
        follows, hears, speaker_keys, earphone_keys = _ROUTES  # one load, not four
        for ev in events:
            kind = ev["type"]
            if kind == "say":
                to = ev["to"]
                if to == TABLE:  # the speaker's lines may move the table
                    if ev["key"] in speaker_keys:
                        world.follow(ev)
                    for bot in speaker_ears:
                        bot.hear(ev, tuple(hands[bot.seat]))
                    continue
                key = ev["key"]
                if key in earphone_keys or key.startswith("wrong-"):  # the only lines `hear` acts on
                    for bot, plain in ears.get(to if type(to) is str else str(to), ()):
                        bot.hear(ev, NO_HAND if plain else tuple(hands[bot.seat]))
                continue
            if kind == "draw":  # `World.follow` of a draw, inline (the commonest event)
                basket, tag = world.basket, ev["tag"]
                if basket and basket[-1] == tag:
                    basket.pop()
                else:
                    basket.remove(tag)
                hands[ev["seat"]].append(tag)
            elif kind in follows:
                world.follow(ev)
                hands = world.hands  # a rotation moves the hands
            elif kind == "error":
                refused = True
            if kind in hears:
                private = ev.get("private", TABLE)
                if type(private) is not str:  # a group's secret: `ears` works out who
                    for bot in self.ears(ev):
                        bot.hear(ev, tuple(hands[bot.seat]))
                    continue
                if private != TABLE:  # one seat's (or the referee's): `ears`' rule, inline
                    for bot, plain in ears.get(private, ()):
                        bot.hear(ev, NO_HAND if plain and kind in _HANDLESS else tuple(hands[bot.seat]))
                    continue
                # a public event: every bot may know it
                if kind == "turn":
                    seat = ev["seat"]
                    for bot, plain in self._listeners:
                        if not plain:
                            bot.hear(ev, tuple(hands[bot.seat]))
                        elif bot.seat == seat:
                            bot._new_turn(seat)
                        else:  # `_new_turn` for another seat's turn, inline
                            bot.turn = seat
                            bot.drawn = bot.agreed = bot.want_agree = False
                elif kind == "play" or kind == "draw":
                    seat = ev.get("seat")
                    for bot, plain in self._listeners:
                        if not plain or bot.seat == seat:
                            bot.hear(ev, tuple(hands[bot.seat]))
                else:
                    for bot, plain in self._listeners:
                        bot.hear(ev, NO_HAND if plain and kind in _HANDLESS else tuple(hands[bot.seat]))
        self.errors_in_a_row = self.errors_in_a_row + 1 if refused else 0

    def ears(self, ev: Mapping[str, Any]) -> Sequence[Bot]:
        """The bots whose seat may know this log event: `visible_to`'s rule,
        worked out once per event rather than once per bot (the bots' share of
        a simulated game was mostly this check)."""
        if ev["type"] == "say":
            return [bot for bot, _ in self._ears.get(str(ev.get("to")), ())]
        private = ev.get("private", TABLE)
        if type(private) is str:
            return [bot for bot, _ in self._ears.get(private, ())]
        everyone = [bot for bot, _ in self._ears[TABLE]]
        names = audiences_of(private)
        if TABLE in names:
            return everyone
        return [bot for bot in everyone if seat_audience(bot.seat) in names]
