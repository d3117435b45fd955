"""The table engine: the one place where table-script lines become events.

The daemon, the simulator and `kikimimi replay` all push lines through a
`Table`, so a game recorded at a real table replays byte for byte.  The
engine checks what only the runtime can (a reader that exists, a known tag,
time that never runs backwards), numbers the events, gives each its `in`
back-reference, resolves `say` phrases to text in the table's language, and
fires the timers games ask for, on the script's clock, never the wall's.

Time is an input too (docs/durability.md): a live table journals each timer
it fires as a line `{"t": AT, "timer": NAME}`, so its journal replays to the
same end; the referee's `pause`/`resume` (and, where a game declares
`pause_when_reader_lost`, a hand reader lost) stop the *game's* clock, which
is the table's clock less the time it stood still.  A script's jump in time
fires at most `MAX_FIRINGS` timers per line, so hostile time is bounded work.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import random
import sys
import traceback
from collections.abc import Callable, Collection, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from kikimimi.bots import referee_bots as seat_bots
from kikimimi.contract import choices, heard, hints
from kikimimi.table import public, stand_in
from kikimimi.contract.game_files import tagmap_file
from kikimimi.contract.kit import table_tags
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import (REFEREE, RESERVED_EVENTS, REVEAL, RUNTIME_EVENTS, TABLE, Event, GameEvent,
                                        Input, Play, as_event, reader_input, reserved_refusal, seat_audience,
                                        well_formed)
from kikimimi.contract.registry import UnknownGame, declaration
from kikimimi.contract.script import Garbled, Header, ScriptError, dumps, is_clock_line, is_undo, iter_dicts
from kikimimi.contract.tagmap import load_tagmap, normalise_uid
from kikimimi.voice.settings import is_voice_command, parse_voice_command

LogEvent = dict[str, Any]
#: The event types `Table._log_events` does more with than number and stamp them.
_KEPT_BY_THE_TABLE = frozenset({"say", "timer-set", "timer-cancel", choices.ASK, REVEAL, choices.CANCEL,
                                choices.WINDOW})
#: Of those, the ones a log-shaped event (`protocol.log_shaped`) is not logged in place for.
_KEPT_BUT_SAYS = _KEPT_BY_THE_TABLE - {"say"}
_HINT = hints.HINT_TAG
#: The runtime's own timers: a prompt heard (`heard:`), a window's time limit (`window:`).
_RUNTIME_TIMERS = (heard.PREFIX, choices.WINDOW_TIMER_PREFIX)
_isfinite = math.isfinite
READER_STATES = ("lost", "back")
#: The referee's clock commands, handled by the runtime for every game.
PAUSE, RESUME = "pause", "resume"
CLOCK_COMMANDS = (PAUSE, RESUME)
#: Most timers one script line may fire: a clock jump past them (`{"t": 1e12}`
#: in a script whose phases cycle on their timers) is refused in one line
#: instead of cycling without bound.  A live table fires a handful per line.
MAX_FIRINGS = 1000
#: A line more than this many seconds past a timer that is due is refused
#: before anything fires: a live table fires its timers as they fall due (its
#: journal never holds such a gap), an old script's gaps are seconds, and a
#: hostile one costs one line, not 1000 firings.  A gap with no timer due (a
#: Trident table left overnight) is no jump at all.
MAX_CLOCK_JUMP = 86400.0
#: Longest timer name a timer line may carry (untrusted input).
MAX_TIMER_NAME = 64
#: Who holds the clock when the referee paused it (a lost reader holds it as "hand N").
REFEREE_HOLD = "referee"


def is_clock_command(item: Mapping[str, Any] | Garbled) -> bool:
    """The referee's `pause` or `resume`: the clock's business, never an undo's target."""
    return (type(item) is dict and isinstance(item.get("console"), str)
            and item["console"].strip() in CLOCK_COMMANDS)


def is_reader_state(item: Mapping[str, Any] | Garbled) -> bool:
    """A reader lost or back: the table's equipment, never an undo's target."""
    return type(item) is dict and "reader" in item and (item.get("lost") is True or item.get("back") is True)


@functools.lru_cache(maxsize=32)
def _phrasebook(lang: str, game: str) -> Phrasebook:
    """Catalogues are read once per process: an undo or a resume rebuilds the
    Table, and parsing the TOML again each time was most of an undo's cost."""
    return Phrasebook(lang, ("core", game))


class _Hearing:
    """A table's state for time after heard (kikimimi.contract.heard)."""

    __slots__ = ("new", "on", "reported", "wpm", "speech")

    def __init__(self, header: Header) -> None:
        self.new = False  # this batch asked for a timer after heard
        self.on = False  # some batch did: every batch's phrases are queued from then on
        #: The outputs report when a prompt has been heard (a `heard:` timer line); else modelled.
        self.reported = header.extra.get(heard.HEADER_KEY) == heard.OUTPUTS
        wpm = header.extra.get("wpm")
        self.wpm = wpm if type(wpm) is int and heard.MIN_WPM <= wpm <= heard.MAX_WPM else heard.WORDS_PER_MINUTE
        #: The modelled outputs' queues, kept from the first timer asked after heard on.
        self.speech: heard.SpeechClock | None = None


class Table:
    """One game at one table.  Not thread-safe: feed it from one thread."""

    def __init__(
        self,
        header: Header,
        *,
        tagmap: Mapping[str, str] | None = None,
        hand_seats: Collection[int] | None = None,
        has_field: bool = True,
    ) -> None:
        try:
            decl = declaration(header.game)
            decl.check_players(header.players)
        except (UnknownGame, ValueError) as exc:
            raise ScriptError(str(exc)) from None
        self.header = header
        self.declaration = decl
        try:
            self.game: Play = decl.new_play(header.players, header.options)
        except Exception as exc:  # a bad option: say which, in one line (whatever the game raised)
            raise ScriptError(f"{decl.name}: {exc}") from None
        self.phrasebook = _phrasebook(header.lang, decl.name)
        self._render = self.phrasebook.render
        seats = range(1, header.players + 1)
        try:  # a game with a kit: exactly its kit's seat tokens and command tags, and its pieces
            self.known_tags = table_tags(decl, header.players, header.options)
        except Exception as exc:  # a kit that cannot be listed at these options: one line
            raise ScriptError(f"{decl.name}: the kit: {exc}") from None
        #: HINT on a hand reader is answered here, from the play's `sight` (hints.hint).
        self._runtime_hint = decl.hint == "runtime" and callable(getattr(self.game, "sight", None))
        #: The question pending for each seat (`kikimimi.contract.choices`), while it waits for its answer.
        self.choices: dict[int, choices.Choice] = {}
        #: The count so far of each pending amount (`choices.ask_amount`), by seat.
        self._amounts: dict[int, int] = {}
        #: The windows open to several seats at once (`choices.ask_window`), by name.
        self.windows: dict[str, choices.Window] = {}
        #: Timers waiting for their prompt to be heard (kikimimi.contract.heard): name -> seconds after.
        self.heard_wait: dict[str, float] = {}
        #: When prompts are heard (one attribute: a Table past 30 of them loses CPython's
        #: fast attribute loads on every input, 2 % of a bot game).
        self._hearing = _Hearing(header)
        self.tagmap = {normalise_uid(k): v for k, v in (tagmap or {}).items()}
        self.hand_seats = set(hand_seats) if hand_seats is not None else set(seats)
        self.has_field = has_field
        self.seq = 0
        self.t: float = 0.0
        #: Pending timers, on the *game's* clock (what the game asked for).
        self.timers: dict[str, float] = {}
        #: The earliest timer's time on the table's clock (inf: none, or the
        #: clock is paused), kept with `timers` so an input with nothing due
        #: does not scan them.
        self._next_due = math.inf
        self.inputs = 0  # script lines applied, header excluded
        #: Timers fired so far (ScriptRun tells by it which lines moved the clock).
        self.firings = 0
        #: Who holds the game's clock still: "referee", "hand 2"...  Empty: it runs.
        self.paused_by: set[str] = set()
        self.lost_readers: set[str] = set()  # readers said lost and not back (a `back` needs one)
        self._paused_at: float | None = None  # the table's time the clock stopped
        #: Seconds the game's clock has stood still in all: game time = table time - lag.
        self._lag = 0.0
        self._pause_on_lost = decl.pause_when_reader_lost
        #: A game whose field reader is part of play (闇に笑う魔女's microphone) holds its clock without it.
        self._pause_on_field = decl.pause_when_field_lost
        self._stalled = False  # the last advance stopped at MAX_FIRINGS
        self._fired_now: list[str] = []  # the names the current line's advance fired
        #: Which seats bots play (`bot SEAT`): the table's seating, journaled like any console line.
        self.seating = seat_bots.Seating(decl, header.players)

    # -- public ------------------------------------------------------------
    def start(self) -> list[LogEvent]:
        """The header line: the game's opening announcements (`in` = 1)."""
        return self._run(lambda: self.game.start(0.0), 0.0, 1)

    def feed(self, line: int, item: Mapping[str, Any] | Garbled) -> list[LogEvent]:
        """Apply one script line (number `line`, 1-based, header = 1)."""
        self.inputs += 1
        if type(item) is not dict and isinstance(item, Garbled):  # `type` first: no call for a dict
            return [self._error(line, self.t, f"line {line}: {item.problem}")]
        t = item.get("t")
        if (type(t) is not float and (isinstance(t, bool) or not isinstance(t, (int, float)))) \
                or not _isfinite(t):
            return [self._error(line, self.t, f'line {line}: missing or non-numeric "t"')]
        if t < self.t:
            return [self._error(line, self.t, f"line {line}: t={t} goes back in time (last {self.t})")]
        clock_line = "timer" in item and "reader" not in item and "console" not in item
        if t >= self._next_due:
            if t - self._next_due > MAX_CLOCK_JUMP and self._next_due != -math.inf:
                return [self._error(line, self.t, self.too_far(line, t))]
            out = self.advance(t)
            if self._stalled:
                return out + [self._error(line, self.t, (
                    f"line {line}: t={t} is too far ahead: the clock stopped after {MAX_FIRINGS} "
                    f"timers at t={self.t}; the line is not applied"))]
        else:  # no timer due (nearly every input): only the clock moves, as `advance` would move it
            out = []
            if clock_line:
                self._fired_now = []
            if t > self.t:
                self.t = t
        if clock_line:
            return out + self._clock_line(line, t, item["timer"])
        parsed = self._to_input(line, t, item)
        # refused or handled by the runtime itself (a list); an Input, nearly every line, is told
        # by its exact type first, which is cheaper than isinstance on the hot path
        if type(parsed) is not Input and isinstance(parsed, list):
            return out + parsed if out else parsed
        game = self.game
        if game.over:
            return out + [self._error(line, t, "the game is over"),
                          self._say(self._answer_to(parsed), "game-is-over", {}, t, line)]
        if parsed.tag == _HINT or self.choices:  # HINT, or a question pending (nearly every input: neither)
            own = self.runtime_scan(parsed, t, line)
            if own is not None:
                return out + own
        try:
            events = game.handle(parsed)
            if parsed.console is not None:  # the console's refusals are the referee's
                events = stand_in.referee_only(events)
        except Exception as exc:  # a game bug must not take the table down
            return out + [self._crashed(exc, t, line)]
        logged = self._log_events(events, t, line)
        return out + logged if out else logged

    def feed_placed(self, line: int, item: dict[str, Any], t: float, reader: str, seat: int | None,
                    tag: Any) -> list[LogEvent]:
        """`feed(line, item)` for a line `sim.play` built itself from a bot's
        plain placement (`item` is exactly `{"t", "reader", ["seat",] "tag"}`,
        taken apart here as the arguments): the bot games' nearly every input.
        The driver already holds these values, so the line is not read back
        key by key (`feed`'s and `_to_input`'s dozen lookups an input).  The
        checks are `feed`'s own, in one test; any line they would not pass as
        it is (a timer due, a question pending, HINT, an unknown tag or seat,
        the game over) goes through `feed`, so every answer is its answer, and
        a reader's or a script's line always goes through `feed`."""
        if (type(t) is not float or not (self.t <= t < self._next_due) or type(tag) is not str
                or tag not in self.known_tags or tag == _HINT or self.choices or self.game.over
                or (type(seat) is not int or seat not in self.hand_seats if reader == "hand"
                    else reader != "field" or not self.has_field)):
            return self.feed(line, item)
        self.inputs += 1
        self.t = t
        gt = t - self._lag if self._paused_at is None else self._paused_at - self._lag  # game_time(t)
        try:
            events = self.game.handle(reader_input(gt, line, reader, seat, tag, False))
        except Exception as exc:  # a game bug must not take the table down
            return [self._crashed(exc, t, line)]
        return self._log_events(events, t, line)

    def advance(self, t: float) -> list[LogEvent]:
        """Fire, in time order, every timer due at or before `t` on the table's
        clock (none while the game's clock is paused), at most `MAX_FIRINGS`:
        past them the clock stops at the last one fired and `_stalled` is set."""
        out: list[LogEvent] = []
        fired = 0
        self._stalled = False
        self._fired_now = []
        while self.timers and self._paused_at is None:
            name, at = min(self.timers.items(), key=lambda kv: (kv[1], kv[0]))
            when = at + self._lag
            if when > t:
                break
            if fired >= MAX_FIRINGS:
                self._stalled = True
                return out
            fired += 1
            del self.timers[name]
            self._timers_changed()
            self._fired_now.append(name)
            self.t = max(self.t, when)
            if name.startswith(_RUNTIME_TIMERS):  # a prompt heard (it announces nothing: no firing
                if not name.startswith(heard.PREFIX):  # an undo must not pass), a window's time up
                    self.firings += 1
                out += self._runtime_timer(name, at, self.t)
                continue
            self.firings += 1
            asked = choices.seat_of_timer(name)
            if asked is not None and asked in self.choices:  # a choice's time limit: the runtime's timer
                if self.game.over:  # nothing is asked of a game that ended
                    self.choices.clear()
                    continue
                out += self._run(lambda: self._chosen(self.choices[asked], None, at, None), self.t, None)
                continue
            out += self._run(lambda: self.game.handle(Input(t=at, timer=name)), self.t, None)
        self.t = max(self.t, t)
        return out

    def too_far(self, line: int, t: float) -> str:
        """The one line for a clock jump past `MAX_CLOCK_JUMP` (nothing fired, nothing applied)."""
        return (f"line {line}: t={t} is more than {MAX_CLOCK_JUMP:.0f} s past the next timer "
                f"(due at t={self._next_due}): the line is not applied")

    def next_timer(self, t: float) -> tuple[str, float] | None:
        """The timer the table's clock fires first if it is due by `t`: (name, its time on
        the table's clock), or None (nothing due, or the clock is paused)."""
        if t < self._next_due or not self.timers or self._paused_at is not None:
            return None
        name, at = min(self.timers.items(), key=lambda kv: (kv[1], kv[0]))
        when = max(at + self._lag, self.t)
        return (name, when) if when <= t else None

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def game_time(self, t: float) -> float:
        """The game's clock at the table's time `t`: it does not move while paused."""
        if self._paused_at is not None:
            return self._paused_at - self._lag
        return t - self._lag if self._lag else t

    def _timers_changed(self) -> None:
        due = self.timers.values()
        if self._paused_at is not None:
            self._next_due = math.inf
        elif any(at != at for at in due):
            # A NaN time (a game's bug) compares false with everything: then every input takes `advance`.
            self._next_due = -math.inf
        else:
            self._next_due = min(due, default=math.inf) + self._lag

    def _clock_line(self, line: int, t: float, name: Any) -> list[LogEvent]:
        """`{"t": AT, "timer": NAME}`: the live table's clock reached AT and fired NAME
        (already fired by the advance above).  A name that did not fire here is one
        error (a hand-edited script); the clock has moved to `t` all the same."""
        if not isinstance(name, str) or not 0 < len(name) <= MAX_TIMER_NAME:
            return [self._error(line, t, f'line {line}: "timer" must be a timer\'s name')]
        started = heard.started_by(name)
        if started is not None and started in self.heard_wait and name not in self._fired_now \
                and self._hearing.reported:
            # the outputs said when the prompt had played: the moment the journal holds (while the
            # clock is paused, the limit starts at the paused time and runs when the clock does)
            self._fired_now.append(name)
            return self._runtime_timer(name, self.game_time(t), t)
        if name not in self._fired_now:
            why = "the clock is paused" if self.paused else f"no timer {name!r} was due at t={t}"
            return [self._error(line, t, f"line {line}: {why}")]
        return []

    def situation(self, t: float, line: int | None) -> list[LogEvent]:
        """Where the table stands, from the game's optional `situation()` hook:
        logged, because it follows an input (an undo, a reader back) that a
        replay applies too."""
        at = getattr(self.game, "situation_at", None)
        if callable(at):  # a game whose lines count time learns the time they are said at
            now = self.game_time(t)
            return self._run(lambda: at(now), t, line) + self.reminders(t, line)
        hook = getattr(self.game, "situation", None)
        out = self._run(hook, t, line) if callable(hook) else []
        return out + self._log_events(self.pending_prompts(), t, line) + self.reminders(t, line)

    def reminders(self, t: float, line: int | None) -> list[LogEvent]:
        """The game's optional `reminders()`: what a seat was last told of a question the game
        holds itself (a hidden bribe's dial), again in that seat's earphone, as a pending
        question is.  Only lines to one seat are kept: the situation is the public part."""
        hook = getattr(self.game, "reminders", None)
        if self.game.over or not callable(hook):
            return []

        def mine() -> list[GameEvent]:
            said = [as_event(ev) for ev in hook()]
            return [ev for ev in said if ev.type == "say" and str(ev.fields.get("to", "")).startswith("seat:")]
        return self._run(mine, t, line)

    def pending_prompts(self) -> list[Event]:
        """Each pending question again, in its seat's earphone (after an undo, a resume, a
        reader back): a player who missed it can still answer.  None once the game is over."""
        if self.game.over:
            return []
        return [self._reminder(c) for _, c in sorted(self.choices.items())]

    def close(self) -> None:
        """This table is being discarded: let the game release what it holds."""
        try:
            self.game.close()
        except Exception:  # a game bug must not take the table down
            traceback.print_exc(file=sys.stderr)

    def note(self, type_: str, fields: Mapping[str, Any], t: float, line: int | None) -> LogEvent:
        """Log an event of the runtime's own (an undo, a dropped private phrase)."""
        return self._log(Event(type_, dict(fields)), t, line)

    # -- inputs ------------------------------------------------------------
    def _to_input(self, line: int, t: float, item: Mapping[str, Any]) -> Input | list[LogEvent]:
        if "console" in item:
            cmd = item["console"]
            if not isinstance(cmd, str) or not cmd.strip():
                return [self._error(line, t, f'line {line}: "console" must be a command line')]
            if is_voice_command(cmd):  # an output's speech rate or volume: the runtime's, not the game's
                got = parse_voice_command(cmd, self.header.players)
                return [self._error(line, t, got) if isinstance(got, str) else self._log(Event("voice", got), t, line)]
            if cmd.strip() in CLOCK_COMMANDS:  # the game's clock: the runtime's, for every game
                return self._clock_command(cmd.strip(), t, line)
            if stand_in.is_stand_in(cmd):  # the referee stands in for a reader, in any game
                return self._stand_in(line, t, cmd)
            if seat_bots.is_command(cmd):  # a bot in an empty seat: the table's seating, not the game's
                return self._log_events(self.seating.command(cmd, t), t, line)
            return Input(t=self.game_time(t), line=line, console=cmd.strip())
        reader = item.get("reader")
        if reader not in ("hand", "field"):
            return [self._error(line, t, f'line {line}: needs "reader" ("hand" or "field") or "console"')]
        seat = item.get("seat")
        if reader == "hand":
            if (type(seat) is not int and (isinstance(seat, bool) or not isinstance(seat, int))) \
                    or seat not in self.hand_seats:
                return [self._error(line, t, f"line {line}: no hand reader for seat {seat!r}")]
        else:
            if not self.has_field:
                return [self._error(line, t, f"line {line}: this table has no field reader")]
            seat = None
        # READER_STATES; `in` first: nearly every line has neither key, and a lookup is a call
        state = ("lost" if item.get("lost") is True else "back" if item.get("back") is True else None) \
            if "lost" in item or "back" in item else None
        if state:
            return self._reader_state(line, t, reader, seat, state, str(item.get("detail", "")),
                                      item.get("unopened") is True)
        tag = item.get("tag")
        if tag is None and "uid" in item:
            uid = normalise_uid(str(item["uid"]))
            tag = self.tagmap.get(uid)
            if tag is None:
                return self._refuse_tag(line, t, reader, seat, f"unknown tag uid {uid}")
        if type(tag) is not str and not isinstance(tag, str):
            return [self._error(line, t, f'line {line}: needs "tag" or "uid"')]
        if tag not in self.known_tags:
            return self._refuse_tag(line, t, reader, seat, f"unknown tag {tag}")
        gt = t - self._lag if self._paused_at is None else self._paused_at - self._lag  # game_time(t), inline
        removed = bool(item["removed"]) if "removed" in item else False
        return reader_input(gt, line, reader, seat, tag, removed)  # Input(...), without its setter calls

    def _refuse_tag(self, line: int, t: float, reader: str, seat: int | None, why: str) -> list[LogEvent]:
        to = seat_audience(seat) if seat is not None else TABLE
        # A tag in a hand is that seat's business, even one the table does not know.
        fields: dict[str, Any] = {"message": why, **({"private": to} if seat is not None else {})}
        return [self._log(Event("error", fields), t, line), self._say(to, "tag-not-in-game", {}, t, line)]

    def _reader_state(self, line: int, t: float, reader: str, seat: int | None,
                      state: str, detail: str, item_unopened: bool = False) -> list[LogEvent]:
        """A reader lost or back is the runtime's business, not the game's."""
        name = reader if seat is None else f"{reader} {seat}"
        if state == "back" and name not in self.lost_readers:  # nothing to say back: never lost
            return [self._error(line, t, f"line {line}: the {name} reader was not lost")]
        (self.lost_readers.add if state == "lost" else self.lost_readers.discard)(name)
        ev: LogEvent = self._log(Event("reader", {"reader": reader, "seat": seat, "state": state}), t, line)
        if detail:
            ev["detail"] = detail
        if state == "lost" and item_unopened:  # never opened: say which reader, in the table's words
            key, params = f"reader-{reader}-cannot-open", ({"seat": seat} if seat is not None else {})
            return [ev, self._say(TABLE, key, params, t, line)]
        out = [ev, self._say(TABLE, f"reader-{state}", {"reader": name}, t, line)]
        if (self._pause_on_lost and seat is not None) or (self._pause_on_field and seat is None):
            # the game's rules: no clock runs on a player who cannot act (or a microphone that is away)
            out += self._hold(name, t, line) if state == "lost" else self._release(name, t, line)
        return out + (self.situation(t, line) if state == "back" else [])

    # -- the game's clock ----------------------------------------------------
    def _clock_command(self, cmd: str, t: float, line: int) -> list[LogEvent]:
        """The referee's `pause` / `resume`, for every game (a break, a fault at the table)."""
        if cmd == PAUSE:
            if REFEREE_HOLD in self.paused_by:
                return [self._error(line, t, "the clock is already paused")]
            return self._hold(REFEREE_HOLD, t, line)
        if REFEREE_HOLD in self.paused_by:
            return self._release(REFEREE_HOLD, t, line)
        if not self.paused_by:
            return [self._error(line, t, "the clock is not paused")]
        # Only lost readers hold it: the referee decides to play on without them (docs/secrets.md:
        # a reader that never came back left no way out but `next`).
        last = sorted(self.paused_by)[-1]
        self.paused_by = {last}
        return self._release(last, t, line)

    def _hold(self, why: str, t: float, line: int | None) -> list[LogEvent]:
        """Stop the game's clock (once, however many hold it)."""
        first = not self.paused_by
        self.paused_by.add(why)
        if not first:
            return [self._log(Event("clock", {"state": "paused", "by": sorted(self.paused_by)}), t, line)]
        self._paused_at = t
        self._timers_changed()
        return [self._log(Event("clock", {"state": "paused", "by": [why]}), t, line),
                self._say(TABLE, "clock-paused", {}, t, line)]

    def _release(self, why: str, t: float, line: int | None) -> list[LogEvent]:
        """One hold less; the clock runs again when none is left."""
        if why not in self.paused_by:
            return []
        self.paused_by.discard(why)
        if self.paused_by:
            return [self._log(Event("clock", {"state": "paused", "by": sorted(self.paused_by)}), t, line),
                    self._say(TABLE, "clock-held", {}, t, line)]
        assert self._paused_at is not None
        self._lag += t - self._paused_at
        self._paused_at = None
        self._timers_changed()
        return [self._log(Event("clock", {"state": "running"}), t, line),
                self._say(TABLE, "clock-resumed", {}, t, line)]

    def _stand_in(self, line: int, t: float, cmd: str) -> Input | list[LogEvent]:
        got = stand_in.parse(cmd, self.header.players, self.known_tags)
        if isinstance(got, str) or (got.seat is None and not self.has_field):
            why = got if isinstance(got, str) else "this table has no field reader"
            return [self._log(Event("error", {"message": why, "private": REFEREE}), t, line)]
        return Input(self.game_time(t), line, got.reader, got.seat, got.tag, got.removed)

    @staticmethod
    def _answer_to(inp: Input) -> str:
        return seat_audience(inp.seat) if inp.seat is not None else TABLE

    # -- the runtime's own scans: HINT and choices (kikimimi.contract.choices) ---------
    def runtime_scan(self, inp: Input, t: float, line: int) -> list[LogEvent] | None:
        """A hand scan the runtime answers, never the game: HINT (where the runtime answers
        it), else a scan of a seat with a question pending.  None: the game's input."""
        if inp.reader != "hand" or inp.removed or inp.seat is None:
            return None
        seat = inp.seat
        if inp.tag == _HINT:  # a game that answers HINT itself gets it, question pending or not
            return self._run(lambda: self._hint(seat), t, line) if self._runtime_hint else None
        if seat in self.choices:
            return self._choice_scan(inp, t, line)
        return None

    def _hint(self, seat: int) -> list[Event]:
        """HINT: what the seat could see and what it holds, then its pending question again."""
        out = hints.hint(self.game, seat)  # type: ignore[arg-type]  # checked: the play has `sight`
        return out + ([self._reminder(self.choices[seat])] if seat in self.choices else [])

    @staticmethod
    def _reminder(choice: choices.Choice) -> Event:
        return Event("say", {"to": seat_audience(choice.seat), "key": choice.prompt, "params": dict(choice.params)})

    def _choice_scan(self, inp: Input, t: float, line: int) -> list[LogEvent]:
        """A scan on the hand reader of a seat with a question pending: its answer, or refused
        in one line (to that seat only: what it tried can tell its hand) and asked again."""
        choice = self.choices[inp.seat or 0]
        tag = inp.tag or ""
        if tag not in choice.among:
            me = seat_audience(choice.seat)
            return self._log_events([
                Event("error", {"message": f"{tag} does not answer {choice.name}", "private": me}),
                Event("say", {"to": me, "key": "choice-refused", "params": {}}), self._reminder(choice)], t, line)
        if choice.window:
            return self._run(lambda: self._window_scan(choice, tag, inp.t, line), t, line)
        if choice.kind == choices.AMOUNT:
            return self._amount_scan(choice, tag, inp.t, t, line)
        return self._run(lambda: self._chosen(choice, choice.value_of(tag), inp.t, line), t, line)

    def _amount_scan(self, choice: choices.Choice, tag: str, at: float, t: float, line: int) -> list[LogEvent]:
        """A tap counts one more (said back, to that seat only); the confirming tag settles
        the count.  Past `most` or short of `least`: refused in one line, the count kept."""
        me, count = seat_audience(choice.seat), self._amounts.get(choice.seat, 0)
        if tag == choice.tap and count >= choice.most:
            why, key = f"{choice.name}: {choice.most} at most", "choice-amount-most"
        elif tag != choice.tap and count < choice.least:
            why, key = f"{choice.name}: {choice.least} at least", "choice-amount-least"
        elif tag == choice.tap:
            self._amounts[choice.seat] = count + 1
            return self._log_events([
                Event(choices.TAP, {"seat": choice.seat, "name": choice.name, "amount": count + 1, "private": me}),
                Event("say", {"to": me, "key": choice.counted, "params": {"amount": count + 1}})], t, line)
        else:
            return self._run(lambda: self._chosen(choice, count, at, line), t, line)
        return self._log_events([Event("error", {"message": why, "private": me}),
                                 Event("say", {"to": me, "key": key, "params": {}})], t, line)

    def _chosen(self, choice: choices.Choice, value: int | str | bool | None, at: float,
                line: int | None) -> list[Event]:
        """The question is settled (answered, or its time ran out): logged for the seat and the
        referee, then the game's `answered` with the typed answer."""
        del self.choices[choice.seat]
        self._amounts.pop(choice.seat, None)
        if self.timers.pop(choices.timer_name(choice.seat), None) is not None:
            self._timers_changed()
        self._forget_heard(choices.timer_name(choice.seat))
        answered = getattr(self.game, "answered")
        out = [Event(choices.CHOSEN, {"seat": choice.seat, "name": choice.name, "value": value,
                                      "private": seat_audience(choice.seat)})]
        if value is None:
            out.append(Event("say", {"to": seat_audience(choice.seat), "key": "choice-timed-out", "params": {}}))
        return out + list(answered(choices.Answer(at, line, choice.seat, choice.name, value)))

    def _open_choice(self, fields: Mapping[str, Any], t: float) -> choices.Choice | str:
        """A game's question, checked and kept (its time limit set on the game's clock)."""
        got = choices.parse(fields, self.header.players)
        if isinstance(got, str):
            return got
        if getattr(type(self.game), "answered", Play.answered) is Play.answered:
            return f"choice {got.name!r}: the game has no answered(answer) to take the answer"
        strange = sorted(got.among - self.known_tags)
        if strange:
            return f"choice {got.name!r}: {strange[0]} is no tag of this table (add it to the game's kit)"
        self.choices[got.seat] = got
        self._amounts.pop(got.seat, None)
        name = choices.timer_name(got.seat)
        self._forget_heard(name)
        if got.timeout is not None and got.heard:  # counted from when the prompt has been heard
            self.timers.pop(name, None)
            self.heard_wait[name] = got.timeout
            self._hearing.new = self._hearing.on = True
        elif got.timeout is not None:
            self.timers[name] = self.game_time(t) + got.timeout
        else:
            self.timers.pop(name, None)
        self._timers_changed()
        return got

    def _close_choice(self, seat: Any) -> None:
        self._amounts.pop(seat, None)
        gone = self.choices.pop(seat, None)
        if gone is not None and gone.window:  # one seat's part of a window: the window goes on without it
            self._leave_window(gone)
            return
        if gone is not None and self.timers.pop(choices.timer_name(seat), None) is not None:
            self._timers_changed()
        if gone is not None:
            self._forget_heard(choices.timer_name(seat))

    # -- a window to several seats (choices.ask_window) --------------------------
    def _open_window(self, fields: Mapping[str, Any], t: float) -> choices.Window | str:
        got = choices.parse_window(fields, self.header.players)
        if isinstance(got, str):
            return got
        window, parts = got
        if getattr(type(self.game), "answered", Play.answered) is Play.answered:
            return f"window {window.name!r}: the game has no answered(answer) to take the answer"
        strange = sorted(parts[0].among - self.known_tags)
        if strange:
            return f"window {window.name!r}: {strange[0]} is no tag of this table (add it to the game's kit)"
        if window.name in self.windows:
            self._close_window(window.name)
        # the order bots answer in: seeded by the table's seed and the window, so no seat always goes first
        seed = self.header.options.get("seed", self.header.extra.get("seed"))
        order = list(window.seats)
        random.Random(f"{seed!r}:{window.name}:{self.seq}").shuffle(order)
        window = dataclasses.replace(window, order=tuple(order))
        for part in parts:
            if part.seat in self.choices:
                self._close_choice(part.seat)
            self.choices[part.seat] = part
            self._amounts.pop(part.seat, None)
        self.windows[window.name] = window
        name = choices.window_timer(window.name)
        self._forget_heard(name)
        if window.timeout is not None and window.heard:
            self.heard_wait[name] = window.timeout
            self._hearing.new = self._hearing.on = True
        elif window.timeout is not None:
            self.timers[name] = self.game_time(t) + window.timeout
        self._timers_changed()
        return window

    def _leave_window(self, part: choices.Choice) -> None:
        """One seat's part of a window is gone (it declined, or the game asked it again)."""
        window = self.windows.get(part.window)
        if window is not None and not any(c.window == window.name for c in self.choices.values()):
            self._close_window(window.name)

    def _close_window(self, name: Any) -> list[int]:
        """The window ends (settled or taken back): every part still pending goes, and its timers."""
        window = self.windows.pop(name, None) if isinstance(name, str) else None
        if window is None:
            return []
        left = [k for k in window.seats if k in self.choices and self.choices[k].window == window.name]
        for k in left:
            del self.choices[k]
        timer = choices.window_timer(window.name)
        self.timers.pop(timer, None)
        self._forget_heard(timer)
        self._timers_changed()
        return left

    def _window_scan(self, choice: choices.Choice, tag: str, at: float, line: int) -> list[GameEvent]:
        """A window's answer: the first accepted one settles it for all; a decline lets it go
        for that seat alone (the last decline: silence, the default)."""
        window = self.windows[choice.window]
        me = seat_audience(choice.seat)
        if tag == choice.decline:
            del self.choices[choice.seat]
            out: list[GameEvent] = [Event(choices.CANCEL, {"window": window.name, "seats": [choice.seat],
                                                           "declined": True, "private": me})]
            if any(c.window == window.name for c in self.choices.values()):
                return out
            return out + self._window_silent(window, at, line, timed_out=False)
        others = [k for k in self._close_window(window.name) if k != choice.seat]
        out = [Event(choices.CHOSEN, {"seat": choice.seat, "name": window.name, "value": choice.value_of(tag),
                                      "window": True, "private": me})]
        out_: list[GameEvent] = list(out)
        if others:
            out_.append(Event(choices.CANCEL, {"window": window.name, "seats": others,
                                               "private": [seat_audience(k) for k in others]}))
        return out_ + list(self.game.answered(choices.Answer(at, line, choice.seat, window.name,
                                                             choice.value_of(tag))))

    def _window_silent(self, window: choices.Window, at: float, line: int | None, timed_out: bool) -> list[GameEvent]:
        """Nobody answered: one line on the speaker when the time is up, then the default."""
        left = self._close_window(window.name)
        self.windows.pop(window.name, None)
        out: list[GameEvent] = []
        if left:
            out.append(Event(choices.CANCEL, {"window": window.name, "seats": left,
                                              "private": [seat_audience(k) for k in left]}))
        if timed_out:
            out.append(Event("say", {"to": TABLE, "key": window.closed, "params": {}}))
        return out + list(self.game.answered(choices.Answer(at, line, 0, window.name, window.default, silent=True)))

    # -- time after heard (kikimimi.contract.heard) ----------------------------------------
    def _runtime_timer(self, name: str, at: float, t: float) -> list[LogEvent]:
        """A timer of the runtime's own fired at `at` (the game's clock): a `heard:` timer
        starts the one it waits for; a window's time limit settles it silently."""
        if self.game.over:
            self.choices.clear()
            self.windows.clear()
            return []
        started = heard.started_by(name)
        if started is not None:
            seconds = self.heard_wait.pop(started, None)
            if seconds is None:
                return []
            self.timers[started] = at + seconds
            self._timers_changed()
            out = [self.note("heard", {"timer": started, "at": at + self._lag, "until": at + self._lag + seconds,
                                       "private": REFEREE}, t, None)]
            hook = getattr(self.game, "clock_started", None)
            if callable(hook) and choices.seat_of_timer(started) is None \
                    and not started.startswith(choices.WINDOW_TIMER_PREFIX):
                # the game's own timer (a timed phase): the play learns when its clock started
                told = self._run(lambda: hook(started, at), t, None)
                if any(ev["type"] == "say" or ev["type"] == REVEAL for ev in told):
                    self.firings += 1  # the table said something at the moment: an undo must not pass it
                out += told
            return out
        window = self.windows.get(name[len(choices.WINDOW_TIMER_PREFIX):])
        if window is None:
            return []
        return self._run(lambda: self._window_silent(window, at, None, timed_out=True), t, None)

    def _forget_heard(self, name: str) -> None:
        self.heard_wait.pop(name, None)
        self.timers.pop(heard.timer_of(name), None)

    def _heard_batch(self, logged: list[LogEvent], t: float) -> None:
        """Keep the modelled outputs' queues, and arm each timer this batch asked to start
        when heard: on the model's moment, or (the outputs report it) on the journal's line."""
        hearing = self._hearing
        new, hearing.new = hearing.new, False
        if hearing.reported:
            return
        if hearing.speech is None:
            hearing.speech = heard.SpeechClock(wpm=hearing.wpm)
        speech = hearing.speech
        speech.feed(logged)
        if not new:
            return
        for name, outputs in heard.waiting_in(logged).items():
            if name in self.heard_wait:
                self.timers[heard.timer_of(name)] = self.game_time(speech.heard_at(outputs, t))
        self._timers_changed()

    # -- events ------------------------------------------------------------
    def _run(self, step: Callable[[], Iterable[GameEvent]], t: float, line: int | None) -> list[LogEvent]:
        try:
            events = step()
        except Exception as exc:  # a game bug must not take the table down
            return [self._crashed(exc, t, line)]
        return self._log_events(events, t, line)

    def _crashed(self, exc: Exception, t: float, line: int | None) -> LogEvent:
        traceback.print_exc(file=sys.stderr)
        return self._error(line, t, f"internal error: {type(exc).__name__}: {exc}")

    def _log(self, ev: Event, t: float, line: int | None) -> LogEvent:
        return self._log_events((ev,), t, line)[0]

    def _log_events(self, events: Iterable[GameEvent], t: float, line: int | None) -> list[LogEvent]:
        """Number and stamp each event, in one loop (a call per event was a
        tenth of `feed`); a say gets its text in the table's language.  An
        event handed over as one dict (`protocol.log_shaped`) is that log
        entry: stamped in place, not copied (its keys then in the order they
        were added: `protocol.in_log_order` is how a log line is written)."""
        logged: list[LogEvent] = []
        append, render, seq = logged.append, self._render, self.seq
        rendered = self.phrasebook.rendered
        type_: Any = None  # render's memo, read here first: most says are in it
        try:
            for ev in events:
                if isinstance(ev, dict):
                    type_ = ev["type"]
                    if type_ not in _KEPT_BUT_SAYS:
                        if "seq" in ev:  # a dict already logged, handed over again: log a copy,
                            ev = dict(ev)  # never renumber the entry the log already holds
                        seq += 1
                        ev["seq"] = seq
                        ev["t"] = t
                        ev["in"] = line
                        if type_ == "say":
                            key = ev["key"]
                            params = ev.get("params")
                            text = None
                            if params:
                                if len(params) == 1:  # the memo's key as `render` makes it, for its exact types
                                    ((name, value),) = params.items()
                                    if type(value) is str or type(value) is int:
                                        text = rendered.get((key, name, value))
                                ev["text"] = render(key, params) if text is None else text
                            else:
                                if params is not None:  # `"params": {}`: a say without parameters logs none
                                    del ev["params"]
                                text = rendered.get(key)
                                ev["text"] = render(key) if text is None else text
                        append(ev)
                        continue
                    ev = as_event(ev)  # a timer, a question, a reveal...: the table's own handling below
                type_, fields = ev.type, ev.fields
                if type_ == "say":
                    seq += 1
                    params = fields.get("params")
                    key = fields["key"]
                    if params:  # one dict built whole, not grown by a key afterwards
                        text = None
                        if len(params) == 1:  # the memo's key as `render` makes it, for its exact types
                            ((name, value),) = params.items()
                            if type(value) is str or type(value) is int:
                                text = rendered.get((key, name, value))
                        append({"seq": seq, "t": t, "type": type_, "in": line, "to": fields["to"], "key": key,
                                "text": render(key, params) if text is None else text, "params": params})
                    else:
                        text = rendered.get(key)
                        append({"seq": seq, "t": t, "type": type_, "in": line, "to": fields["to"], "key": key,
                                "text": render(key) if text is None else text})
                    continue
                if type_ not in _KEPT_BY_THE_TABLE:  # a play, a turn, a draw...: logged as it is
                    seq += 1
                    append({"seq": seq, "t": t, "type": type_, "in": line, **fields})
                    continue
                # the game's own event under a reserved name: most break below (caught: one line);
                # one that would not (a choice-cancel of its own) is told here
                if (type_ == choices.CANCEL or type_ == choices.WINDOW) and not well_formed(type_, fields):
                    seq += 1
                    append({"seq": seq, "t": t, "type": "error", "in": line, "message": reserved_refusal(type_),
                            "private": REFEREE})
                    continue
                if type_ == "timer-set" and "after_heard" in fields:  # a phase that starts when heard
                    name = str(fields["name"])
                    self.timers.pop(name, None)
                    self.timers.pop(heard.timer_of(name), None)
                    self.heard_wait[name] = float(fields["after_heard"])
                    self._hearing.new = self._hearing.on = True
                    self._timers_changed()
                elif type_ == "timer-set":
                    at = float(fields["at"])
                    self.timers[str(fields["name"])] = at
                    self._timers_changed()
                    if self._lag or self._paused_at is not None:  # the log speaks the table's clock
                        fields = {**fields, "at": at + self._lag + (t - self._paused_at if self._paused_at is not None else 0.0)}
                elif type_ == "timer-cancel":
                    self.timers.pop(str(fields["name"]), None)
                    self._forget_heard(str(fields["name"]))
                    self._timers_changed()
                elif type_ == choices.ASK:  # a question for one seat: kept here, its prompt said
                    got = self._open_choice(fields, t)
                    if isinstance(got, str):  # a game's bug; the referee's alone (it may name a hand's tag)
                        seq += 1
                        append({"seq": seq, "t": t, "type": "error", "in": line,
                                "message": f"internal error: {got}", "private": REFEREE})
                        continue
                    seq += 2
                    append({"seq": seq - 1, "t": t, "type": type_, "in": line, **fields})
                    append({"seq": seq, "t": t, "type": "say", "in": line, "to": seat_audience(got.seat),
                            "key": got.prompt, "text": render(got.prompt, dict(got.params)),
                            **({"params": dict(got.params)} if got.params else {})})
                    continue
                elif type_ == choices.WINDOW:  # a question to several seats at once
                    window = self._open_window(fields, t)
                    if isinstance(window, str):
                        seq += 1
                        append({"seq": seq, "t": t, "type": "error", "in": line,
                                "message": f"internal error: {window}", "private": REFEREE})
                        continue
                    first = self.choices[window.seats[0]]
                    seq += 2
                    append({"seq": seq - 1, "t": t, "type": type_, "in": line, **fields, "order": list(window.order)})
                    append({"seq": seq, "t": t, "type": REVEAL, "in": line, "private": fields["private"],
                            "key": first.prompt, "text": render(first.prompt, dict(first.params)),
                            **({"params": dict(first.params)} if first.params else {})})
                    continue
                elif type_ == REVEAL:  # one phrase for several earphones: its text, as a say's
                    params = fields.get("params") or {}
                    seq += 1
                    append({"seq": seq, "t": t, "type": type_, "in": line, "private": fields["private"],
                            "key": fields["key"], "text": render(fields["key"], params),
                            **({"params": params} if params else {})})
                    continue
                elif type_ == choices.CANCEL and "window" in fields:
                    if fields.get("declined") is not True:  # the runtime's note of one seat's decline: kept
                        self._close_window(fields.get("window"))
                elif type_ == choices.CANCEL:
                    self._close_choice(fields.get("seat"))
                seq += 1
                append({"seq": seq, "t": t, "type": type_, "in": line, **fields})
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # a game's broken event (a `reveal` of its own without `private`, a say without a
            # key): one line for the referee, never a traceback; the batch stops there
            seq += 1
            why = (reserved_refusal(type_) if type_ in RESERVED_EVENTS or type_ in RUNTIME_EVENTS
                   else f"internal error: a malformed {type_!r} event: {type(exc).__name__}: {exc}")
            append({"seq": seq, "t": t, "type": "error", "in": line, "message": why, "private": REFEREE})
        finally:  # a game's broken event stops the loop: the numbers given so far stay given
            self.seq = seq
        if self._hearing.on:  # a game that asked for a limit after heard: its outputs' queues
            self._heard_batch(logged, t)
        return logged

    def _error(self, line: int | None, t: float, message: str) -> LogEvent:
        """A refused line is the referee's: its message names script lines, which count
        the inputs the public view's numbering hides."""
        return self._log(Event("error", {"message": message, "private": REFEREE}), t, line)

    def _say(self, to: str, key: str, params: dict[str, Any], t: float, line: int | None) -> LogEvent:
        return self._log(Event("say", {"to": to, "key": key, "params": params}), t, line)


#: The encoded end of a `say` log line, `"to": ..., "key": ..., "text": ...[,
#: "params": {...}]}`, by (to, key, text, *params): a table says a few hundred
#: distinct phrases, and says are most of its log.  At most `SAY_TAILS_MAX`.
_say_tails: dict[tuple[Any, ...], str] = {}
SAY_TAILS_MAX = 8192


def log_line(ev: LogEvent) -> str:
    """`dumps(ev)`, byte for byte, for an event of a `Table`'s log (what
    `replay` writes), a `say` mostly from `_say_tails`.

    A say event is laid out by `Table._log_events` (seq, t, type, in, to,
    key, text[, params]; seq and in the engine's own int or None), so only
    its ending needs encoding, once per distinct phrase.  Only exact `str`
    names and `str`/`int` parameter values are remembered: as dict keys
    True == 1 == 1.0, which encode differently (a str is equal only to a
    str, so `to`, `key` and `text` are looked at only when remembered).
    Anything else, a `t` JSON refuses included, goes through `dumps`."""
    if ev["type"] != "say":
        return dumps(ev)
    size = len(ev)
    try:
        if size == 8:
            params = ev["params"]
            if type(params) is not dict or not params:  # the table never logs empty params
                return dumps(ev)
            for name, value in params.items():
                if type(name) is not str or (type(value) is not str and type(value) is not int):
                    return dumps(ev)
            memo: tuple[Any, ...] = (ev["to"], ev["key"], ev["text"], *params.items())
        elif size == 7:
            params = None
            memo = (ev["to"], ev["key"], ev["text"])
        else:
            return dumps(ev)
        t, line, seq = ev["t"], ev["in"], ev["seq"]
    except KeyError:  # not laid out as a say of the table's
        return dumps(ev)
    if (type(t) is not float and type(t) is not int) or not _isfinite(t):
        return dumps(ev)  # the ValueError JSON gives, or whatever JSON makes of it
    tail = _say_tails.get(memo)
    if tail is None:
        to, key, text = memo[:3]
        tail = dumps({"to": to, "key": key, "text": text, **({"params": params} if params else {})})[1:]
        if len(_say_tails) < SAY_TAILS_MAX and type(to) is str and type(key) is str and type(text) is str:
            _say_tails[memo] = tail
    return f'{{"seq": {seq}, "t": {t!r}, "type": "say", "in": {"null" if line is None else line}, {tail}'


def default_tagmap(game: str) -> dict[str, str]:
    """The tag map of a game's demo set, shipped in the game's package (`tagmap.toml`), if any."""
    ref = tagmap_file(game)
    if ref is None:
        return {}
    with resources.as_file(ref) as path:
        return load_tagmap(path)


def tagmap_for(header: Header, script_dir: Path | None = None,
               override: str | Path | None = None) -> dict[str, str]:
    """The tag map a replay uses: --tagmap, else the header's, else the game's packaged one."""
    if override:
        return load_tagmap(override)
    named = header.extra.get("tagmap")
    if isinstance(named, str):
        path = Path(named)
        if not path.is_absolute() and script_dir is not None:
            path = script_dir / path
        return load_tagmap(path)
    return default_tagmap(header.game)


class ScriptRun:
    """A table script applied line by line, undo included.

    The one definition of what a journal means: the live daemon and
    `kikimimi replay` both push every line through here, so the live log and
    the replay of its journal are the same, `seq` for `seq`, across undos.

    An undo takes back the latest input the table *accepted* (a line whose
    events hold no `error`); refused lines, undos, lines an undo already took
    back, timer lines, `pause`/`resume`, `bot`/`unbot` (the seating) and
    readers lost or back are never its target.  Nothing announced is taken back: an input with a timer fired
    after it (its result was heard) can no longer be undone.  The game is
    rebuilt from what still stands, silently, *at the undo's time* (so no
    timer already heard fires again), and numbering carries on where it was.
    """

    def __init__(self, header: Header, **table_args: Any) -> None:
        self.header = header
        self._table_args = table_args
        self.table = Table(header, **table_args)
        self.log: list[LogEvent] = self.table.start()
        #: The accepted inputs still standing, oldest first: the undo stack.
        self.standing: list[tuple[int, dict[str, Any]]] = []
        #: What a rebuild replays, in order: accepted lines (inputs, timer lines,
        #: clock commands, readers) and the times a refused or undo line moved
        #: the clock to (a float: `advance` to it).
        self._kept: list[tuple[int, dict[str, Any]] | float] = []
        #: `_kept`'s index of each standing input (parallel to `standing`).
        self._kept_at: list[int] = []
        #: No input kept before this index may be undone: a timer fired after it.
        self._heard = 0
        #: The events of the game as it stands: the latest rebuild's, then all
        #: logged since.  For views that follow the state from events (a
        #: console starts over from it after an undo); a rebuilt event keeps the
        #: rebuild's own `seq`, so only `log` is the record.
        self.standing_log: list[LogEvent] = list(self.log)

    def feed(self, number: int, item: Mapping[str, Any] | Garbled) -> list[LogEvent]:
        # A line without "console" (a reader's, nearly every line) is no undo:
        # `is_undo` is not asked, nor `record` called, for it.
        table = self.table
        fired = table.firings
        if type(item) is not dict or "console" in item:
            if is_undo(item):
                assert isinstance(item, Mapping)
                events = self._undo(number, item)
                self.record(events)
                return events
            if isinstance(item, Garbled):
                events = table.feed(number, item)
                self._moved(fired)
                self.record(events)
                return events
        events = table.feed(number, item)
        for ev in events:
            if ev["type"] == "error" and ev["in"] == number:
                self._moved(fired)
                break
        else:  # accepted: kept for a rebuild; an undo may take back an input
            if table.firings != fired:  # timers fired before it: their results were heard
                # kept as a time of their own: a script without timer lines (an older
                # journal, `sim --record`) fired them only through this input, and a
                # rebuild without it fired them again, heard twice
                self._kept.append(float(table.t))
                self._heard = len(self._kept)
            self._kept.append((number, dict(item)))
            if is_clock_line(item):
                if not str(item.get("timer")).startswith(heard.PREFIX):  # a prompt heard: an undo may pass it
                    self._heard = len(self._kept)
            elif not (is_clock_command(item) or is_reader_state(item) or seat_bots.is_command_line(item)):
                self.standing.append((number, dict(item)))
                self._kept_at.append(len(self._kept) - 1)
        self.log += events
        self.standing_log += events
        return events

    def _moved(self, fired: int) -> None:
        """A line that is not kept (refused, an undo) may still have fired timers: a
        rebuild must fire them too, and nothing before them may be undone."""
        if self.table.firings != fired:
            self._kept.append(self.table.t)
            self._heard = len(self._kept)

    def record(self, events: list[LogEvent]) -> None:
        """Log events made outside `feed` (the session's own lines, say)."""
        self.log += events
        self.standing_log += events

    def last_input(self) -> tuple[int, dict[str, Any]] | None:
        """The input an undo would take back now (None: none, or a timer was heard since)."""
        if not self.standing or self._kept_at[-1] < self._heard:
            return None
        return self.standing[-1]

    def why_no_undo(self) -> str | None:
        """Why an undo would be refused now (None: it would take back `last_input`)."""
        if not self.standing:
            return "nothing to undo"
        if self._kept_at[-1] < self._heard:
            return ("nothing to undo: a timer has been heard since the last input "
                    "(what was announced stays)")
        return None

    def close(self) -> None:
        self.table.close()

    def _undo(self, number: int, item: Mapping[str, Any]) -> list[LogEvent]:
        t = item.get("t")
        when = self.table.t
        if isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t):
            when = max(when, t)
        # Timers due by the undo's time fire first, as the live table's clock
        # fired them before the referee's undo arrived (a replay must too).
        if when - self.table._next_due > MAX_CLOCK_JUMP and self.table._next_due != -math.inf:
            return [self.table.note("error", {"message": self.table.too_far(number, when), "private": REFEREE}, self.table.t, number)]
        fired = self.table.firings
        out = self.table.advance(when)
        if self.table._stalled:  # a script's clock jump: refused like any line's
            return out + [self.table.note("error", {"message": (
                f"line {number}: t={t} is too far ahead: the clock stopped after {MAX_FIRINGS} "
                f"timers at t={self.table.t}; the line is not applied"), "private": REFEREE}, self.table.t, number)]
        when = self.table.t
        self._moved(fired)
        if not self.standing:
            return out + [self.table.note("error", {"message": "nothing to undo", "private": REFEREE}, when, number)]
        if self._kept_at[-1] < self._heard:
            return out + [self.table.note("error", {"message": (
                f"undo: a timer has fired since line {self.standing[-1][0]}; what was announced "
                "stays (nothing announced is taken back)"), "private": REFEREE}, when, number)]
        undone_line, undone = self.standing.pop()
        del self._kept[self._kept_at.pop():]  # the undone input is the last thing kept
        seq = self.table.seq
        self.table.close()
        self.table = Table(self.header, **self._table_args)
        rebuilt = self.table.start()
        for entry in self._kept:
            if isinstance(entry, float):
                rebuilt += self.table.advance(entry)
            else:
                rebuilt += self.table.feed(*entry)
        self.table.seq = seq
        self.table.t = max(self.table.t, when)  # the game is rebuilt at the undo's time
        self.standing_log = rebuilt
        # The undone input may be a hand scan (a secret): only the referee sees it.
        ev = self.table.note("undo", {"undone": undone_line, "input": undone, "private": REFEREE},
                             when, number)
        told = [self.table.note("say", {"to": TABLE, "key": "undone"}, when, number)]
        owner = stand_in.owner_of(undone, self.header.players)
        if owner is not None:  # whose act it was hears it is gone (in the earphone: the act is theirs)
            told.append(self.table.note("say", {"to": seat_audience(owner), "key": "undone-yours"}, when, number))
        # A timer the undone input had cancelled may be due by now: it never fired
        # at the table (a timer that did bars the undo), so it fires now, heard.
        before = self.table.firings
        late = self.table.advance(when)
        self._moved(before)
        return out + [ev, *told] + late + self.table.situation(when, number)


def run_script(lines: Iterable[str | Mapping[str, Any]]) -> list[LogEvent]:
    """Run a whole script (header first) and return its event log.  For tests and tools."""
    items = iter_dicts(lines)
    first = next(items, None)
    if first is None or isinstance(first, Garbled):
        raise ScriptError("line 1: the header must be a JSON object")
    header = Header.parse(first)
    run = ScriptRun(header, tagmap=tagmap_for(header))
    for number, item in enumerate(items, start=2):
        run.feed(number, item)
    run.close()
    return run.log


def public_view(log: Iterable[LogEvent]) -> list[LogEvent]:
    """What a spectator may see: events for the whole table only, numbered on
    their own (`kikimimi.table.public`: no gap counts a secret)."""
    return public.public_view(log)
