"""The table files shipped in hardware/ are examples an owner copies: each names a tag map that
exists, loads, and holds its game's whole kit, so the example is on the enrolled fast path (a
placement costs one chip command) rather than reading every tag."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from kikimimi.contract.kit import kit_for, missing_copies
from kikimimi.table.config import load_table_config
from kikimimi.contract.tagmap import load_tagmap

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SHIPPED = sorted(HARDWARE.glob("*.toml"))


def test_there_are_shipped_table_files():
    assert SHIPPED and (HARDWARE / "trident-pn532.toml") in SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_each_shipped_table_names_a_whole_tag_map_for_every_game(path):
    raw = tomllib.loads(path.read_text())
    config = load_table_config(path)
    named = {config.game: raw["table"].get("tagmap")}
    named.update({game: section.get("tagmap") for game, section in raw.get("games", {}).items()})
    for game, name in named.items():
        assert name, f"{path.name}: {game} names no tag map"
        file = path.parent / name
        assert file.is_file(), f"{path.name}: {file} is missing"
        tags = load_tagmap(file)
        options = raw["table"].get("options", {}) if game == config.game else {}
        kit = kit_for(game, config.games[game].players, options)
        assert missing_copies(kit, tags) == {}, f"{path.name}: {game}'s kit is not whole in {name}"
        assert config.games[game].tagmap == tags  # what serve hands the readers as known
