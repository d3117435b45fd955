"""Ear-only bots: players who decide from what they hear, and nothing else.

kikimimi promises that what a sighted player can see, a blind player can
hear.  Ear bots are the mechanical proof: each one hears only the `say`
events addressed to the speaker or to its own earphone (as `Heard`: the
phrase key and its parameters as spoken), never a structured event (`turn`,
`suit`, `pending`, `play`, ...) and never the game's state.  If ear bots
cannot finish a game, something a player needs is not spoken: fix the game.

Three parts, and a game adds only the first two:

- a **world** (`World`): the physical table, which follows the controller's
  events the way pieces follow hands (a refused piece goes back, a rotation
  moves hands).  It is physics, not a player: it never decides a move.  It
  hands each seat only what that seat can touch (`reach`), with pieces as
  opaque handles (`Handles`), so a bot cannot learn what a look-alike piece
  is from its name;
- the **bots** (`EarBot`): one per seat, `hear(Heard)` and `act(reach)`; a
  table-side actor (the referee, seat None) hears the speaker only;
- this module's `EarTable`: the `Simulation` that routes what each ear may
  hear, turns handles back into tags, refuses a line a seat could not
  physically make, and stops a game that stalls.

`kikimimi sim GAME --bot ear` plays one game; `--games N` prints `sim.compare`:
the ear bots' figures beside the game's own (event) bots'.
"""
from __future__ import annotations

import random
import statistics
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import REVEAL, TABLE, audiences_of, seat_audience

#: The bot kind that selects ear bots on the command line.
EAR = "ear"
#: A game still running after this many inputs is stopped by the referee.
STEP_CAP = 4000
#: Refused inputs in a row after which the referee stops the game.
ERROR_STREAK = 60
#: The stream the seats' asking order is drawn from (with the game's seed: `EarTable.reseed`).
ORDER_SEED = "ear-order"


@dataclass(frozen=True, slots=True)
class Heard:
    """One spoken line, as an ear gets it: who it was for, the phrase key, and
    the parameters as spoken (a piece or card is its catalogue name, e.g.
    "unknown", never its tag)."""

    to: str
    key: str
    params: Mapping[str, Any]
    text: str


class Handles:
    """Opaque numbers for physical objects, shuffled per game, so a handle
    says nothing about what the object is."""

    def __init__(self, tags: Iterable[str], rng: random.Random):
        tags = sorted(tags)
        numbers = list(range(1, len(tags) + 1))
        rng.shuffle(numbers)
        self._of = dict(zip(tags, numbers))
        self._tag = {n: t for t, n in self._of.items()}

    def of(self, tag: str) -> int:
        return self._of[tag]

    def tag(self, handle: int) -> str | None:
        return self._tag.get(handle)


class World(Protocol):
    """A game's physical table for ear bots."""

    @property
    def over(self) -> bool:
        """The game has ended (an attribute or a property: `EarTable` only reads it)."""

    def follow(self, ev: Mapping[str, Any]) -> None:
        """Move the physical objects as this event says they moved (physics only)."""

    def reach(self, seat: int | None) -> Any:
        """What `seat` can touch now (its hand as handles, the basket's top, ...)."""

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        """The tag of a handle `seat` can touch, or None if it cannot reach it."""

    def public_tag(self, tag: str) -> bool:
        """Tags anyone may name directly: command tags, seat tokens, labelled tokens."""


class EarBot(ABC):
    """One ear: a seat's player (`seat` N) or a table-side actor (`seat` None)."""

    seat: int | None = None

    @abstractmethod
    def hear(self, heard: Heard) -> None:
        """One spoken line this ear heard."""

    @abstractmethod
    def act(self, reach: Any) -> dict[str, Any] | None:
        """The next line this actor makes, or None to wait.

        A seat uses its own hand reader or the field: `{"reader": "hand",
        "piece": HANDLE}`, `{"reader": "field", "piece": HANDLE}`, or a public
        tag (`"tag": "cmd:pass"`).  `{"console": ...}` is what the player
        says aloud for the referee to type (a suit named without a piece)."""


class SeatEar(EarBot):
    """An ear bot in a seat: it always has one, so `seat` is an int (mypy checks what a
    seated bot does with it: `seat_audience(self.seat)`, its own hand)."""

    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(frozen=True)
class Call:
    """A console command the referee calls once, when a line in `opens` was heard on the
    speaker and none in `closes` since (`dt`: the seconds the referee takes; None, at once)."""

    command: str
    opens: frozenset[str]
    closes: frozenset[str] = frozenset()
    dt: float | None = None


class RefereeEar(EarBot):
    """The referee at the console, hearing the speaker like everyone else: when the seats have
    nothing left to do, it calls what the speaker last asked for (the first open `Call` first)."""

    seat = None

    def __init__(self, *calls: Call):
        self.calls = calls
        self.open: set[str] = set()

    def hear(self, heard: Heard) -> None:
        for call in self.calls:
            if heard.key in call.opens:
                self.open.add(call.command)
            elif heard.key in call.closes:
                self.open.discard(call.command)

    def act(self, reach: Any) -> dict[str, Any] | None:
        for call in self.calls:
            if call.command in self.open:
                self.open.discard(call.command)
                return {"console": call.command} if call.dt is None else {"console": call.command, "dt": call.dt}
        return None


def spoken_params(book: Phrasebook, params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters as they are spoken: names through the catalogue, lists item by item."""
    def one(v: Any) -> Any:
        if isinstance(v, str):
            return book.name(v)
        if isinstance(v, (list, tuple)):
            return [one(x) for x in v]
        return v

    return {k: one(v) for k, v in params.items()}


def heard_by(ev: Mapping[str, Any], seat: int | None, book: Phrasebook) -> Heard | None:
    """What `seat`'s ear (None: the speaker only) hears of one log event, if anything."""
    kind = ev.get("type")
    if kind == REVEAL:  # one phrase for several earphones: this seat's, if it is listed
        if seat is None or seat_audience(seat) not in audiences_of(ev.get("private")):
            return None
        to: Any = seat_audience(seat)
    elif kind != "say":
        return None
    else:
        to = ev.get("to")
        if to != TABLE and (seat is None or to != seat_audience(seat)):
            return None
    return Heard(str(to), str(ev.get("key")), spoken_params(book, ev.get("params") or {}), str(ev.get("text", "")))


class EarTable:
    """The `Simulation` of ear bots: before every input the seats are asked in a fresh
    seeded order, then the table-side actors (the referee) in theirs; each hears only its
    own ears, and the world moves the pieces.  A proposal the actor could not physically
    make (a piece out of reach, another seat's reader) is dropped and the next actor asked.

    Why a fresh order: asked in seat order, seat 1 answered first in every "first answer
    wins" window (an outside game's challenge: seat 1 challenged on 24.6 % of questions, seat 6
    on 9.3 %; docs/report.md).  The runtime seeds the order from the game's seed (`reseed`, called by
    `kikimimi.contract.parts.simulation`), so a game gets fair races without knowing.

    While a window for several seats is open (`choice-window`: its logged `order` is the
    runtime's seeded order of the asked seats), its seats still in it are asked first, in
    that order: the race goes as the runtime says it does, the same for every bot and in
    the replay, not as this table's own draw would have it."""

    def __init__(self, game: str, world: World, bots: Sequence[EarBot], step_cap: int = STEP_CAP):
        self.world = world
        self.bots = list(bots)
        self.seats = [b for b in self.bots if b.seat is not None]
        self.table_side = [b for b in self.bots if b.seat is None]
        self.order = random.Random(ORDER_SEED)
        self.book = Phrasebook("en", ("core", game))
        self.steps = 0
        self.step_cap = step_cap
        self.errors_in_a_row = 0
        #: The windows open to several seats, by name: their seats still asked, in logged order.
        self.windows: dict[str, list[int]] = {}

    def next_input(self) -> dict[str, Any] | None:
        if self.world.over:
            return None
        self.steps += 1
        if self.steps > self.step_cap or self.errors_in_a_row > ERROR_STREAK:
            return {"console": "stop"}
        seats = self.seats[:]
        self.order.shuffle(seats)  # drawn each input, window or not: a game without one plays as before
        racing = [k for order in self.windows.values() for k in order]
        if racing:
            rank = {k: i for i, k in reversed(list(enumerate(racing)))}  # a seat's first place
            seats.sort(key=lambda b: rank.get(b.seat or 0, len(racing)))  # stable: the rest keep their draw
        for bot in (*seats, *self.table_side):
            proposed = bot.act(self.world.reach(bot.seat))
            if proposed is None:
                continue
            line = self._physical(bot.seat, proposed)
            if line is not None:
                return line
        return None  # nobody knows what to do: the game is stuck, and the report says so

    def reseed(self, seed: int) -> None:
        """Seed the asking order from the game's seed (the same seed asks in the same orders)."""
        self.order = random.Random(f"{ORDER_SEED}-{seed}")

    def _physical(self, seat: int | None, proposed: Mapping[str, Any]) -> dict[str, Any] | None:
        """The script line a proposal makes, if that actor could physically make it."""
        line = {k: v for k, v in proposed.items() if k in ("reader", "tag", "console", "dt", "removed")}
        if "console" in line:
            return line
        reader = line.get("reader")
        if reader not in ("hand", "field") or (reader == "hand" and seat is None):
            return None
        if reader == "hand":
            line["seat"] = seat
        if "piece" in proposed:
            tag = self.world.tag_for(seat, int(proposed["piece"]))
            if tag is None:
                return None
            line["tag"] = tag
        elif not isinstance(line.get("tag"), str) or not self.world.public_tag(line["tag"]):
            return None
        return line

    def _follow_windows(self, ev: Mapping[str, Any]) -> None:
        """Keep which windows are open and which of their seats are still asked (the table's
        own events, never a bot's ear: only the asking order reads them)."""
        kind = ev.get("type")
        if kind == "choice-window":
            order = ev.get("order")
            if isinstance(order, list) and all(type(k) is int for k in order):
                self.windows[str(ev.get("name"))] = list(order)
        elif kind == "choice-cancel" and "window" in ev:
            name = str(ev.get("window"))
            if ev.get("declined") is True and name in self.windows:  # one seat let it go
                seats = ev.get("seats")
                gone = seats if isinstance(seats, list) else []
                self.windows[name] = [k for k in self.windows[name] if k not in gone]
                if not self.windows[name]:  # every seat declined: silence
                    del self.windows[name]
            else:  # answered, timed out or taken back
                self.windows.pop(name, None)
        elif kind == "chosen" and ev.get("window") is True:
            self.windows.pop(str(ev.get("name")), None)
        elif kind == "choice" and type(ev.get("seat")) is int:  # asked another question: out of its window
            for name in list(self.windows):
                self.windows[name] = [k for k in self.windows[name] if k != ev["seat"]]
                if not self.windows[name]:
                    del self.windows[name]
        elif kind == "game-over":
            self.windows.clear()

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        refused = False
        for ev in events:
            self._follow_windows(ev)
            self.world.follow(ev)
            refused = refused or ev.get("type") == "error"
            for bot in self.bots:
                heard = heard_by(ev, bot.seat, self.book)
                if heard is not None:
                    bot.hear(heard)
        self.errors_in_a_row = self.errors_in_a_row + 1 if refused else 0


# -- the report ---------------------------------------------------------------
def game_figures(script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Finished (a game-over not called by the referee), refused inputs, length, internal errors."""
    over = next((e for e in log if e.get("type") == "game-over"), None)
    errors = [e for e in log if e.get("type") == "error"]
    return {
        "finished": over is not None and over.get("reason") != "stopped",
        "refused": len(errors),
        "internal": sum("internal error" in str(e.get("message", "")) for e in errors),
        "inputs": len(script) - 1,
    }


def figures_line(label: str, figures: Sequence[Mapping[str, Any]]) -> str:
    n = len(figures)
    finished = sum(f["finished"] for f in figures)
    refused = [f["refused"] for f in figures]
    length = [f["inputs"] for f in figures]
    internal = sum(f["internal"] for f in figures)
    return (f"  {label:12s} finished {finished}/{n} ({finished / n:.1%}), "
            f"refused inputs per game mean {statistics.fmean(refused):.2f} median {statistics.median(refused):g}, "
            f"game length (inputs) mean {statistics.fmean(length):.1f} median {statistics.median(length):g} "
            f"max {max(length)}, internal errors {internal}")
