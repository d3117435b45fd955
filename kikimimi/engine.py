"""The table engine: the one place where table-script lines become events.

The daemon, the simulator and `kikimimi replay` all push lines through a
`Table`, so a game recorded at a real table replays byte for byte.  The
engine checks what only the runtime can (a reader that exists, a known tag,
time that never runs backwards), numbers the events, gives each its `in`
back-reference, resolves `say` phrases to text in the table's language, and
fires the timers games ask for, on the script's clock, never the wall's.
"""
from __future__ import annotations

import functools
import math
import sys
import traceback
from collections.abc import Collection, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from kikimimi import public, stand_in
from kikimimi.game_files import tagmap_file
from kikimimi.phrases import Phrasebook
from kikimimi.protocol import COMMAND_TAGS, REFEREE, TABLE, Event, Game, Input, seat_audience
from kikimimi.registry import UnknownGame, game_class
from kikimimi.script import Garbled, Header, ScriptError, dumps, is_undo, iter_dicts
from kikimimi.tagmap import load_tagmap, normalise_uid
from kikimimi.voice.settings import is_voice_command, parse_voice_command

LogEvent = dict[str, Any]
_isfinite = math.isfinite
READER_STATES = ("lost", "back")


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
            cls = game_class(header.game)
        except UnknownGame as exc:
            raise ScriptError(str(exc)) from None
        if not cls.min_players <= header.players <= cls.max_players:
            raise ScriptError(
                f"{cls.name} is for {cls.min_players}-{cls.max_players} players, not {header.players}"
            )
        self.header = header
        try:
            self.game: Game = cls(header.players, header.options)
        except Exception as exc:  # a bad option: say which, in one line (whatever the game raised)
            raise ScriptError(f"{cls.name}: {exc}") from None
        self.phrasebook = _phrasebook(header.lang, cls.name)
        self._render = self.phrasebook.render
        seats = range(1, header.players + 1)
        self.known_tags = (
            cls.known_tags(header.players) | COMMAND_TAGS | {f"seat:{k}" for k in seats}
        )
        self.tagmap = {normalise_uid(k): v for k, v in (tagmap or {}).items()}
        self.hand_seats = set(hand_seats) if hand_seats is not None else set(seats)
        self.has_field = has_field
        self.seq = 0
        self.t: float = 0.0
        self.timers: dict[str, float] = {}
        #: The earliest timer's time (inf: none), kept with `timers` so an input
        #: with nothing due does not scan them.
        self._next_due = math.inf
        self.inputs = 0  # script lines applied, header excluded

    # -- public ------------------------------------------------------------
    def start(self) -> list[LogEvent]:
        """The header line: the game's opening announcements (`in` = 1)."""
        return self._run(lambda: self.game.start(0.0), 0.0, 1)

    def feed(self, line: int, item: Mapping[str, Any] | Garbled) -> list[LogEvent]:
        """Apply one script line (number `line`, 1-based, header = 1)."""
        self.inputs += 1
        if isinstance(item, Garbled):
            return [self._error(line, self.t, f"line {line}: {item.problem}")]
        t = item.get("t")
        if (type(t) is not float and (isinstance(t, bool) or not isinstance(t, (int, float)))) \
                or not _isfinite(t):
            return [self._error(line, self.t, f'line {line}: missing or non-numeric "t"')]
        if t < self.t:
            return [self._error(line, self.t, f"line {line}: t={t} goes back in time (last {self.t})")]
        if t >= self._next_due:
            out = self.advance(t)
        else:  # no timer due (nearly every input): only the clock moves, as `advance` would move it
            out = []
            if t > self.t:
                self.t = t
        parsed = self._to_input(line, t, item)
        if isinstance(parsed, list):  # refused or handled by the runtime itself
            return out + parsed if out else parsed
        game = self.game
        if game.over:
            return out + [self._error(line, t, "the game is over"),
                          self._say(self._answer_to(parsed), "game-is-over", {}, t, line)]
        try:
            events = game.handle(parsed)
            if parsed.console is not None:  # the console's refusals are the referee's
                events = stand_in.referee_only(events)
        except Exception as exc:  # a game bug must not take the table down
            return out + [self._crashed(exc, t, line)]
        logged = self._log_events(events, t, line)
        return out + logged if out else logged

    def advance(self, t: float) -> list[LogEvent]:
        """Fire, in time order, every timer due at or before `t`."""
        out: list[LogEvent] = []
        while self.timers:
            name, at = min(self.timers.items(), key=lambda kv: (kv[1], kv[0]))
            if at > t:
                break
            del self.timers[name]
            self._timers_changed()
            self.t = max(self.t, at)
            out += self._run(lambda: self.game.handle(Input(t=at, timer=name)), at, None)
        self.t = max(self.t, t)
        return out

    def _timers_changed(self) -> None:
        due = self.timers.values()
        # A NaN time (a game's bug) compares false with everything: then every input takes `advance`.
        self._next_due = -math.inf if any(at != at for at in due) else min(due, default=math.inf)

    def situation(self, t: float, line: int | None) -> list[LogEvent]:
        """Where the table stands, from the game's optional `situation()` hook:
        logged, because it follows an input (an undo, a reader back) that a
        replay applies too."""
        hook = getattr(self.game, "situation", None)
        return self._run(hook, t, line) if callable(hook) else []

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
            if stand_in.is_stand_in(cmd):  # the referee stands in for a reader, in any game
                return self._stand_in(line, t, cmd)
            return Input(t=t, line=line, console=cmd.strip())
        reader = item.get("reader")
        if reader not in ("hand", "field"):
            return [self._error(line, t, f'line {line}: needs "reader" ("hand" or "field") or "console"')]
        seat = item.get("seat")
        if reader == "hand":
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.hand_seats:
                return [self._error(line, t, f"line {line}: no hand reader for seat {seat!r}")]
        else:
            if not self.has_field:
                return [self._error(line, t, f"line {line}: this table has no field reader")]
            seat = None
        state = "lost" if item.get("lost") is True else "back" if item.get("back") is True else None  # READER_STATES
        if state:
            return self._reader_state(line, t, reader, seat, state, str(item.get("detail", "")),
                                      item.get("unopened") is True)
        tag = item.get("tag")
        if tag is None and "uid" in item:
            uid = normalise_uid(str(item["uid"]))
            tag = self.tagmap.get(uid)
            if tag is None:
                return self._refuse_tag(line, t, reader, seat, f"unknown tag uid {uid}")
        if not isinstance(tag, str):
            return [self._error(line, t, f'line {line}: needs "tag" or "uid"')]
        if tag not in self.known_tags:
            return self._refuse_tag(line, t, reader, seat, f"unknown tag {tag}")
        return Input(t, line, reader, seat, tag, bool(item.get("removed", False)))  # positional: cheaper

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
        return out + (self.situation(t, line) if state == "back" else [])

    def _stand_in(self, line: int, t: float, cmd: str) -> Input | list[LogEvent]:
        got = stand_in.parse(cmd, self.header.players, self.known_tags)
        if isinstance(got, str) or (got.seat is None and not self.has_field):
            why = got if isinstance(got, str) else "this table has no field reader"
            return [self._log(Event("error", {"message": why, "private": REFEREE}), t, line)]
        return Input(t, line, got.reader, got.seat, got.tag, got.removed)

    @staticmethod
    def _answer_to(inp: Input) -> str:
        return seat_audience(inp.seat) if inp.seat is not None else TABLE

    # -- events ------------------------------------------------------------
    def _run(self, step: Any, t: float, line: int | None) -> list[LogEvent]:
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

    def _log_events(self, events: Iterable[Event], t: float, line: int | None) -> list[LogEvent]:
        """Number and stamp each event, in one loop (a call per event was a
        tenth of `feed`); a say gets its text in the table's language."""
        logged: list[LogEvent] = []
        append, render, seq = logged.append, self._render, self.seq
        try:
            for ev in events:
                type_, fields = ev.type, ev.fields
                if type_ == "say":
                    seq += 1
                    params = fields.get("params") or {}
                    to, key = fields["to"], fields["key"]
                    out: LogEvent = {"seq": seq, "t": t, "type": type_, "in": line, "to": to, "key": key,
                                     "text": render(key, params)}
                    if params:
                        out["params"] = params
                    append(out)
                    continue
                if type_ == "timer-set":
                    self.timers[str(fields["name"])] = float(fields["at"])
                    self._timers_changed()
                elif type_ == "timer-cancel":
                    self.timers.pop(str(fields["name"]), None)
                    self._timers_changed()
                seq += 1
                append({"seq": seq, "t": t, "type": type_, "in": line, **fields})
        finally:  # a game's broken event stops the loop: the numbers given so far stay given
            self.seq = seq
        return logged

    def _error(self, line: int | None, t: float, message: str) -> LogEvent:
        return self._log(Event("error", {"message": message}), t, line)

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
    events hold no `error`); refused lines, undos and lines an undo already
    took back are never its target.  The game is rebuilt from the inputs
    still standing, silently, and numbering carries on where it was.
    """

    def __init__(self, header: Header, **table_args: Any) -> None:
        self.header = header
        self._table_args = table_args
        self.table = Table(header, **table_args)
        self.log: list[LogEvent] = self.table.start()
        #: The accepted inputs still standing, oldest first: the undo stack.
        self.standing: list[tuple[int, dict[str, Any]]] = []
        #: The events of the game as it stands: the latest rebuild's, then all
        #: logged since.  For views that follow the state from events (a
        #: console starts over from it after an undo); a rebuilt event keeps the
        #: rebuild's own `seq`, so only `log` is the record.
        self.standing_log: list[LogEvent] = list(self.log)

    def feed(self, number: int, item: Mapping[str, Any] | Garbled) -> list[LogEvent]:
        # A line without "console" (a reader's, nearly every line) is no undo:
        # `is_undo` is not asked, nor `record` called, for it.
        if type(item) is not dict or "console" in item:
            if is_undo(item):
                assert isinstance(item, Mapping)
                events = self._undo(number, item)
                self.record(events)
                return events
            if isinstance(item, Garbled):
                events = self.table.feed(number, item)
                self.record(events)
                return events
        events = self.table.feed(number, item)
        for ev in events:
            if ev["type"] == "error" and ev["in"] == number:
                break
        else:  # accepted: an undo may take it back
            self.standing.append((number, dict(item)))
        self.log += events
        self.standing_log += events
        return events

    def record(self, events: list[LogEvent]) -> None:
        """Log events made outside `feed` (the daemon's timers, fired on its clock)."""
        self.log += events
        self.standing_log += events

    def last_input(self) -> tuple[int, dict[str, Any]] | None:
        """The input an undo would take back now."""
        return self.standing[-1] if self.standing else None

    def close(self) -> None:
        self.table.close()

    def _undo(self, number: int, item: Mapping[str, Any]) -> list[LogEvent]:
        t = item.get("t")
        timely = isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t)
        when = max(self.table.t, t) if timely else self.table.t
        # Timers due by the undo's time fire first, as the live table's clock
        # fired them before the referee's undo arrived (a replay must too).
        fired = self.table.advance(when)
        if not self.standing:
            return fired + [self.table.note("error", {"message": "nothing to undo"}, when, number)]
        undone_line, undone = self.standing.pop()
        seq = self.table.seq
        self.table.close()
        self.table = Table(self.header, **self._table_args)
        rebuilt = self.table.start()
        for n, kept in self.standing:
            rebuilt += self.table.feed(n, kept)
        self.table.seq = seq
        self.standing_log = rebuilt
        when = max(self.table.t, when)
        # The undone input may be a hand scan (a secret): only the referee sees it.
        ev = self.table.note("undo", {"undone": undone_line, "input": undone, "private": REFEREE},
                             when, number)
        said = self.table.note("say", {"to": TABLE, "key": "undone"}, when, number)
        return fired + [ev, said] + self.table.situation(when, number)


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
    their own (`kikimimi.public`: no gap counts a secret)."""
    return public.public_view(log)
