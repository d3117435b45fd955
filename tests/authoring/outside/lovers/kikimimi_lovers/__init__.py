"""Lovers: a Love-Letter-like guessing round, written in the older style (one `protocol.Game`
class whose attributes declare it), before `Declaration(public_scans=...)` existed.  It is
kept here unchanged: `kikimimi check` must keep passing it.

Each seat draws one card from the face-down pile on its own hand reader and hears it in its
earphone alone.  In turn, a seat guesses like a Love Letter guard: it scans the seat token of
another seat, then one of its own guess tokens (a look-alike every player holds), and the
table says the guess aloud, as the rules make it public.  A right guess puts that seat out
and ends the game; after every seat has guessed once, the game ends without a loser.
"""
import random

from kikimimi.contract.commands import Command, dispatch, hint_command
from kikimimi.bots.ear import EarBot, EarTable, Handles
from kikimimi.contract.hints import line, situation
from kikimimi.contract.options import Options
from kikimimi.contract.protocol import Game, error, event, say
from kikimimi.design.tuning import Report

KINDS = ("guard", "priest", "baron", "princess")
CARDS = tuple(f"lv:{k}-{n}" for k, count in zip(KINDS, (3, 2, 2, 1)) for n in range(1, count + 1))
GUESSES = tuple(f"lv:guess-{k}" for k in KINDS[1:])  # a guard never guesses a guard


def kind(tag):
    name = tag.split(":", 1)[1]
    return name.removeprefix("guess-") if name.startswith("guess-") else name.rsplit("-", 1)[0]


class LoversGame(Game):
    name = "lovers"
    min_players, max_players, official_players = 2, 3, 3
    tag_sets = ("lv",)
    options_schema = Options()
    bots = ("ear",)
    bot_table = "kikimimi_lovers:lovers_ears"
    ear_table = "kikimimi_lovers:lovers_ears"
    report = "kikimimi_lovers:LoversReport"
    diagram_of = "kikimimi_lovers:diagram"
    console_commands = (hint_command(), Command("stop", "end the game now", "console_stop"))

    def __init__(self, players, options=None):
        super().__init__(players, options)
        self.left = list(CARDS)
        self.cards = {}
        self.guessed = []
        self.target = None
        self.ended = False

    @classmethod
    def known_tags(cls, players):
        return frozenset(CARDS) | frozenset(GUESSES)

    @classmethod
    def kit(cls, players, options):
        return [f"seat:{k}" for k in range(1, players + 1)] + ["cmd:hint", *GUESSES], list(CARDS)

    @classmethod
    def phrase_values(cls, players, options):
        return {"seat": range(1, players + 1), "target": range(1, players + 1), "card": KINDS}

    @property
    def over(self):
        return self.ended

    def start(self, t):
        return [say("table", "deal")]

    def turn(self):
        return len(self.guessed) % self.players + 1

    def handle(self, inp):
        if inp.console is not None:
            return dispatch(self, self.console_commands, inp.console, inp.t, self.players)
        if not inp.placed or inp.seat is None:
            return []
        seat, tag = inp.seat, inp.tag
        if tag in CARDS:
            if seat in self.cards or tag not in self.left or len(self.cards) == self.players:
                return [error("one card each, from the pile", private=f"seat:{seat}"), say(f"seat:{seat}", "one-card")]
            self.left.remove(tag)
            self.cards[seat] = tag
            out = [say(f"seat:{seat}", "your-card", card=kind(tag)), say("table", "drew", seat=seat)]
            if len(self.cards) == self.players:
                out.append(say("table", "turn", seat=self.turn()))
            return out
        if len(self.cards) < self.players or seat != self.turn():
            return [error("not your guess now", private=f"seat:{seat}"), say(f"seat:{seat}", "not-now")]
        if tag.startswith("seat:"):
            target = int(tag[5:])
            if target == seat:
                return [error("guess another seat", private=f"seat:{seat}"), say(f"seat:{seat}", "not-now")]
            self.target = target
            return [say("table", "aims", seat=seat, target=target)]
        if tag in GUESSES and self.target is not None:
            target, self.target = self.target, None
            self.guessed.append(seat)
            right = kind(self.cards[target]) == kind(tag)
            out = [event("guess", seat=seat, target=target, guess=tag, right=right),
                   say("table", "guesses", seat=seat, target=target, card=kind(tag)),
                   say("table", "right" if right else "wrong", seat=target)]
            if right or len(self.guessed) == self.players:
                self.ended = True
                ranking = [{"seat": s, "place": 2 if right and s == target else 1} for s in range(1, self.players + 1)]
                return out + [event("game-over", reason="end", ranking=ranking)]
            return out + [say("table", "turn", seat=self.turn())]
        return [error("scan a seat, then a guess", private=f"seat:{seat}"), say(f"seat:{seat}", "not-now")]

    def sight(self, seat):
        if len(self.cards) < self.players:
            return [line("deal")] + [line("drew", seat=s) for s in sorted(self.cards)]
        return [line("turn", seat=self.turn())]

    def own(self, seat):
        return [line("your-card", card=kind(self.cards[seat]))] if seat in self.cards else []

    def situation(self):
        return situation(self.sight(0))

    def console_stop(self, t):
        self.ended = True
        return [event("game-over", reason="stopped", ranking=[])]

    def snapshot(self):
        return {"cards": dict(self.cards), "guessed": list(self.guessed), "target": self.target}


def diagram():
    return "stateDiagram-v2\n  [*] --> deal\n  deal --> guess\n  guess --> guess\n  guess --> [*]\n"


class LoversReport(Report):
    def figures(self, trial, script, log):
        return sum(1 for ev in log if ev["type"] == "guess" and ev["right"])

    def text(self, rows, ask):
        return f"Lovers: {len(rows)} bot games, {ask.players} players; a right guess in {sum(1 for _, n in rows if n)}"


class Pile:
    def __init__(self, rng):
        self.handles = Handles(CARDS, rng)
        self.pile = list(CARDS)
        rng.shuffle(self.pile)
        self.hands = {}
        self.over = False

    def follow(self, ev):
        self.over = self.over or ev.get("type") == "game-over"

    def reach(self, seat):
        if seat is None or seat in self.hands or not self.pile:
            return None
        return self.handles.of(self.pile[-1])

    def tag_for(self, seat, handle):
        tag = self.handles.tag(handle)
        if seat is None or seat in self.hands or not self.pile or tag != self.pile[-1]:
            return None
        self.hands[seat] = self.pile.pop()
        return tag

    def public_tag(self, tag):
        return tag.startswith(("cmd:", "seat:")) or tag in GUESSES  # tokens every player holds


class Guesser(EarBot):
    def __init__(self, seat, players, rng):
        self.seat, self.players, self.rng = seat, players, rng
        self.todo = []

    def hear(self, heard):
        if heard.key == "deal":
            self.todo = [{"reader": "hand", "draw": True}]
        elif heard.key == "turn" and heard.params.get("seat") == self.seat:
            target = self.rng.choice([s for s in range(1, self.players + 1) if s != self.seat])
            self.todo = [{"reader": "hand", "tag": f"seat:{target}"},
                         {"reader": "hand", "tag": self.rng.choice(GUESSES)}]

    def act(self, reach):
        if not self.todo:
            return None
        todo = self.todo.pop(0)
        if todo.pop("draw", False):
            return None if reach is None else {**todo, "piece": reach}
        return todo


def lovers_ears(seed, players, options, bot=None):
    rng = random.Random(seed)
    return EarTable("lovers", Pile(rng), [Guesser(s, players, random.Random(seed * 17 + s))
                                          for s in range(1, players + 1)])
