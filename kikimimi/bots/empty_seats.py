"""The bots in empty seats of a live table: they hear their seat, wait like a person, and act.

The referee's `bot SEAT` (`kikimimi.bots.referee_bots`) seats one of the game's ear
bots (`kikimimi.bots.ear`): it hears only what that seat's earphone and the
speaker say, never the game's state, so it knows exactly what the player
who sat there would know (at a seat taken over mid-game it is told first
what that seat heard so far).  It runs here, in the daemon, never in the
game: each act becomes the line the referee would type for that seat (a
stand-in `scan SEAT TAG`, or the player's typed speech), journaled like any
console line and marked with `"bot": SEAT`.  So `kikimimi replay` needs no
bot, and a resume after a kill rebuilds each bot by feeding it the journal
again: at a line it once acted it acts again, the act is thrown away (it is
already journaled), and the bot ends where it stood, never acting twice.

Why a delay: a bot that scans the instant the night is called would be
known by its speed (the night ends as soon as the last scan is in).  Each
act waits a delay drawn from the `bot` line's journaled seed, from the call
it answers, within `DELAY` (docs/seat-bots.md says how it was chosen).

What it cannot do, it says to the referee in a note (not logged: a note is
advice, not an input): its own face-down card or piece is the referee's to
scan, because only hands can move it; when it has nothing it can choose, it
passes (the rules' own silence: no ballot, no night scan) and says so; after
`GIVE_UP` refusals in a row of the same act it stops trying it.
"""
from __future__ import annotations

import copy
import pickle
import random
import sys
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.bots import referee_bots as seat_bots
from kikimimi.contract import parts as declared
from kikimimi.bots.ear import EAR, EarBot, EarTable, World, heard_by
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import REFEREE, each_audience, seat_audience
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Garbled, Header

LogEvent = dict[str, Any]
#: Seconds a bot waits before an act, from the call it answers: uniform in this range.
DELAY = (3.0, 8.0)
#: The same act refused this many times in a row: the bot stops offering it.
GIVE_UP = 3
#: The note event told to the referee (never logged, never public).
NOTE = "seat-bot-note"


def _copy(bot: EarBot) -> EarBot:
    """A bot to ask without changing it: pickled and back (in C: a deep copy of the minds'
    random generators cost 15 ms a copy), or deep-copied where it cannot be pickled."""
    try:
        copied: EarBot = pickle.loads(pickle.dumps(bot, pickle.HIGHEST_PROTOCOL))
        return copied
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(bot)


@dataclass
class _Seat:
    """One bot at one seat, and what it is about to do."""

    seat: int
    kind: str
    seed: int
    bot: EarBot
    world: World
    acts: int = 0  # acts journaled so far: the index of the next delay's draw
    planned: dict[str, Any] | None = None  # the next line, as the bot would make it now
    due: float | None = None  # when it is made
    refused: int = 0  # the planned act's refusals in a row
    last: dict[str, Any] | None = None  # the act it made last, as journaled
    given_up: dict[str, Any] | None = None  # the act refused GIVE_UP times
    before: EarBot | None = None  # the bot before an act the journal did not take
    failed: bool = False  # it raised: it no longer plays, its earphone stays silent


class SeatBotDriver:
    """Every bot seated at one game of one table (a new game starts with none)."""

    def __init__(self, header: Header, log: Sequence[LogEvent], delay: tuple[float, float] = DELAY):
        self.header = header
        self.decl = declaration(header.game)
        self.log = log  # the game's log, growing: a bot seated mid-game hears its seat's past from it
        self.delay = delay
        self.seats: dict[int, _Seat] = {}
        self._book: Phrasebook | None = None
        #: Notes made outside `follow` (a bot that failed as it acted), told with the next line.
        self.waiting: list[LogEvent] = []

    @property
    def book(self) -> Phrasebook:
        """Parameters as spoken, in English names (as every ear bot hears them)."""
        if self._book is None:
            self._book = Phrasebook("en", ("core", self.decl.name))
        return self._book

    # -- following the table -------------------------------------------------
    def follow(self, item: Mapping[str, Any] | Garbled, events: Sequence[LogEvent],
               replaying: bool = False) -> list[LogEvent]:
        """One journal line applied and its events: seat or unseat bots, let each hear its
        seat, and plan what each does next.  `replaying` (a resume): a line a bot made is
        made again in its mind first.  Returns notes for the referee (empty when replaying)."""
        notes: list[LogEvent] = []
        item = item if isinstance(item, Mapping) else {}
        if not events and seat_bots.MARK not in item:
            return notes
        stamp = events[-1]["t"] if events else item.get("t")
        t = float(stamp) if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) else 0.0
        moved: set[int] = set()
        acted = item.get(seat_bots.MARK)
        if type(acted) is int and acted in self.seats and not self.seats[acted].failed:
            mine = self.seats[acted]
            try:
                if replaying:
                    mine.bot.act(mine.world.reach(acted))  # made before; its result is this very line
                mine.last = {"console": item.get("console")}
                notes += self._answered(mine, events, t)
                moved.add(acted)
            except Exception as exc:  # a bot's bug must not take the table down
                notes.append(self._unseat(acted, exc, t))
        for ev in events:
            change = seat_bots.change_of(ev)
            if change is not None:
                try:
                    moved |= self._seat(change, item, ev)
                except Exception as exc:
                    notes.append(self._unseat(change[0], exc, t))
                continue
            for s, mine in list(self.seats.items()):
                if mine.failed:
                    continue
                try:
                    mine.world.follow(ev)
                    heard = heard_by(ev, s, self.book)
                    if heard is not None:
                        mine.bot.hear(heard)
                        moved.add(s)
                except Exception as exc:
                    notes.append(self._unseat(s, exc, t))
        for s in sorted(moved & {s for s, mine in self.seats.items() if not mine.failed}):
            try:
                notes += self._plan(self.seats[s], t)
            except Exception as exc:
                notes.append(self._unseat(s, exc, t))
        if replaying:
            return []
        notes, self.waiting = self.waiting + notes, []
        return notes

    def due(self, now: float) -> list[tuple[int, dict[str, Any]]]:
        """The acts due by `now`, each decided now from all its seat has heard, as journal
        lines (call under the table's lock, and submit them in order)."""
        out = []
        for s, mine in sorted(self.seats.items()):
            if mine.failed or mine.planned is None or mine.due is None or mine.due > now:
                continue
            mine.planned = mine.due = None
            try:
                mine.before = _copy(mine.bot)
                line = self._line(mine, mine.bot.act(mine.world.reach(s)))
            except Exception as exc:  # its note reaches the referee with the next line's events
                self.waiting.append(self._unseat(s, exc, now))
                continue
            if isinstance(line, dict):
                out.append((s, {**line, seat_bots.MARK: s}))
        return out

    def unsent(self, seat: int) -> None:
        """The journal did not take a bot's act: it is the bot's to make again."""
        mine = self.seats.get(seat)
        if mine is not None and mine.before is not None:
            mine.bot, mine.before = mine.before, None
            self._plan(mine, 0.0)

    def room(self, events: Sequence[LogEvent]) -> list[LogEvent]:
        """What the room may play: nothing for a bot's earphone (nobody sits there, and a
        neighbour would hear it); the referee's console still gets everything."""
        if not self.seats:
            return list(events)
        silent = {seat_audience(s) for s in self.seats}
        out = []
        for ev in events:  # a reveal is split: the seats people sit in still hear it
            out += [one for one in each_audience(ev) if not (one.get("type") == "say" and one.get("to") in silent)]
        return out

    # -- inside ------------------------------------------------------------------
    def _seat(self, change: tuple[int, str | None], item: Mapping[str, Any], ev: LogEvent) -> set[int]:
        seat, kind = change
        if kind is None:
            self.seats.pop(seat, None)
            return set()
        seed = item.get(seat_bots.SEED)
        seed = seed if type(seed) is int else 0
        players, options = self.header.players, dict(self.header.options)
        table = (declared.simulation(self.decl, seed, players, options, EAR) if kind == EAR
                 else declared.part(self.decl, self.decl.ear_table or "")(seed, players, options, kind))
        if not isinstance(table, EarTable):  # a plugin's broken promise: the referee is told in one line
            raise TypeError(f"{self.decl.name}'s ear table is not an EarTable "
                            f"(it is {type(table).__name__}; docs/ear.md)")
        bot = next(b for b in table.bots if b.seat == seat)
        mine = _Seat(seat, kind, seed, bot, table.world)
        for past in self.log:  # what this seat heard before the bot sat down
            if past is ev:
                break
            mine.world.follow(past)
            heard = heard_by(past, seat, self.book)
            if heard is not None:
                bot.hear(heard)
        self.seats[seat] = mine
        return {seat}

    def _unseat(self, seat: int, exc: Exception, t: float) -> LogEvent:
        """A bot that failed stops playing; its seat stays a bot's (its earphone plays
        nowhere) until the referee's `unbot`.  The referee is told in one line, the stderr gets
        the trace; the same journal fails it at the same line on a resume."""
        print(f"kikimimi: the bot at seat {seat} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        mine = self.seats.get(seat)
        if mine is not None:
            mine.failed, mine.planned, mine.due = True, None, None
        return self._note(seat, t, f"it failed ({type(exc).__name__}: {str(exc)[:80]}) and stops; "
                                   f"unbot {seat} and bot {seat} to seat it again, or play the seat")

    def _answered(self, mine: _Seat, events: Sequence[LogEvent], t: float) -> list[LogEvent]:
        """A bot's act came back: refused (an error answered it) or taken."""
        mine.acts += 1
        mine.before = None
        if not any(ev.get("type") == "error" and ev.get("in") is not None for ev in events):
            mine.refused, mine.given_up = 0, None
            return []
        mine.refused += 1
        if mine.refused < GIVE_UP:
            return []
        mine.refused = 0
        mine.given_up = mine.last
        return [self._note(mine.seat, t, "its act was refused three times in a row: it stops trying it "
                                         "(it abstains, as a player who says nothing)")]

    def _plan(self, mine: _Seat, t: float) -> list[LogEvent]:
        """What the bot would do now (asked of a copy: deciding is for when it acts)."""
        s = mine.seat
        trial = _copy(mine.bot)
        proposed = trial.act(mine.world.reach(s))
        line = self._line(mine, proposed)
        if isinstance(line, str):  # its own piece: hands must move it; the act is spent
            mine.bot.act(mine.world.reach(s))
            mine.planned = mine.due = None
            return [self._note(s, t, line)]
        if line is None or line == mine.given_up:
            had = bool(getattr(mine.bot, "todo", None))
            mine.planned = mine.due = None
            if proposed is None and had:  # asked to act, and nothing it can choose: it passes
                mine.bot.act(mine.world.reach(s))
                return [self._note(s, t, "it has no choice it can make: it passes (abstains)")]
            return []
        if line != mine.planned:
            lo, hi = self.delay
            wait = random.Random(f"{mine.seed}:{s}:{mine.acts}").uniform(lo, hi)
            mine.planned, mine.due = line, round(t + wait, 2)
        return []

    def _line(self, mine: _Seat, proposed: Mapping[str, Any] | None) -> dict[str, Any] | str | None:
        """The console line a bot's proposal is at a live table; a note when only hands could make it."""
        if proposed is None:
            return None
        s = mine.seat
        text = proposed.get("console")
        if isinstance(text, str):  # what the player says for the referee to type: for its own seat only
            words = text.split()
            if len(words) < 2 or words[1] != str(s) or seat_bots.is_command(text) or "\n" in text:
                return None
            return {"console": text}
        verb = "lift" if proposed.get("removed") else "scan"
        where = {"hand": str(s), "field": "field"}.get(str(proposed.get("reader")))
        if where is None:
            return None
        if "piece" in proposed:
            return (f"it would {verb} its own face-down card or piece on the {proposed.get('reader')} reader "
                    f"now: {verb} it for it there (or type {verb} {where} TAG)")
        tag = proposed.get("tag")
        if not isinstance(tag, str) or not mine.world.public_tag(tag):
            return None
        return {"console": f"{verb} {where} {tag}"}

    def _note(self, seat: int, t: float, message: str) -> LogEvent:
        return {"seq": None, "t": t, "type": NOTE, "in": None, "seat": seat,
                "message": f"seat {seat} (bot): {message}", "private": REFEREE}
