"""A real `kikimimi serve` with a bot at seat 3, SIGKILLed right after the bot's night scan.

The referee seats the bot and scans its card through the console API, the
players at the other seats type their scans (simulated readers), the table
runs on the wall clock with short phases and a short bot delay from the
table file.  After the kill the restarted table seats the bot again from the
journal: it does not scan a second time that night, and it goes on to vote.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from kikimimi.api.client import ApiClient
from support.killtimer import check
from kikimimi.testkit.script import journal_inputs, replay_journal, wait_until
from kikimimi.testkit.tables import sim_table_toml

OPTIONS = ('{ jobs = ["mafia", "citizen", "citizen", "police"], night = 3, morning = 1, '
           'discussion_per_player = 1, vote = 3, defence = 1, approval = 2 }')


class Serve:
    def __init__(self, folder: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text", "--quiet",
             "--sim-readers", "interactive", "--events", "events.jsonl"],
            cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.socket = folder / "journal.jsonl.sock"
        wait_until(lambda: self.socket.exists() or self.proc.poll() is not None, "the table's socket")
        assert self.proc.poll() is None

    def type(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
        self.proc.stdin.flush()

    def kill(self, sig: int = signal.SIGKILL) -> None:
        os.kill(self.proc.pid, sig)
        self.proc.wait(timeout=10)
        assert self.proc.stdin is not None
        self.proc.stdin.close()


def _bot_lines(journal: Path) -> list[dict[str, Any]]:
    return [i for i in journal_inputs(journal) if isinstance(i, dict) and i.get("bot") == 3]


def _vote_opened(log: list[dict[str, Any]]) -> float:
    return next((e["t"] for e in log if e["type"] == "phase" and e["phase"] == "vote"), float("inf"))


def _votes(journal: Path) -> list[dict[str, Any]]:
    """The bot's seat scans once the vote is open."""
    opened = _vote_opened(replay_journal(journal))
    return [a for a in _bot_lines(journal) if a["console"].startswith("scan 3 seat:") and a["t"] >= opened]


async def test_killed_after_its_night_scan_the_bot_scans_once_and_votes_after_the_restart(tmp_path):
    toml = sim_table_toml("mafia42", 4).replace('journal = "journal.jsonl"\n',
                                                f'journal = "journal.jsonl"\noptions = {OPTIONS}\n', 1)
    (tmp_path / "table.toml").write_text(toml + "[seat_bots]\ndelay = [0.2, 0.4]\n"
                                       # each phase counts from when its call is heard: modelled at a fast
                                       # listener's rate, the night comes 3.4 times sooner than at 175
                                       "[audio]\nrate = 600\n", encoding="utf-8")
    journal = tmp_path / "journal.jsonl"
    table = Serve(tmp_path)
    referee = await ApiClient.connect(table.socket)
    assert (await referee.command("bot 3"))["ok"]
    assert (await referee.command("scan 3 mafia42:job-police-1"))["ok"]  # its card, turned over its reader
    await referee.close()
    table.type("1 mafia42:job-mafia-1", "2 mafia42:job-citizen-1", "4 mafia42:job-citizen-2")
    wait_until(lambda: _bot_lines(journal), "the bot's night scan", timeout=20)
    table.kill()  # at once, before the night ends
    night_scan = _bot_lines(journal)
    assert len(night_scan) == 1 and night_scan[0]["console"].startswith("scan 3 seat:")

    table = Serve(tmp_path)  # resumes the journal: the bot sits again, re-fed what it heard
    wait_until(lambda: _votes(journal), "the bot's vote after the restart", timeout=30)
    table.kill(signal.SIGTERM)

    log = replay_journal(journal)
    votes_open = _vote_opened(log)
    scans = [a for a in _bot_lines(journal) if a["console"].startswith("scan 3 seat:")]
    assert [a for a in scans if a["t"] < votes_open] == night_scan  # one that night, before the kill, never again
    assert _votes(journal)  # and the bot went on playing: its vote
    # what the two tables told is the journal's replay: nothing taken back, nothing lost
    told = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines() if line]
    assert check(journal, [ev for ev in told if ev.get("type") != "seat-bot-note"]) == []
    bot_numbers = {n for n, i in enumerate(journal_inputs(journal), start=2) if isinstance(i, dict) and i.get("bot")}
    assert not [e for e in log if e["type"] == "error" and e["in"] in bot_numbers]  # none refused
