"""Every piece a game's own lines ask a player to scan is in each player's
own set.  The evening's "everyone scans AGREE" is said at the end of every game, so AGREE
is every game's; a kit without it left the table waiting on the console's `new`."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from kikimimi.contract.kit import kit_for
from kikimimi.contract.protocol import COMMAND_TAGS
from kikimimi.contract.registry import declaration, game_names

ROOT = Path(__file__).resolve().parents[2]
GAMES = [name for name in game_names() if name != "toy"]


def _texts(path: Path) -> list[str]:
    out: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(tomllib.loads(path.read_text(encoding="utf-8")))
    return out


def _command_names() -> set[str]:
    names = {tag.partition(":")[2] for tag in COMMAND_TAGS}
    for game in GAMES:
        decl = declaration(game)
        names |= {t.partition(":")[2] for t in decl.known_tags(decl.default_players) if t.startswith("cmd:")}
    return names


def asked_pieces(game: str) -> set[str]:
    """The command pieces a game's English lines (and the evening's, said after every game)
    name in capitals, as the speaker says them: "scan AGREE", "scan OK"."""
    commands = _command_names()
    texts = _texts(ROOT / "games" / game / "phrases" / "en.toml") + _texts(ROOT / "voices" / "evening" / "en.toml")
    words = {w.lower() for text in texts for w in re.findall(r"\b[A-Z]{2,}\b", text)}
    return {f"cmd:{w}" for w in words & commands}


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_the_lines_ask_for_is_in_each_players_own_set(game):
    decl = declaration(game)
    asked = asked_pieces(game)
    assert "cmd:agree" in asked  # the evening's line is every game's
    for players in sorted({decl.min_players, decl.default_players, decl.max_players}):
        own = set(kit_for(game, players).own)
        assert asked <= own, f"{game} at {players}: lines ask for {sorted(asked - own)}, not in the kit"


def test_the_check_catches_a_kit_without_agree():
    own = set(kit_for("mafia42", 8).own) - {"cmd:agree"}
    assert not asked_pieces("mafia42") <= own
