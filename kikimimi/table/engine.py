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

import functools
import math
import sys
import traceback
from collections.abc import Callable, Collection, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from kikimimi.bots import referee_bots as seat_bots
from kikimimi.contract import choices, hints
from kikimimi.table import public, stand_in
from kikimimi.contract.game_files import tagmap_file
from kikimimi.contract.kit import table_tags
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import (REFEREE, REVEAL, TABLE, Event, GameEvent, Input, Play, as_event, reader_input,
                               seat_audience)
from kikimimi.contract.registry import UnknownGame, declaration
from kikimimi.contract.script import Garbled, Header, ScriptError, dumps, is_clock_line, is_undo, iter_dicts
from kikimimi.contract.tagmap import load_tagmap, normalise_uid
from kikimimi.voice.settings import is_voice_command, parse_voice_command

LogEvent = dict[str, Any]
#: The event types `Table._log_events` does more with than number and stamp them.
_KEPT_BY_THE_TABLE = frozenset({"say", "timer-set", "timer-cancel", choices.ASK, REVEAL, choices.CANCEL})
#: Of those, the ones a log-shaped event (`protocol.log_shaped`) is not logged in place for.
_KEPT_BUT_SAYS = _KEPT_BY_THE_TABLE - {"say"}
_HINT = hints.HINT_TAG
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
            self.firings += 1
            self._fired_now.append(name)
            self.t = max(self.t, when)
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
            return self._run(lambda: at(now), t, line)
        hook = getattr(self.game, "situation", None)
        out = self._run(hook, t, line) if callable(hook) else []
        return out + self._log_events(self.pending_prompts(), t, line)

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
        if not callable(getattr(self.game, "answered", None)):
            return f"choice {got.name!r}: the game has no answered(answer) to take the answer"
        strange = sorted(got.among - self.known_tags)
        if strange:
            return f"choice {got.name!r}: {strange[0]} is no tag of this table (add it to the game's kit)"
        self.choices[got.seat] = got
        self._amounts.pop(got.seat, None)
        name = choices.timer_name(got.seat)
        if got.timeout is not None:
            self.timers[name] = self.game_time(t) + got.timeout
        else:
            self.timers.pop(name, None)
        self._timers_changed()
        return got

    def _close_choice(self, seat: Any) -> None:
        self._amounts.pop(seat, None)
        if self.choices.pop(seat, None) is not None and self.timers.pop(choices.timer_name(seat), None) is not None:
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
        rendered = self.phrasebook.rendered  # render's memo, read here first: most says are in it
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
                if type_ == "timer-set":
                    at = float(fields["at"])
                    self.timers[str(fields["name"])] = at
                    self._timers_changed()
                    if self._lag or self._paused_at is not None:  # the log speaks the table's clock
                        fields = {**fields, "at": at + self._lag + (t - self._paused_at if self._paused_at is not None else 0.0)}
                elif type_ == "timer-cancel":
                    self.timers.pop(str(fields["name"]), None)
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
                elif type_ == REVEAL:  # one phrase for several earphones: its text, as a say's
                    params = fields.get("params") or {}
                    seq += 1
                    append({"seq": seq, "t": t, "type": type_, "in": line, "private": fields["private"],
                            "key": fields["key"], "text": render(fields["key"], params),
                            **({"params": params} if params else {})})
                    continue
                elif type_ == choices.CANCEL:
                    self._close_choice(fields.get("seat"))
                seq += 1
                append({"seq": seq, "t": t, "type": type_, "in": line, **fields})
        finally:  # a game's broken event stops the loop: the numbers given so far stay given
            self.seq = seq
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
