"""One table's live game: the journal, the engine and the listeners, behind one lock.

Readers, the console API, the keyboard and the timer ticker all call
`submit()` from their own threads; the lock makes that one ordered input
stream.  Each input is appended to the journal and fsynced *before* it is
applied, so a crash or power cut loses nothing that was acted on, and
starting the same table again rebuilds the game by replaying the journal
through the same `ScriptRun` as `kikimimi replay`: the live log and the
replay of its journal are one and the same.

An input the journal cannot hold (a full disk) is not applied: `submit`
raises `JournalUnwritable` after telling the alert listeners (who print it
and speak it), and the table goes on; the next input tries the disk again.
"""
from __future__ import annotations

import secrets
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kikimimi.contract import choices, heard
from kikimimi.bots import referee_bots as seat_bots
from kikimimi.table.engine import LogEvent, ScriptRun, Table
from kikimimi.table.journal import Journal, JournalError, JournalUnwritable, SaidMark
from kikimimi.contract.protocol import TABLE, seat_audience
from kikimimi.bots.empty_seats import DELAY, SeatBotDriver
from kikimimi.table.secret_seed import SEED, with_secret_seed
from kikimimi.contract.script import NEW_GAME, Garbled, Header, ScriptError, dumps, is_clock_line, parse_line

Listener = Callable[[dict[str, Any], Sequence[LogEvent]], None]
#: Told (with one printable line and the same line as a `say` to the table,
#: never logged) when an input could not be taken.
AlertListener = Callable[[str, LogEvent], None]

__all__ = ["Daemon", "InputRefused", "JournalMismatch", "JournalUnwritable"]


class JournalMismatch(ScriptError):
    pass


class InputRefused(ScriptError):
    """A line that no journal could hold or replay (one line, ready to print); nothing happened."""


def settings_differ(journal: Header, config: Header) -> str:
    """What the journal's game was started with that the config now sets otherwise,
    bounded for one line ("" when nothing differs)."""
    parts = []
    if journal.lang != config.lang:
        parts.append(f"lang {journal.lang} (config: {config.lang})")
    for key in sorted(set(journal.options) | set(config.options), key=str):
        if key == SEED and SEED not in config.options:
            continue  # the secret seed the journal's game drew when first served
        if key == SEED and journal.options.get(key) != config.options.get(key):
            parts.append("seed (secret; the config's differs)")
        elif journal.options.get(key) != config.options.get(key):
            parts.append(f"{str(key)[:32]} {_short(journal.options.get(key))} (config: {_short(config.options.get(key))})")
    if len(parts) > 4:
        parts = parts[:4] + [f"{len(parts) - 4} more"]
    return ", ".join(parts)


def _short(value: Any) -> str:
    text = "unset" if value is None else dumps({"v": value})[6:-1] if not isinstance(value, str) else value
    return text if len(text) <= 40 else text[:39] + "…"


class Daemon:
    def __init__(
        self,
        header: Header,
        journal: Path,
        *,
        tagmap: Mapping[str, str] | None = None,
        hand_seats: set[int] | None = None,
        has_field: bool = True,
        clock: Callable[[], float] = time.monotonic,
        bot_delay: tuple[float, float] = DELAY,
        heard_by_outputs: bool = False,
    ) -> None:
        if heard_by_outputs and header.extra.get(heard.HEADER_KEY) != heard.OUTPUTS:
            # this table's outputs say when a prompt has been heard (kikimimi.contract.heard): its journal says so
            header = replace(header, extra={**header.extra, heard.HEADER_KEY: heard.OUTPUTS})
        self.header = header
        self.bot_delay = bot_delay
        self.journal_path = journal
        self._table_args = {"tagmap": tagmap, "hand_seats": hand_seats, "has_field": has_field}
        self.clock = clock
        self.lock = threading.RLock()
        self.listeners: list[Listener] = []
        self.alert_listeners: list[AlertListener] = []
        self.run = ScriptRun(header, **self._table_args)
        #: The bots in empty seats (`bot SEAT`): they follow the game and act through `tick`.
        self.seat_bots = SeatBotDriver(header, self.run.log, bot_delay)
        self.lines: list[tuple[int, dict[str, Any] | Garbled]] = []  # every journal line after the header
        self.resumed = 0
        self.set_aside: Path | None = None  # where --fresh kept the previous journal
        self._journal: Journal | None = None
        self._offset = 0.0
        self._t0 = clock()
        self._timer_retry = -1.0  # after an unwritable timer line: the table time to try again
        self._said: SaidMark | None = None
        #: The header's seed was drawn here (the config sets none): each new game draws again.
        self._drawn = False
        #: The highest `seq` told to the listeners (kept in `_said` beside the journal).
        self._told = 0
        #: Session flow (kikimimi.table.evening): sees each input first; a list it returns is the answer.
        self.intercept: Callable[[dict[str, Any]], list[LogEvent] | None] | None = None
        # -- the owner's PAIR card (kikimimi.table.pair_card) --------------------------------
        #: Sees each input before anything else; a list it returns is the answer (nothing journaled).
        self.pair_card: Callable[[dict[str, Any]], list[LogEvent] | None] | None = None
        #: Told lines for one earphone that no listener may see (a pairing code): the sound
        #: outputs only, never the API, the console, the journal or the event log.
        self.earphone_only: list[Callable[[Sequence[LogEvent]], None]] = []
        #: Extra referee-snapshot keys (e.g. "session"), each computed when asked.
        self.extras: dict[str, Callable[[], Any]] = {}
        #: The outputs' queues with their clips' own lengths (`clip_lengths`; until then, modelled),
        #: for a table whose journal says its outputs report when a prompt was heard.
        self.speech = heard.SpeechClock()
        #: When each timer waiting to be heard will have been heard, on the table's clock.
        self.heard_due: dict[str, float] = {}

    @property
    def table(self) -> Table:
        return self.run.table

    @property
    def log(self) -> list[LogEvent]:
        return self.run.log

    # -- lifecycle ------------------------------------------------------------
    def open(self, fresh: bool = False) -> list[str]:
        """Lock the journal; resume from it if it has a game (unless `fresh`:
        then it is kept aside first), else start it.  Returns warnings."""
        journal = Journal.acquire(self.journal_path)
        try:
            return self._open(journal, fresh)
        except BaseException:
            journal.close()
            raise

    def _open(self, journal: Journal, fresh: bool) -> list[str]:
        path = self.journal_path
        warnings = journal.repair()
        if fresh and journal.size:
            self.set_aside = journal.set_aside(time.strftime("%Y%m%d-%H%M%S"))
        try:
            self._said = SaidMark(path)
        except JournalError as exc:  # only a resume's unspoken lines depend on it
            warnings.append(f"{exc}: lines applied but not yet spoken at a crash will not be said")
        parsed = journal.read()
        if parsed is not None:
            on_disk = (parsed.header.game, parsed.header.players)
            if on_disk != (self.header.game, self.header.players):
                raise JournalMismatch(
                    f"{path}: journal is a {on_disk[0]} game for {on_disk[1]}, not this table's "
                    f"{self.header.game} for {self.header.players} (move it away or use --fresh)")
            warnings += parsed.warnings
            differ = settings_differ(parsed.header, self.header)
            if differ:
                warnings.append(f"{path}: the journal's game was started with {differ}; it goes on "
                                "as it started (--fresh starts a new game with the config's)")
            self._drawn = SEED in parsed.header.options and SEED not in self.header.options
            self.header = parsed.header
            self._replace_run(ScriptRun(self.header, **self._table_args))
            for number, item in parsed.lines:  # bots seated in it sit again, each where it stood
                self.seat_bots.follow(item, self.run.feed(number, item), replaying=True)
            self.lines = list(parsed.lines)
            self.resumed = len(self.lines)
            last_t = max((item["t"] for _, item in parsed.lines
                          if isinstance(item, dict) and isinstance(item.get("t"), (int, float))
                          and not isinstance(item.get("t"), bool)), default=0.0)
            self._offset = max(float(last_t), self.table.t)
            told = self._said.read(journal.fd) if self._said else None
            self._told = self._last_seq() if told is None else told
            self._rearm_heard(self._offset)
        else:
            self._draw_seed()
            journal.append(self.header.to_json())
            self._told = 0
        self._journal = journal
        self._t0 = self.clock()
        return warnings

    def close(self) -> None:
        with self.lock:
            if self._journal:
                self._journal.close()
                self._journal = None
            if self._said:
                self._said.close()
                self._said = None
            self.run.close()

    # -- the input stream ----------------------------------------------------
    def now(self) -> float:
        return round(self._offset + self.clock() - self._t0, 2)

    def submit(self, line: Mapping[str, Any]) -> list[LogEvent]:
        """Journal one script line (its `t` is stamped now), then apply it.

        Raises `JournalUnwritable` (after alerting) if the journal could not
        take it: then nothing happened."""
        with self.lock:
            stamped = {"t": max(self.now(), self.table.t), **{k: v for k, v in line.items() if k != "t"}}
            if self.pair_card is not None and (handled := self.pair_card(stamped)) is not None:
                return handled
            if self.intercept is not None and (handled := self.intercept(stamped)) is not None:
                return handled
            if str(stamped.get("console", "")).strip() == NEW_GAME:
                return self.new_game()
            if is_clock_line(stamped):  # only the table's own clock writes these (`tick`)
                raise InputRefused("input refused: a timer line is the table clock's own, not an input")
            if seat_bots.takes_seed(stamped):
                stamped[seat_bots.SEED] = secrets.randbelow(1 << 32)  # the bot's choices and delays, journaled
            try:
                text = dumps(stamped)
            except (TypeError, ValueError, RecursionError) as exc:
                raise InputRefused(f"input refused: not usable JSON ({exc})") from None
            item = parse_line(text)  # the journal's own bounds, as a replay will read it
            if isinstance(item, Garbled):  # never journaled, never logged: it could not be replayed
                raise InputRefused(f"input refused: {item.problem}")
            self._append(text)
            number = len(self.lines) + 2
            self.lines.append((number, item))
            events = self.run.feed(number, item)
            notes = self.seat_bots.follow(item, events)  # the bots in empty seats hear; their notes are the referee's
            self._tell(item, events + notes if notes else events)
            return events

    def try_submit(self, line: Mapping[str, Any]) -> list[LogEvent]:
        """`submit` for reader and keyboard threads: a refused input is told
        (an unwritable journal is already alerted) and simply not applied."""
        try:
            return self.submit(line)
        except JournalUnwritable:
            return []
        except ScriptError as exc:  # refused, or `new` could not keep the journal aside
            print(f"kikimimi: {exc}", file=sys.stderr, flush=True)
            return []

    def new_game(self, **table_args: Any) -> list[LogEvent]:
        """The referee's `new`: keep this game's journal aside and start the next
        game at the same table (a session's games follow one another this way).
        `table_args` (tagmap, hand_seats) change with the game of an evening."""
        with self.lock:
            if self._journal is None:
                raise InputRefused("input refused: the table is not open")
            self._journal.set_aside("game", numbered=True)
            self._table_args.update(table_args)
            if self._drawn:  # each game draws its own secret seed
                self.header = replace(self.header, options={k: v for k, v in self.header.options.items()
                                                            if k != SEED})
            self._draw_seed()
            self.lines = []
            try:
                self._append(self.header.to_json())
            except JournalUnwritable:
                pass  # alerted; the header goes in before the next input that fits
            self._offset, self._t0 = 0.0, self.clock()
            self._told = 0  # a new journal: nothing of it told yet
            self.heard_due.clear()  # nothing of the last game waits to be heard
            self.speech = heard.SpeechClock(self.speech.length)
            self._tell({"console": NEW_GAME}, self.log)
            return self.log

    def tick(self) -> list[LogEvent]:
        """Fire the timers that are due on the table's clock, each journaled first
        as `{"t": AT, "timer": NAME}` (a timer is part of what the table did: a
        restart must never take back what it announced).  A journal that cannot
        take the line leaves the timer unfired; the clock tries again a second later."""
        with self.lock:
            fired: list[LogEvent] = []
            now = self.now()
            if now < self._timer_retry:
                return fired
            while (due := self.table.next_timer(now)) is not None:
                name, at = due
                item = {"t": at, "timer": name}
                try:
                    self._append(dumps(item))
                except (JournalUnwritable, InputRefused):  # alerted, or the table is closing
                    self._timer_retry = now + 1.0
                    break
                number = len(self.lines) + 2
                self.lines.append((number, item))
                events = self.run.feed(number, item)
                notes = self.seat_bots.follow(item, events)
                self._tell(item, events + notes if notes else events)
                fired += events
            fired += self._heard_lines(now)
            for seat, line in self.seat_bots.due(now):  # bots in empty seats act like a reader would
                try:
                    fired += self.submit(line)
                except ScriptError:  # the journal could not take it (alerted): the bot acts again later
                    self.seat_bots.unsent(seat)
            return fired

    # -- time after heard (kikimimi.contract.heard) --------------------------------------
    @property
    def heard_by_outputs(self) -> bool:
        return self.header.extra.get(heard.HEADER_KEY) == heard.OUTPUTS

    def clip_lengths(self, length: heard.Length) -> None:
        """The outputs' own clip lengths (`length(output, say)` in seconds), once they exist."""
        with self.lock:
            self.speech.length = length

    def _track_heard(self, events: Sequence[LogEvent]) -> None:
        """Each phrase told goes into its output's queue; a timer these events asked to start
        when heard is due when its prompt (and what the speaker says with it) has played."""
        if not self.heard_by_outputs:
            return
        self.speech.feed(events)
        for name, outs in heard.waiting_in(events).items():
            if name in self.table.heard_wait:
                self.heard_due[name] = self.speech.heard_at(outs, self.table.t)

    def _heard_lines(self, now: float) -> list[LogEvent]:
        """Journal and apply `{"t": AT, "timer": "heard:NAME"}` for each prompt heard by now."""
        fired: list[LogEvent] = []
        for name, at in sorted(self.heard_due.items(), key=lambda kv: (kv[1], kv[0])):
            if at > now:
                break
            del self.heard_due[name]
            if name not in self.table.heard_wait:  # answered, or taken back, before it was heard
                continue
            item = {"t": max(at, self.table.t), "timer": heard.timer_of(name)}
            try:
                self._append(dumps(item))
            except (JournalUnwritable, InputRefused):
                self.heard_due[name] = at  # tried again at the next tick
                break
            number = len(self.lines) + 2
            self.lines.append((number, item))
            events = self.run.feed(number, item)
            self._tell(item, events)
            fired += events
        return fired

    def _rearm_heard(self, now: float) -> None:
        """After a resume: a question asked but not yet heard at the stop is asked again (the
        resume report), so its time starts once that reminder has played."""
        self.heard_due.clear()
        if not self.heard_by_outputs:
            return
        reminders = [{"t": now, "type": "say", "to": ev.fields["to"], "key": ev.fields["key"],
                      "text": self.table.phrasebook.render(ev.fields["key"], ev.fields.get("params"))}
                     for ev in self.table.pending_prompts()]
        self.speech = heard.SpeechClock(self.speech.length)
        self.speech.feed(reminders)
        phases = {str(ev.get("name")): heard.phase_outputs(ev) for ev in self.log
                  if ev.get("type") == "timer-set" and "after_heard" in ev}  # the last one of each name
        for name in self.table.heard_wait:
            seat = choices.seat_of_timer(name)
            window = self.table.windows.get(name[len(choices.WINDOW_TIMER_PREFIX):])
            outs = ((seat_audience(seat),) if seat is not None else
                    tuple(seat_audience(k) for k in window.seats) if window is not None else
                    phases.get(name, (heard.EVERY,)))
            self.heard_due[name] = self.speech.heard_at(outs, now)

    def last_input(self) -> tuple[int, dict[str, Any] | Garbled] | None:
        """The input an undo would take back (the console shows it and asks once)."""
        with self.lock:
            return self.run.last_input()

    def why_no_undo(self) -> str | None:
        """Why the console's `undo` has nothing to take back (None: `last_input` it is)."""
        with self.lock:
            return self.run.why_no_undo()

    def speak_unspoken(self) -> list[LogEvent]:
        """After a resume: tell the listeners what the journal applied but no
        listener was told before the stop (a kill between the two), each event
        to its own audience as it would have gone (a whisper to its seat only)."""
        with self.lock:
            unspoken = [ev for ev in self.log if type(ev.get("seq")) is int and ev["seq"] > self._told]
            if unspoken:
                self._tell({}, unspoken)
            return unspoken

    def resume_report(self) -> list[LogEvent]:
        """What to say after a resume, not logged: where the game stands (nothing
        when it is over: the evening says so, and what comes next)."""
        with self.lock:
            if self.table.game.over:
                return []
            held = []
            if self.table.paused:  # stopped before the stop, still stopped: say so first
                held = [{"seq": None, "t": self.table.t, "type": "say", "in": None, "to": TABLE,
                         "key": "clock-paused", "text": self.table.phrasebook.render("clock-paused")}]
            asked = [{"seq": None, "t": self.table.t, "type": "say", "in": None, "to": ev.fields["to"],
                      "key": ev.fields["key"], "text": self.table.phrasebook.render(ev.fields["key"],
                                                                                    ev.fields.get("params"))}
                     for ev in self.table.pending_prompts()]  # each seat's pending question, in its earphone
            return held + self.situation_report() + asked

    def situation_report(self) -> list[LogEvent]:
        """Where the table stands, as phrases to speak after a resume (the game's
        optional `situation()` hook).  Not logged: a resume is no input, and
        the log stays what a replay of the journal gives."""
        with self.lock:
            hook = getattr(self.table.game, "situation", None)
            try:
                events = hook() if callable(hook) else []
            except Exception as exc:  # a game bug must not stop the table
                print(f"kikimimi: situation failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                return []
            book = self.table.phrasebook
            return [{"seq": None, "t": self.table.t, "type": "say", "in": None, "to": ev.fields["to"],
                     "key": ev.fields["key"], "text": book.render(ev.fields["key"], ev.fields.get("params"))}
                    for ev in events if ev.type == "say" and ev.fields.get("to") == TABLE]

    # -- views -------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Everything, for the referee: never send this to a spectator."""
        with self.lock:
            return {
                "header": self.header.to_json(),
                "inputs": len(self.lines),
                "t": self.table.t,
                "over": self.table.game.over,
                "game": self.table.game.snapshot(),
                **({"seat_bots": {str(s): kind for s, kind in sorted(self.table.seating.bots.items())}}
                   if self.table.seating.bots else {}),
                **{key: extra() for key, extra in self.extras.items()},
            }

    def announce(self, events: Sequence[LogEvent]) -> None:
        """Tell every listener about events of the table's own (a session's lines)."""
        with self.lock:
            self._tell({}, events)

    def subscribe(self, listener: Listener) -> None:
        with self.lock:
            self.listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def say_to_earphone_only(self, events: Sequence[LogEvent]) -> None:
        """Hand lines to the outputs alone (`earphone_only`): what they say is for one seat's ear."""
        with self.lock:
            for listener in list(self.earphone_only):
                try:
                    listener(events)
                except Exception as exc:
                    print(f"kikimimi: output failed: {exc}", file=sys.stderr)

    def subscribe_alerts(self, listener: AlertListener) -> None:
        with self.lock:
            self.alert_listeners.append(listener)

    # -- internals -----------------------------------------------------------
    def _append(self, obj: Mapping[str, Any] | str) -> None:
        if self._journal is None:  # not opened yet, or closed (a console's last request at shutdown)
            raise InputRefused("input refused: the table is not open")
        try:
            if self._journal.size == 0 and obj != self.header.to_json():
                self._journal.append(self.header.to_json())  # a header lost to a full disk
            self._journal.append(obj)
        except JournalUnwritable as exc:
            self._alert(str(exc))
            raise

    def _alert(self, message: str) -> None:
        said: LogEvent = {"seq": None, "t": self.table.t, "type": "say", "in": None, "to": TABLE,
                          "key": "journal-unwritable", "text": self.table.phrasebook.render("journal-unwritable")}
        for listener in list(self.alert_listeners):
            try:
                listener(message, said)
            except Exception as exc:
                print(f"kikimimi: alert listener failed: {exc}", file=sys.stderr)

    def _draw_seed(self) -> None:
        """A table with no `seed` gets a random secret one when first served (its lots
        are not recomputable from the defaults); the journal's header keeps it."""
        seeded = with_secret_seed(self.header)
        self._drawn = seeded is not self.header or self._drawn
        self.header = seeded
        self._replace_run(ScriptRun(self.header, **self._table_args))

    def _replace_run(self, run: ScriptRun) -> None:
        self.run.close()  # the old game is discarded: let it release what it holds
        self.run = run
        self.seat_bots = SeatBotDriver(run.header, run.log, self.bot_delay)  # a new game: no bot seated

    def _tell(self, item: dict[str, Any], events: Sequence[LogEvent]) -> None:
        self._track_heard(events)  # what the outputs are told to play: their queues
        for listener in list(self.listeners):
            try:
                listener(item, events)
            except Exception as exc:  # a broken console must not stop the table
                print(f"kikimimi: listener failed: {exc}", file=sys.stderr)
        # Marked only once told: a kill in between makes a resume say it again, never lose it.
        top = max((ev["seq"] for ev in events if type(ev.get("seq")) is int), default=0)
        if top > self._told:
            self._told = top
            if self._said is not None and self._journal is not None:
                self._said.write(self._journal.fd, top)

    def _last_seq(self) -> int:
        return max((ev["seq"] for ev in self.log if type(ev.get("seq")) is int), default=0)
