"""A half trial (5 games) through ONE `kikimimi serve`: simulated readers fed
from bot-game scripts on the keyboard stream, the referee's commands over the
console API, a kill and restart between games 2 and 3, and the club records
and the speaker checked at the end."""
from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from kikimimi.api import paths
from kikimimi.api.client import ApiClient
from kikimimi.records import Club
from kikimimi.contract.script import ScriptError, read_script
from kikimimi.design.sim import play
from kikimimi.testkit.script import mtime_ns, wait_until
from kikimimi.testkit.tables import sim_table_toml

SEEDS = (1, 2, 3, 4, 5)
NAMES = ("Ann", "Bob", "Cy")
TABLE = sim_table_toml("trident", 3, "var/table.jsonl", more='options = { scoring = "competition" }\n')


def _wait_for(predicate, what: str, table: "Table | None" = None, timeout: float = 30.0):
    return wait_until(predicate, what, timeout, 0.02, said=table and (lambda: f"serve said:\n{table.stderr()}"))


class Table:
    """One table directory and its serve process."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        (tmp / "table.toml").write_text(TABLE)
        self.journal = tmp / "var" / "table.jsonl"
        self.proc: subprocess.Popen | None = None

    def serve(self) -> None:
        secret = paths.secret_file(self.journal)
        old = mtime_ns(secret)  # a killed table leaves its secret
        with open(self.tmp / "serve.err", "a") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text", "--quiet",
                 "--events", "events.jsonl", "--session", "1", "--db", "club.sqlite"],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, text=True, cwd=self.tmp)
        _wait_for(lambda: (mtime_ns(secret) not in (None, old)) or self.proc.poll() is not None,
                  "the API", self)
        assert self.proc.poll() is None, self.stderr()

    def stderr(self) -> str:
        return (self.tmp / "serve.err").read_text()

    def type(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def inputs(self) -> int:
        """Inputs in the current journal (-1 while a new one is being started)."""
        try:
            return len(read_script(self.journal).lines)
        except (OSError, ScriptError):
            return -1

    def referee(self, text: str) -> dict:
        async def go():
            client = await ApiClient.connect(paths.referee_socket(self.journal))
            try:
                return await client.command(text)
            finally:
                await client.close()
        return asyncio.run(go())

    def events(self) -> list[dict]:
        """The events file's complete lines (the table may be writing the next one)."""
        path = self.tmp / "events.jsonl"
        text = path.read_text() if path.exists() else ""
        return [json.loads(l) for l in text[: text.rfind("\n") + 1].splitlines() if l.strip()]

    def games_over(self) -> int:
        return sum(1 for ev in self.events() if ev["type"] == "game-over")

    def play(self, script: list[dict]) -> None:
        """Reader lines on the keyboard stream, console lines from the referee over the API."""
        fed = 0
        for line in script[1:]:
            if "console" in line:
                _wait_for(lambda: self.inputs() == fed, f"{fed} inputs journaled", self)
                assert self.referee(line["console"])["ok"]
            else:
                reader = "f" if line["reader"] == "field" else str(line["seat"])
                self.type(f"{'-' if line.get('removed') else ''}{reader} {line['tag']}")
            fed += 1


def test_half_trial_on_one_running_table(tmp_path):
    with Club(tmp_path / "club.sqlite") as club:
        for name in NAMES:
            club.add_player(name, name.lower())
        assert club.start_session("half", dict(zip((1, 2, 3), NAMES))).id == 1
    games = [play("trident", seed, 3, {"scoring": "competition"}) for seed in SEEDS]
    results = [next(ev for ev in log if ev["type"] == "game-over") for _, log in games]
    assert all(r["reason"] != "stopped" for r in results)

    table = Table(tmp_path)
    table.serve()
    for number, (script, _) in enumerate(games, start=1):
        table.play(script)
        _wait_for(lambda: table.games_over() == number, f"game {number} over", table)
        if number == 1:
            assert table.referee("new")["ok"]  # the referee starts the next game
        elif number == 2:  # the table is killed between games 2 and 3, and served again
            table.proc.send_signal(signal.SIGKILL)
            table.proc.wait(timeout=10)
            table.serve()
            for seat in (1, 2, 3):
                table.type(f"{seat} agree")
        elif number in (3, 4):
            for seat in (1, 2, 3):  # every player's AGREE starts the next game
                table.type(f"{seat} agree")
        _wait_for(lambda: table.inputs() == 0 or number == 5, f"game {number + 1} started", table)
    _wait_for(lambda: any(ev.get("key") == "session-over" for ev in table.events()), "the session's end", table)
    table.proc.stdin.close()
    assert table.proc.wait(timeout=20) == 0
    err = table.stderr()
    assert "resumed" in err and "Traceback" not in err

    # the records: five games, each once, with the bots' results, and the settlement applied
    with Club(tmp_path / "club.sqlite") as club:
        info = club.session(1)
        assert (info.status, info.games) == ("completed", 5)
        assert all(club.history(name) for name in NAMES)
        assert all(club.player(name).rank_key == "apprentice" for name in NAMES)
    rows = sqlite3.connect(tmp_path / "club.sqlite").execute(
        "SELECT number, event FROM games WHERE session_id = 1 ORDER BY number").fetchall()
    assert [n for n, _ in rows] == [1, 2, 3, 4, 5]
    assert [json.loads(e)["ranking"] for _, e in rows] == [r["ranking"] for r in results]

    # the speaker: each game's number and result, once, and the settlement
    speaker = [ev["text"] for ev in table.events() if ev["type"] == "say" and ev["to"] == "table"]
    for number, result in enumerate(results, start=1):
        places = [NAMES[e["seat"] - 1] for e in result["ranking"]]
        line = f"Game {number} of 5 is over. First, {places[0]}. Second, {places[1]}. Third, {places[2]}."
        # said once; game 2 maybe twice: a restart on a finished game says its result again
        assert 1 <= speaker.count(line) <= (2 if number == 2 else 1), line
        assert speaker.count(f"Game {number} of 5.") == 1
    for name in NAMES:
        assert f"{name} rises to Apprentice." in speaker
    assert speaker[-1] == "The session is over. Thank you for playing."
    # each game kept its own journal, and the live table never restarted a game
    kept = sorted(p.name for p in (tmp_path / "var").glob("table.game*.jsonl"))
    assert len(kept) == 4
