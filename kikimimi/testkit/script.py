"""One table-script builder and one run for every game's tests (and a wait that fails loudly).

A test writes what the players and the referee do, as script lines, and plays them through
the real engine; each game's tests subclass `Script` only to add its own words ("send an
advisor", "deal role cards").  Nothing is mocked: `run()` is the engine a table runs.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from pathlib import Path

from kikimimi.table.engine import LogEvent, ScriptRun, Table
from kikimimi.contract.script import Garbled, Header, read_script

T = TypeVar("T")


class Script:
    """A table script under construction: the header, then one line per act, `dt` seconds
    apart (`step` unless given)."""

    step = 1.0

    def __init__(self, game: str, players: int, lang: str | None = "en", **options: Any):
        header: dict[str, Any] = {"game": game, "players": players, "options": options}
        self.lines: list[dict[str, Any]] = [{**header, "lang": lang} if lang else header]
        self.t = 0.0

    def add(self, line: dict[str, Any], dt: float | None = None) -> Script:
        self.t = round(self.t + (self.step if dt is None else dt), 3)
        self.lines.append({"t": self.t, **line})
        return self

    def hand(self, seat: int, tag: str, dt: float | None = None) -> Script:
        return self.add({"reader": "hand", "seat": seat, "tag": tag}, dt)

    def field(self, tag: str, removed: bool = False, dt: float | None = None) -> Script:
        return self.add({"reader": "field", "tag": tag, **({"removed": True} if removed else {})}, dt)

    def cmd(self, seat: int, what: str, dt: float | None = None) -> Script:
        """A command tag (`cmd:WHAT`) on the seat's hand reader."""
        return self.hand(seat, f"cmd:{what}", dt)

    def console(self, text: str, dt: float | None = None) -> Script:
        return self.add({"console": text}, dt)

    def wait(self, seconds: float) -> Script:
        """Let time pass (timers due fire before the next line)."""
        self.t = round(self.t + seconds, 3)
        return self

    @property
    def line(self) -> int:
        """The script line number of the last line added (header = 1)."""
        return len(self.lines)

    def run(self) -> Run:
        table = Table(Header.parse(self.lines[0]))
        log = table.start()
        for n, line in enumerate(self.lines[1:], start=2):
            log += table.feed(n, line)
        return Run(log, table)


class Run:
    """A played script: its log, and the game as it ended (no internal error allowed)."""

    def __init__(self, log: list[LogEvent], table: Table):
        self.log = log
        self.table = table
        self.game = table.game
        internal = [e for e in log if e["type"] == "error" and "internal error" in e["message"]]
        assert not internal, internal

    @property
    def snap(self) -> dict[str, Any]:
        return self.game.snapshot()

    def at(self, line: int) -> list[LogEvent]:
        return [e for e in self.log if e["in"] == line]

    def of(self, type_: str, line: int | None = None) -> list[LogEvent]:
        return [e for e in (self.log if line is None else self.at(line)) if e["type"] == type_]

    def keys(self, line: int | None = None, to: str | None = None) -> list[str]:
        return [e["key"] for e in (self.log if line is None else self.at(line))
                if e["type"] == "say" and (to is None or e["to"] == to)]

    def errors(self, line: int) -> list[LogEvent]:
        return self.of("error", line)


def wait_until(predicate: Callable[[], T], what: str, timeout: float = 30.0, pause: float = 0.05,
               said: Callable[[], str] | None = None) -> T:
    """Poll until `predicate()` is true and give its value; fail naming `what` after `timeout`
    seconds, with what the processes under test `said` (their stderr, a console's screen)."""
    end = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() >= end:
            raise AssertionError(f"timed out waiting for {what}" + (f"; {said()}" if said else ""))
        time.sleep(pause)
    return value


def mtime_ns(path: Path) -> int | None:
    """A file's modification time, or None while it is absent: a serve starting up removes and
    rewrites its API secret, so a check-then-stat would race the removal."""
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return None


def replay_journal(journal: Path) -> list[LogEvent]:
    """What `kikimimi replay` makes of a journal (the same ScriptRun), for comparing with a live log."""
    parsed = read_script(journal)
    run = ScriptRun(parsed.header)
    for number, item in parsed.lines:
        run.feed(number, item)
    run.close()
    return run.log


def journal_inputs(journal: Path) -> list[dict[str, Any] | Garbled]:
    """The input lines a live table has journaled so far (none before its journal exists)."""
    return [item for _, item in read_script(journal).lines] if journal.exists() else []


def pn532_trident_table(folder: Path, poll_ms: int | None = None) -> str:
    """A three-seat Trident table file for PN532 emulators on ptys at folder/hand-N and
    folder/field, with the one enrolled piece `04c0ffee000001` (spade 8) read by its uid."""
    poll = f"poll_ms = {poll_ms}\n" if poll_ms is not None else ""
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "pn532"\n'
                      f'path = "{folder}/hand-{s}"\n{poll}' for s in (1, 2, 3))
    readers += f'[readers.field]\nrole = "field"\ndriver = "pn532"\npath = "{folder}/field"\n{poll}'
    (folder / "tags.toml").write_text('[tags]\n"04c0ffee000001" = "trident:spade-8"\n')
    return ('[table]\ngame = "trident"\nplayers = 3\nlang = "en"\ntagmap = "tags.toml"\n'
            f'journal = "journal.jsonl"\n{readers}')
