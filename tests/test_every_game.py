"""The contract of every registered game, checked the same way for each.

The contract itself lives in the package (`kikimimi.design.contract_check`, `kikimimi check GAME`), so
an author outside this repository holds a new game to exactly this test; here it runs for every
registered game, one test per game and part.  The command line's own promises (docs/contract.md:
`sim --record` then `replay` prints the identical log, `replay --public`, `sim --options`) are
checked through the real CLI.  A new game is added by registering it."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kikimimi.design.contract_check import PARTS, check
from kikimimi.contract.registry import declaration, game_names

GAMES = [name for name in game_names() if name != "toy"]


def kikimimi(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("part", list(PARTS))
@pytest.mark.parametrize("game", GAMES)
def test_the_game_keeps_the_contract(game, part):
    failures = check(game, [part])
    assert not failures, "\n".join(f.line() for f in failures)


@pytest.mark.parametrize("game", GAMES)
def test_sim_record_then_replay_prints_the_identical_log(game, tmp_path):
    record = tmp_path / "game.jsonl"
    sim = kikimimi("sim", game, "--seed", "4", "--record", str(record))
    assert sim.returncode == 0, sim.stderr
    replay = kikimimi("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == sim.stdout
    log = [json.loads(line) for line in sim.stdout.splitlines()]
    assert any(ev["type"] == "game-over" for ev in log)
    public = [json.loads(line) for line in kikimimi("replay", "--public", str(record)).stdout.splitlines()]
    assert public and all("private" not in ev for ev in public)
    assert all(ev["to"] == "table" for ev in public if ev["type"] == "say")


@pytest.mark.parametrize("game", GAMES)
def test_sim_lists_the_options_and_bots(game):
    decl = declaration(game)
    listed = kikimimi("sim", game, "--options")
    assert listed.returncode == 0 and all(b in listed.stdout for b in decl.bots)
    assert decl.options is not None and all(n in listed.stdout for n in decl.options.names)


#: The command line's own output, on the shipped game it checks quickest (every game's parts are
#: test_the_game_keeps_the_contract's): `kikimimi check` took 2.4 s on trident, 11 s on intrigue.
CLI_GAME = "trident"


def test_kikimimi_check_passes_a_shipped_game_and_names_its_parts():
    assert CLI_GAME in GAMES
    run = kikimimi("check", CLI_GAME)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == f"{CLI_GAME}: {len(PARTS)} of {len(PARTS)} parts kept"
    unknown = kikimimi("check", "no-such-game")
    assert unknown.returncode == 1 and unknown.stdout.startswith("no-such-game: load: unknown game")
    assert "Traceback" not in unknown.stdout + unknown.stderr
