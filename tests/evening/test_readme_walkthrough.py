"""The README's official-session walkthrough, run exactly as written (in a scratch folder,
on the Trident's own simulated table), with one game played on the simulated readers."""
from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from kikimimi.design.sim import play
from kikimimi.testkit.script import wait_until

ROOT = Path(__file__).parents[2]
KIKIMIMI = str(Path(sys.executable).with_name("kikimimi"))


def _walkthrough() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- walkthrough:.*?```sh\n(.*?)```\n<!-- /walkthrough -->", text, re.S)
    assert block, "the README lost its walkthrough block"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_walkthrough_is_what_a_referee_types(tmp_path):
    env = {**os.environ, "KIKIMIMI_DB": str(tmp_path / "club.sqlite")}
    lines = _walkthrough()
    assert all(line[0] == "kikimimi" for line in lines)
    *setup, serve = lines
    for line in setup:
        done = subprocess.run([KIKIMIMI, *line[1:]], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, (line, done.stderr)
    assert "session 1 open: half trial, 5 games" in done.stdout
    assert serve[:2] == ["kikimimi", "serve"]

    def start():
        return subprocess.Popen([KIKIMIMI, *serve[1:]], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    table = start()
    journal = tmp_path / "var" / "trident-sim.jsonl"
    wait_until(lambda: journal.with_name(journal.name + ".secret").exists() or table.poll() is not None, "serve")
    assert table.poll() is None, table.stderr.read()
    script, log = play("trident", 4, 3, {"scoring": "competition"})
    for line in script[1:]:  # the typed vocabulary of the simulated readers
        if "console" in line:
            table.stdin.write(f"> {line['console']}\n")
        else:
            reader = "f" if line["reader"] == "field" else str(line["seat"])
            table.stdin.write(f"{reader} {line['tag']}\n")
    table.stdin.flush()
    wait_until(lambda: len(journal.read_text().splitlines()) == len(script), "the game's inputs")

    # the console line of the README, in its plain form
    console = subprocess.run([KIKIMIMI, "console", "trident", "--plain"], cwd=tmp_path,
                             env=env, input="help\nnew\nquit\n", capture_output=True, text=True, timeout=60)
    assert console.returncode == 0, console.stderr
    assert "penalty SEAT" in console.stdout and "new: done" in console.stdout
    assert "Session 1: game 1 of 5" in console.stdout

    table.send_signal(signal.SIGTERM)  # the table stops; the same line brings it back
    assert table.wait(timeout=20) == 0
    out = table.stdout.read()
    assert "Game 1 of 5." in out and "Game 1 of 5 is over. First, " in out and "Game 2 of 5." in out
    table = start()
    wait_until(lambda: journal.with_name(journal.name + ".secret").exists() or table.poll() is not None, "again")
    table.send_signal(signal.SIGTERM)
    assert table.wait(timeout=20) == 0
    assert "Game 2 of 5." in table.stdout.read()  # game 2 had no input yet: it is announced again
    status = subprocess.run([KIKIMIMI, "session", "status", "1"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=60)
    assert "1 of 5 games" in status.stdout
