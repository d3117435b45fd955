"""A broken table config is refused with one line naming the file, the key and the problem."""
from __future__ import annotations

import pytest

from kikimimi.cli import main
from kikimimi.table.config import ConfigError, load_table_config

GOOD = """
[table]
game = "toy"
players = 2
[readers.hand-1]
role = "hand"
seat = 1
driver = "pn532"
path = "/dev/kikimimi-hand-1"
[readers.hand-2]
role = "hand"
seat = 2
driver = "pn532"
path = "/dev/kikimimi-hand-2"
[readers.field]
role = "field"
driver = "pn532"
path = "/dev/kikimimi-field"
"""


def _write(tmp_path, text):
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_a_good_config_loads(tmp_path, toy):
    config = load_table_config(_write(tmp_path, GOOD))
    assert (config.game, config.players, config.lang) == ("toy", 2, "ja")
    assert config.hand_seats == {1, 2} and config.has_field and not config.simulated
    assert config.journal == tmp_path / "var" / "table.jsonl"


@pytest.mark.parametrize("change, key, problem", [
    (("players = 2", "players = 9"), "table.players", "2-4 players, not 9"),
    (('game = "toy"', 'game = "chess"'), "table.game", "unknown game 'chess'"),
    (("seat = 2", "seat = 1"), "readers.hand-2.seat", "seat 1 already has hand reader hand-1"),
    (('driver = "pn532"', 'driver = "magic"'), "readers.hand-1.driver", "must be one of"),
    (('path = "/dev/kikimimi-hand-2"', 'paht = "x"'), "readers.hand-2.paht", "unknown key"),
    (('role = "field"', 'role = "feet"'), "readers.field.role", 'must be "hand" or "field"'),
    (("[readers.hand-2]", "[readers.hand-3]\nseat = 3\n[x]"), "[x]", "unknown section"),
    (("players = 2", "players = 2\nlang = \"fr\""), "table.lang", '"ja" or "en"'),
    (("players = 2", "players = 2\ntagmap = \"nowhere.toml\""), "table.tagmap", "cannot read"),
    (("players = 2", "players = 2 ="), "", "not valid TOML"),
])
def test_broken_configs_are_refused_in_one_line(tmp_path, toy, change, key, problem):
    path = _write(tmp_path, GOOD.replace(*change, 1))
    with pytest.raises(ConfigError) as info:
        load_table_config(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}")
    assert problem in message


def test_a_missing_seat_reader_is_named(tmp_path, toy):
    text = GOOD.replace('[readers.hand-2]\nrole = "hand"\nseat = 2\ndriver = "pn532"\npath = "/dev/kikimimi-hand-2"\n', "")
    with pytest.raises(ConfigError, match=r"\[readers\]: no hand reader for seat 2"):
        load_table_config(_write(tmp_path, text))


def test_serve_and_doctor_report_a_broken_config_without_a_traceback(tmp_path, toy, capsys):
    path = _write(tmp_path, GOOD.replace("players = 2", "players = 0"))
    assert main(["serve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "table.players" in err
    assert main(["doctor", str(path)]) == 1
    out = capsys.readouterr().out
    assert "[FIX] table config:" in out and "table.players" in out


def test_a_mistyped_game_name_is_an_unknown_game_with_the_known_names(tmp_path, monkeypatch, capsys):
    """`kikimimi serve tridnet` said "cannot read (No such file or directory)"."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as err:
        load_table_config("tridnet")
    line = str(err.value)
    assert line.startswith("tridnet: unknown game") and "trident" in line and "\n" not in line
    assert main(["serve", "tridnet"]) != 0
    out = capsys.readouterr()
    assert "unknown game" in out.err and "Traceback" not in out.err
    with pytest.raises(ConfigError, match="cannot read"):  # a file's name is still a missing file
        load_table_config("tridnet.toml")
