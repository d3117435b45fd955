"""A typo in a Trident option is refused in one line,
in a table config as in a script header, instead of playing the default rules."""
from __future__ import annotations

import pytest

from kikimimi.table.engine import run_script
from kikimimi.contract.script import ScriptError
from kikimimi.table.config import ConfigError, load_table_config


def test_an_unknown_trident_option_in_a_header_is_one_line():
    with pytest.raises(ScriptError, match="unknown option 'scorng'"):
        run_script(['{"game": "trident", "players": 3, "options": {"scorng": "competition"}}'])


def test_an_unknown_trident_option_in_a_config_is_one_line(tmp_path):
    (tmp_path / "t.toml").write_text(
        '[table]\ngame = "trident"\nplayers = 3\njournal = "j.jsonl"\noptions = { scorng = "competition" }\n'
        '[readers.a]\nrole = "hand"\nseat = 1\ndriver = "sim"\n')
    with pytest.raises(ConfigError, match="scorng"):
        load_table_config(tmp_path / "t.toml")
    assert not (tmp_path / "j.jsonl").exists()


def test_the_known_options_still_play():
    log = run_script(['{"game": "trident", "players": 3, "options": {"scoring": "competition", "first": 2}}'])
    assert log and log[0]["type"] == "say"
