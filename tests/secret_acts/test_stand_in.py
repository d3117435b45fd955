"""The referee stands in for any reader's scan, in every game, written once
in the runtime (`kikimimi.table.stand_in`): a dead hand reader never stalls a game."""
from __future__ import annotations

import pytest

from kikimimi.table.engine import run_script
from kikimimi.contract.registry import declaration, game_names
from kikimimi.design.sim import play

GAMES = [name for name in game_names() if name != "toy"]


def as_stand_ins(script: list[dict]) -> list[dict]:
    """Every reader line of a script typed at the console instead."""
    out = [script[0]]
    for line in script[1:]:
        if "tag" in line and line.get("reader") in ("hand", "field"):
            where = str(line["seat"]) if line["reader"] == "hand" else "field"
            verb = "lift" if line.get("removed") else "scan"
            out.append({"t": line["t"], "console": f"{verb} {where} {line['tag']}"})
        else:
            out.append(line)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_typed_by_the_referee_plays_exactly_as_the_readers_played_it(game):
    decl = declaration(game)
    script, log = play(game, 3, decl.default_players)
    typed = as_stand_ins(script)
    assert sum("console" in line for line in typed) > sum("console" in line for line in script) + 5
    assert run_script(typed) == log  # the same events, seq, in and t: a stand-in is the scan itself
    assert any(ev["type"] == "game-over" for ev in log)


def test_a_bare_piece_name_is_enough_when_it_names_one_piece():
    by_name = run_script([{"game": "witch", "players": 5}, {"t": 1, "console": "scan 2 role-mirror-1"}])
    by_tag = run_script([{"game": "witch", "players": 5},
                         {"t": 1, "reader": "hand", "seat": 2, "tag": "witch:role-mirror-1"}])
    assert by_name == by_tag


@pytest.mark.parametrize("line", ["scan 9 cmd:ok", "scan 2 witch:role-nobody-1", "scan 2", "lift x cmd:ok",
                                  "scan 2 oni:card-rena extra"])
def test_a_stand_in_the_table_cannot_apply_is_refused_to_the_referee_alone(line):
    log = run_script([{"game": "witch", "players": 5}, {"t": 1, "console": line}])
    refused = [ev for ev in log if ev["in"] == 2]
    assert [ev["type"] for ev in refused] == ["error"]
    assert refused[0]["private"] == "referee"
    assert len(refused[0]["message"].splitlines()) == 1


def test_a_stand_in_is_journaled_and_replayed_by_a_live_table(tmp_path):
    from kikimimi.table.daemon import Daemon
    from kikimimi.contract.script import Header

    journal = tmp_path / "j.jsonl"
    daemon = Daemon(Header("witch", 5), journal)
    daemon.open()
    got = daemon.submit({"console": "scan 3 witch:role-human-1"})
    daemon.close()
    assert any(ev["type"] == "role" and ev["seat"] == 3 and ev["role"] == "human" for ev in got)
    again = Daemon(Header("witch", 5), journal)
    again.open()  # resumed from the journal: the stand-in scan is still there
    assert again.table.game.snapshot() == daemon.table.game.snapshot()
    assert any(ev["type"] == "role" and ev["seat"] == 3 for ev in again.log)
    again.close()


def test_the_console_lists_the_stand_in_for_every_game():
    from kikimimi.console.commands import help_text

    for game in GAMES:
        assert "scan SEAT TAG" in help_text(game)
