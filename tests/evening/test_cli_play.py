"""`kikimimi sim GAME` seats the game's official count; `diagram` offers only what it can draw."""
from __future__ import annotations

import json

import pytest

from kikimimi.cli import main
from kikimimi.contract.registry import declaration, game_names


@pytest.mark.parametrize("game", ["trident", "onisagashi"])
def test_sim_defaults_to_the_official_count(game, tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    assert main(["sim", game, "--seed", "3", "--record", str(record)]) == 0
    header = json.loads(record.read_text().splitlines()[0])
    assert header["players"] == declaration(game).official_players
    assert declaration("onisagashi").official_players == 5


def test_every_game_names_its_official_count():
    for name in game_names():
        decl = declaration(name)
        assert decl.official_players is not None and decl.min_players <= decl.official_players <= decl.max_players


def test_diagram_offers_no_svg_it_cannot_draw(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["diagram", "trident", "--format", "svg"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'svg'" in err and "Traceback" not in err
    assert main(["diagram", "trident"]) == 0
    assert "stateDiagram" in capsys.readouterr().out
