"""One table's live game: the journal, the engine and the listeners, behind one lock.

Readers, the console API, the keyboard and the timer ticker all call
`submit()` from their own threads; the lock makes that one ordered input
stream.  Each input is appended to the journal and fsynced *before* it is
applied, so a crash or power cut loses nothing that was acted on, and
starting the same table again rebuilds the game by replaying the journal.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kikimimi.engine import LogEvent, Table
from kikimimi.protocol import REFEREE, TABLE
from kikimimi.script import NEW_GAME, UNDO, Garbled, Header, ScriptError, dumps, read_script, without_undone

Listener = Callable[[dict[str, Any], Sequence[LogEvent]], None]


class JournalMismatch(ScriptError):
    pass


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
    ) -> None:
        self.header = header
        self.journal_path = journal
        self._table_args = {"tagmap": tagmap, "hand_seats": hand_seats, "has_field": has_field}
        self.clock = clock
        self.lock = threading.RLock()
        self.listeners: list[Listener] = []
        self.lines: list[tuple[int, dict[str, Any] | Garbled]] = []  # every journal line after the header
        self.log: list[LogEvent] = []
        self.table = Table(header, **self._table_args)
        self.resumed = 0
        self._journal: Any = None
        self._offset = 0.0
        self._t0 = clock()
        #: Session flow (kikimimi.evening): sees each input first; a list it returns is the answer.
        self.intercept: Callable[[dict[str, Any]], list[LogEvent] | None] | None = None
        #: Extra referee-snapshot keys (e.g. "session"), each computed when asked.
        self.extras: dict[str, Callable[[], Any]] = {}

    # -- lifecycle ------------------------------------------------------------
    def open(self) -> list[str]:
        """Resume from the journal if there is one, else start it.  Returns warnings."""
        warnings: list[str] = []
        path = self.journal_path
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > 0:
            parsed = read_script(path)
            on_disk = (parsed.header.game, parsed.header.players)
            if on_disk != (self.header.game, self.header.players):
                raise JournalMismatch(
                    f"{path}: journal is a {on_disk[0]} game for {on_disk[1]}, not this table's "
                    f"{self.header.game} for {self.header.players} (move it away or use --fresh)")
            self.header = parsed.header
            warnings += parsed.warnings
            if parsed.warnings:  # cut the torn last line so appends start clean
                self._truncate_to_complete_lines(path)
            self.lines = list(parsed.lines)
            self._rebuild()
            self.resumed = len(self.lines)
            last_t = max((item["t"] for _, item in self.lines
                          if isinstance(item, dict) and isinstance(item.get("t"), (int, float))), default=0.0)
            self._offset = float(last_t)
            self._journal = open(path, "a", encoding="utf-8")
        else:
            self._journal = open(path, "w", encoding="utf-8")
            self._write(self.header.to_json())
            self.log = self.table.start()
        self._t0 = self.clock()
        return warnings

    def close(self) -> None:
        with self.lock:
            if self._journal:
                self._journal.close()
                self._journal = None

    # -- the input stream ----------------------------------------------------
    def now(self) -> float:
        return round(self._offset + self.clock() - self._t0, 2)

    def submit(self, line: Mapping[str, Any]) -> list[LogEvent]:
        """Journal one script line (its `t` is stamped now), then apply it."""
        with self.lock:
            item = {"t": max(self.now(), self.table.t), **{k: v for k, v in line.items() if k != "t"}}
            if self.intercept is not None and (handled := self.intercept(item)) is not None:
                return handled
            if str(item.get("console", "")).strip() == NEW_GAME:
                return self.new_game()
            self._write(item)
            number = len(self.lines) + 2
            self.lines.append((number, item))
            if str(item.get("console", "")).strip() == UNDO:
                events = self._undo(item)
            else:
                events = self.table.feed(number, item)
                self.log += events
            self._tell(item, events)
            return events

    def new_game(self) -> list[LogEvent]:
        """The referee's `new`: keep this game's journal aside and start the next
        game at the same table (a session's games follow one another this way)."""
        with self.lock:
            self.close()
            path = self.journal_path
            number = 1
            while (aside := path.with_name(f"{path.stem}.game{number}{path.suffix}")).exists():
                number += 1
            path.rename(aside)
            self.lines = []
            self.table = Table(self.header, **self._table_args)
            self._journal = open(path, "w", encoding="utf-8")
            self._write(self.header.to_json())
            self._offset, self._t0 = 0.0, self.clock()
            self.log = self.table.start()
            self._tell({"console": NEW_GAME}, self.log)
            return self.log

    def tick(self) -> list[LogEvent]:
        """Fire the timers that are due on the table's clock."""
        with self.lock:
            events = self.table.advance(self.now())
            if events:
                self.log += events
                self._tell({}, events)
            return events

    def last_input(self) -> tuple[int, dict[str, Any] | Garbled] | None:
        """The input an undo would take back (the console shows it and asks once)."""
        with self.lock:
            kept = without_undone(self.lines)
            return kept[-1] if kept else None

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

    # -- internals -----------------------------------------------------------
    def _undo(self, item: dict[str, Any]) -> list[LogEvent]:
        kept = without_undone(self.lines[:-1])
        if not kept:
            ev = self.table.note("error", {"message": "nothing to undo"}, self.table.t, len(self.lines) + 1)
            self.log.append(ev)
            return [ev]
        undone_line, undone = kept[-1]
        self._rebuild()
        self.table.seq = max(self.table.seq, self.log[-1]["seq"] if self.log else 0)
        # The undone input may be a hand scan (a secret): only the referee sees it.
        ev = self.table.note("undo", {"undone": undone_line,
                                      "input": undone if isinstance(undone, dict) else undone.text,
                                      "private": REFEREE},
                             self.table.t, len(self.lines) + 1)
        said = self.table.note("say", {"to": TABLE, "key": "undone", "text": self.table.phrasebook.render("undone")},
                               self.table.t, len(self.lines) + 1)
        self.log += [ev, said]
        return [ev, said]

    def _rebuild(self) -> None:
        """The game as the journal says, every undo applied (replay, silently)."""
        self.table = Table(self.header, **self._table_args)
        self.log = self.table.start()
        for number, item in without_undone(self.lines):
            self.log += self.table.feed(number, item)

    def _write(self, obj: Mapping[str, Any]) -> None:
        assert self._journal is not None, "Daemon.open() first"
        self._journal.write(dumps(obj) + "\n")
        self._journal.flush()
        os.fsync(self._journal.fileno())

    def _tell(self, item: dict[str, Any], events: Sequence[LogEvent]) -> None:
        for listener in list(self.listeners):
            try:
                listener(item, events)
            except Exception as exc:  # a broken console must not stop the table
                print(f"kikimimi: listener failed: {exc}", file=sys.stderr)

    @staticmethod
    def _truncate_to_complete_lines(path: Path) -> None:
        data = path.read_bytes()
        cut = data.rfind(b"\n") + 1
        with open(path, "r+b") as f:
            f.truncate(cut)
