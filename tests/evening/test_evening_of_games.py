"""An evening of three different games on ONE `kikimimi serve`, with the referee's
plain console (`kikimimi console --plain`) attached from the first game to the
last: the Trident, then イントリーゲ chosen by the referee's `game intrigue` in the
console, then 鬼探し chosen by its game card on the field reader and started by
everyone's AGREE.  The table is killed in the middle of イントリーゲ and served
again (it resumes that game, not the table file's first one; the console
reconnects by itself).  At the end the club records (SQLite, and PostgreSQL
when a server is given) hold all three games in each player's history, and
each game's journal replays alone to the result the table announced."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from kikimimi.api import paths
from kikimimi.records import Club
from kikimimi.records.plays import history, plays
from kikimimi.contract.script import ScriptError, read_script
from kikimimi.design.sim import play
from kikimimi.testkit.script import mtime_ns, wait_until
from kikimimi.testkit.tables import sim_table_toml

NAMES = ("Ann", "Bob", "Cy", "Dee")
ONI_CARD = "04c0ffee"
TABLE = sim_table_toml("trident", 3, "var/table.jsonl", hands=4) + f"""
[games.intrigue]
players = 4

[games.onisagashi]
players = 4
options = {{ raise_window = 2.0 }}
card = "{ONI_CARD}"
"""


def _wait_for(predicate, what: str, table: "Table", timeout: float = 60.0):
    return wait_until(predicate, what, timeout, 0.02,
                      said=lambda: f"serve said:\n{table.stderr()}\nconsole said:\n{table.console_said()}")


class Table:
    """The table directory, its serve process and the referee's plain console."""

    def __init__(self, tmp: Path, db: str):
        self.tmp, self.db = tmp, db
        (tmp / "table.toml").write_text(TABLE)
        self.journal = tmp / "var" / "table.jsonl"
        self.proc: subprocess.Popen | None = None
        self.console: subprocess.Popen | None = None

    def serve(self) -> None:
        secret = paths.secret_file(self.journal)
        old = mtime_ns(secret)
        with open(self.tmp / "serve.err", "a") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text", "--quiet",
                 "--events", "events.jsonl", "--db", self.db, "--players", *NAMES],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, text=True, cwd=self.tmp)
        _wait_for(lambda: (mtime_ns(secret) not in (None, old)) or self.proc.poll() is not None,
                  "the API", self)
        assert self.proc.poll() is None, self.stderr()

    def attach_console(self) -> None:
        out = open(self.tmp / "console.out", "w")
        self.console = subprocess.Popen(
            [sys.executable, "-m", "kikimimi.cli", "console", "table.toml", "--plain"],
            stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT, text=True, cwd=self.tmp)
        _wait_for(lambda: "* referee of trident" in self.console_said(), "the console", self)

    def referee(self, text: str) -> None:
        self.console.stdin.write(text + "\n")
        self.console.stdin.flush()

    def console_said(self) -> str:
        path = self.tmp / "console.out"
        return path.read_text() if path.exists() else ""

    def stderr(self) -> str:
        return (self.tmp / "serve.err").read_text()

    def type(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def game(self) -> str | None:
        """The game the journal holds now (None while a new one is being started)."""
        try:
            return read_script(self.journal).header.game
        except (OSError, ScriptError):
            return None

    def inputs(self) -> int:
        try:
            return len(read_script(self.journal).lines)
        except (OSError, ScriptError):
            return -1

    def events(self) -> list[dict]:
        path = self.tmp / "events.jsonl"
        text = path.read_text() if path.exists() else ""
        return [json.loads(l) for l in text[: text.rfind("\n") + 1].splitlines() if l.strip()]

    def game_events(self) -> list[dict]:
        """The logged events of the game being played now (its numbering starts again at 1)."""
        logged = [ev for ev in self.events() if ev.get("seq") is not None]
        starts = [i for i, ev in enumerate(logged) if ev["seq"] == 1]
        return logged[starts[-1]:] if starts else []

    def games_over(self) -> list[dict]:
        return [ev for ev in self.events() if ev["type"] == "game-over"]

    def play(self, script: list[dict], log: list[dict], upto: int | None = None, start: int = 1) -> None:
        """Type a bot game's lines (reader lines and `> console` lines, in one ordered stream).

        A game with timers (鬼探し's raise window, 2 s) is typed with the referee's clock
        paused, so no window closes in the live table while the lines the bots' game
        applied within it are still on their way (a loaded machine can take seconds, and
        the game then goes another way).  The clock runs only while a timer the bots' game
        saw fire before a line is waited for, and the wait is for those timer events
        themselves, so each line is applied where the bots' game applied it."""
        def first_of(number: int) -> int:  # where line `number`'s events begin in the bots' log
            return next((i for i, ev in enumerate(log) if ev["in"] is not None and ev["in"] >= number), len(log))

        def fired(events: list[dict]) -> int:  # the events a timer caused (the live table journals a timer
            return sum(ev["in"] is None for ev in events)  # as a line, but its events name no input)

        timed = any(ev["in"] is None for ev in log)
        if timed:
            self.type("> pause")
        for k in range(start, upto or len(script)):
            line = script[k]
            before, first = first_of(k), first_of(k + 1)  # script[k] is the journal's line k + 1
            if any(ev["in"] is None for ev in log[before:first]):
                due = fired(log[:first])
                self.type("> resume")
                _wait_for(lambda: fired(self.game_events()) >= due, f"the timer before line {k + 1}", self)
                self.type("> pause")
            if "console" in line:
                self.type(f"> {line['console']}")
            else:
                reader = "f" if line["reader"] == "field" else str(line["seat"])
                self.type(f"{'-' if line.get('removed') else ''}{reader} {line['tag']}")


@pytest.fixture(params=["sqlite", "postgresql"])
def club_db(request, tmp_path):
    """The club's records: a file, or a fresh schema on $KIKIMIMI_TEST_POSTGRES."""
    if request.param == "sqlite":
        target = str(tmp_path / "club.sqlite")
        yield target
        return
    admin = os.environ.get("KIKIMIMI_TEST_POSTGRES")
    if not admin:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL is required in CI: KIKIMIMI_TEST_POSTGRES is not set")
        pytest.skip("no PostgreSQL server (KIKIMIMI_TEST_POSTGRES); tests/records starts its own")
    psycopg = pytest.importorskip("psycopg")
    name = "kk_" + uuid.uuid4().hex[:16]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    parts = urlsplit(admin)
    query = "&".join(q for q in (parts.query, f"options=-csearch_path%3D{name}") if q)
    yield urlunsplit(parts._replace(query=query))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def test_three_games_on_one_serve_with_the_console_attached_throughout(tmp_path, club_db):
    with Club(club_db, create=True) as club:
        for name in NAMES:
            club.add_player(name, name.lower())
    trident = play("trident", 1, 3, {})
    intrigue = play("intrigue", 2, 4, {})
    oni = play("onisagashi", 3, 4, {"raise_window": 2.0})
    results = [next(ev for ev in log if ev["type"] == "game-over") for _, log in (trident, intrigue, oni)]

    table = Table(tmp_path, club_db)
    table.serve()
    table.attach_console()
    try:
        # 1. the Trident, the table file's first game, for its 3 seats
        table.play(*trident)
        _wait_for(lambda: len(table.games_over()) == 1, "the Trident over", table)
        # 2. the referee chooses イントリーゲ in the console: it starts at once, for 4 seats
        table.referee("game intrigue")
        _wait_for(lambda: table.game() == "intrigue" and table.inputs() == 0,
                  "イントリーゲ started", table)
        table.referee("help")
        _wait_for(lambda: "Commands for intrigue" in table.console_said(), "the console following the game", table)
        half = len(intrigue[0]) // 2
        table.play(*intrigue, upto=half)
        _wait_for(lambda: table.inputs() == half - 1, "half of イントリーゲ journaled", table)
        table.proc.send_signal(signal.SIGKILL)  # the table dies mid-game, and is served again
        table.proc.wait(timeout=10)
        table.serve()
        _wait_for(lambda: "connected to the table again" in table.console_said(), "the console back", table)
        table.play(*intrigue, start=half)
        _wait_for(lambda: len(table.games_over()) == 2, "イントリーゲ over", table)
        # 3. 鬼探し's card on the field reader chooses it; everyone's AGREE starts it
        table.type(f"f uid {ONI_CARD}")
        for seat in (1, 2, 3, 4):
            table.type(f"{seat} agree")
        _wait_for(lambda: table.game() == "onisagashi" and table.game_events(),
                  "鬼探し started", table)
        table.play(*oni)
        _wait_for(lambda: len(table.games_over()) == 3, "鬼探し over", table)
        _wait_for(lambda: table.console_said().count("= game over") == 3, "the console seeing it", table)
    finally:
        if table.console is not None:
            table.console.stdin.close()
            table.console.wait(timeout=20)
        table.proc.stdin.close()
        assert table.proc.wait(timeout=20) == 0
    err = table.stderr()
    assert "resumed" in err and "Traceback" not in err

    # the results the table announced are the bots' own
    assert [ev["ranking"] for ev in table.games_over()] == [r["ranking"] for r in results]
    speaker = [ev["text"] for ev in table.events() if ev["type"] == "say" and ev["to"] == "table"]
    assert "Next game: Oni-sagashi, for 4 players. Everyone scans AGREE on their hand reader." in speaker
    # the console was attached throughout: it saw every game end, and reconnected after the kill
    said = table.console_said()
    assert said.count("= game over") == 3 and "connected to the table again" in said, said[-3000:]
    assert "Traceback" not in said

    # 鬼探し's clock fired exactly the bots' timers: no window closed early on a slow machine
    fired = [line for _, line in read_script(table.journal).lines if isinstance(line, dict) and "timer" in line]
    log = oni[1]
    assert len(fired) == len({ev["t"] for ev in log if ev["in"] is None}), fired

    # each game kept its own journal and replays alone to the same end
    kept = sorted((tmp_path / "var").glob("table.game*.jsonl")) + [table.journal]
    assert [read_script(p).header.game for p in kept] == ["trident", "intrigue", "onisagashi"]
    for path, result in zip(kept, results):
        out = subprocess.run([sys.executable, "-m", "kikimimi.cli", "replay", str(path)],
                             capture_output=True, text=True, check=True).stdout
        ended = [ev for ev in map(json.loads, out.splitlines()) if ev["type"] == "game-over"]
        assert [ev["ranking"] for ev in ended] == [result["ranking"]]

    # the club records hold all three, once each, in every player's history
    with Club(club_db, create=False) as club:
        assert [p.game for p in plays(club)] == ["trident", "intrigue", "onisagashi"]
        for seat, name in enumerate(NAMES, start=1):
            mine = [(r.play.game, r.place) for r in history(club, name)]
            want = [(g, next(e["place"] for e in r["ranking"] if e["seat"] == seat))
                    for g, r in zip(("trident", "intrigue", "onisagashi"), results)
                    if any(e["seat"] == seat for e in r["ranking"])]
            assert mine == want, name
    shown = subprocess.run([sys.executable, "-m", "kikimimi.cli", "players", "show", "Dee", "--db", club_db],
                           capture_output=True, text=True, check=True).stdout
    assert "games played at the club's tables: 2:" in shown
    assert [line.split()[1] for line in shown.splitlines() if line.startswith("  ")] == ["intrigue", "onisagashi"]
