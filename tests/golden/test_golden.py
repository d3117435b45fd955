"""One golden playthrough per game: a recorded table script and the event log it must give.

The script is a bot game recorded once (seed 1, the official count), so a change to the bots
does not touch it; a change to a game's rules, phrases or events does, and this test names the
first event that differs.  When the log changes on purpose, write the files again and say why
in the commit:

    KIKIMIMI_GOLDEN=update .venv/bin/python -m pytest tests/golden -q

A new game gets its files the same way (the test fails until they exist).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kikimimi.table.engine import run_script
from kikimimi.contract.registry import declaration, game_names
from kikimimi.contract.script import dumps, iter_dicts
from kikimimi.design.sim import play

HERE = Path(__file__).parent
GAMES = [name for name in game_names() if name != "toy"]
UPDATE = os.environ.get("KIKIMIMI_GOLDEN") == "update"


def _files(game: str) -> tuple[Path, Path]:
    return HERE / f"{game}.script.jsonl", HERE / f"{game}.log.jsonl"


def _write(path: Path, rows: list) -> None:
    path.write_text("".join(dumps(row) + "\n" for row in rows), encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_the_golden_script_gives_the_golden_log(game):
    script_file, log_file = _files(game)
    if UPDATE:
        if not script_file.exists():
            decl = declaration(game)
            script, _ = play(game, 1, decl.default_players, {})
            _write(script_file, script)
        _write(log_file, run_script(script_file.read_text(encoding="utf-8").splitlines()))
    assert script_file.exists() and log_file.exists(), f"no golden files for {game}: see this file's docstring"
    log = [dumps(ev) for ev in run_script(script_file.read_text(encoding="utf-8").splitlines())]
    golden = log_file.read_text(encoding="utf-8").splitlines()
    first = next((i for i, (a, b) in enumerate(zip(log, golden)) if a != b), min(len(log), len(golden)))
    assert (len(log), first) == (len(golden), len(golden)), (
        f"{game}: event {first + 1} differs\n  now:    {log[first] if first < len(log) else '(none)'}\n"
        f"  golden: {golden[first] if first < len(golden) else '(none)'}")
    assert any(ev.get("type") == "game-over" for ev in iter_dicts(golden))
