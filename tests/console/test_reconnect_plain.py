"""The console across a table restart, its command list from the served game,
and the plain line mode for screen readers, against real `kikimimi serve` processes."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kikimimi.api import paths
from kikimimi.console.app import ConsoleApp
from kikimimi.console.plain import PlainConsole
from kikimimi.testkit.tables import sim_table_toml

FAST = (0.1, 0.2, 0.4)


class Served:
    def __init__(self, tmp: Path, game: str, players: int):
        self.tmp = tmp
        (tmp / "table.toml").write_text(sim_table_toml(game, players, journal="j.jsonl"))
        self.sock = paths.referee_socket(tmp / "j.jsonl")
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text",
                                      "--quiet"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, cwd=self.tmp)
        end = time.monotonic() + 20
        while not paths.public_socket(self.tmp / "j.jsonl").exists():
            assert self.proc.poll() is None, self.proc.stderr.read()
            assert time.monotonic() < end, "serve never opened its API"
            time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=20)


@pytest.fixture
def served(tmp_path, request):
    game, players = request.param
    table = Served(tmp_path, game, players)
    table.start()
    yield table
    table.stop()


async def _until(predicate, what, timeout=15.0, pause=None):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await (pause(0.05) if pause else asyncio.sleep(0.05))


@pytest.mark.parametrize("served", [("onisagashi", 5)], indirect=True)
async def test_the_console_reconnects_by_itself_and_lists_the_games_own_commands(served):
    app = ConsoleApp(served.sock, backoff=FAST)
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(lambda: app.snapshot, "the welcome", pause=pilot.pause)
        app.action_help()
        listed = "\n".join(app.spoken)
        for command in ("deal", "raise SEAT", "next", "stop", "new", "undo"):
            assert f"  {command} " in listed, command
        assert "declare" not in listed and "session start" not in listed  # no Trident, nothing refused
        assert "hands" not in app.table_view and "null" not in app.table_view
        assert "0 cards" in app.table_view  # a card game's hands are cards

        served.kill()  # the table goes away ...
        await _until(lambda: "trying again in" in app.status_text, "the console saying so", pause=pilot.pause)
        assert app.client is None
        served.start()  # ... and comes back with a fresh secret
        await _until(lambda: app.client is not None and "again" in app.status_text, "the reconnection",
                     pause=pilot.pause)
        assert any("connected to the table again" in line for line in app.spoken)
        app.query_one("#command").value = "deal"
        await pilot.press("enter")
        await _until(lambda: "deal:" in app.status_text, "the command after the restart", pause=pilot.pause)
        assert "not accepted" not in app.status_text


class Lines:
    """What the plain console printed, and a pipe to type into it."""

    def __init__(self):
        self.lines: list[str] = []
        self._read, self._write = os.pipe()
        self.inp = os.fdopen(self._read, "r")
        self.keys = os.fdopen(self._write, "w")

    def write(self, text: str) -> None:  # the console's `out`
        self.lines.extend(l for l in text.splitlines() if l)

    def flush(self) -> None:
        pass

    def type(self, text: str) -> None:
        self.keys.write(text + "\n")
        self.keys.flush()


@pytest.mark.parametrize("served", [("trident", 3)], indirect=True)
async def test_plain_mode_prints_each_event_once_and_never_redraws(served):
    io = Lines()
    console = PlainConsole(served.sock, inp=io.inp, out=io, backoff=FAST)
    running = asyncio.create_task(console.run())
    await _until(lambda: any("referee of trident" in l for l in io.lines), "the welcome")
    opening = len(io.lines)
    io.type("help")
    await _until(lambda: any("penalty SEAT" in l for l in io.lines), "the help")
    assert any(l.startswith("  new ") for l in io.lines)
    deal = [f"{seat} {suit}-{i}" for seat, suit in ((1, "heart"), (2, "spade"), (3, "clover")) for i in range(1, 6)]
    served.proc.stdin.write("\n".join(deal) + "\n")
    served.proc.stdin.flush()
    await _until(lambda: sum("[seat 3 ear]" in l for l in io.lines) >= 5, "the deal, line by line")
    io.type("penalty 2")
    await _until(lambda: any(l.startswith("penalty 2: done") for l in io.lines), "the command's answer")
    io.type("suit purple")
    await _until(lambda: any("the game refused it: suit: 'purple' is not one of heart" in l for l in io.lines), "the refusal")

    served.kill()
    await _until(lambda: any("trying again in" in l for l in io.lines), "the reconnecting line")
    served.start()
    await _until(lambda: any("connected to the table again" in l for l in io.lines), "the reconnection")
    io.type("state")
    await _until(lambda: any(l.startswith("seat 2: 5 pieces") and "owes 2" in l for l in io.lines), "the state")
    io.type("quit")
    assert await asyncio.wait_for(running, 10) == 0

    # every event line appeared once: the deal's earphone lines are each there exactly once
    events = [l for l in io.lines[opening:] if l.startswith(("[", "- ", "! ", "= ", "* "))]
    ears = [l for l in events if l.startswith("[seat ")]
    assert len(ears) == len(set(ears)) == 16  # 15 pieces dealt, one penalty; none again after the restart
    # nothing redrawn: the table view was printed only when asked
    assert sum(l.startswith("seat 1:") for l in io.lines) == 1
    assert not any("\x1b" in l or "\r" in l for l in io.lines)
