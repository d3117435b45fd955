"""Each game owns its console view, command tags and session table; the runtime names no game."""
from __future__ import annotations

import pytest

from kikimimi.cli.tags import pieces_of
from kikimimi.console.render import GENERIC, PublicTable, table_text, view_of
from kikimimi.contract.declaration import Declaration
from kikimimi.table.evening import SessionRefused, check_session_table
from kikimimi.contract.kit import kit_for, table_tags
from kikimimi.contract.protocol import COMMAND_TAGS
from kikimimi.contract.registry import declaration, game_names

GAMES = [name for name in game_names() if name != "toy"]


def test_the_trident_names_its_view_and_the_others_take_the_generic_one():
    assert view_of("trident") is not GENERIC and "declared" in view_of("trident").shown
    assert view_of("witch") is GENERIC and view_of("no-such-game") is GENERIC


def test_a_spectator_of_the_trident_follows_its_suit_attack_and_declarations():
    public = PublicTable()
    public.absorb([{"seq": 1, "type": "turn", "seat": 1}, {"seq": 2, "type": "suit", "suit": "heart"},
                   {"seq": 3, "type": "play", "seat": 1, "tag": "trident:heart-3"},
                   {"seq": 4, "type": "pending", "total": 2}, {"seq": 5, "type": "declare", "seat": 1, "what": "pass"}])
    text = table_text({"game": "trident", "players": 2}, None, public)
    assert "seat 1: <- turn declared pass" in text
    assert "suit: heart" in text and "pending attack: 2" in text and "field: 1 piece, top heart-3" in text
    public.absorb([{"seq": 1, "type": "turn", "seat": 2}])  # the next game: nothing of the last one
    again = table_text({"game": "trident", "players": 2}, None, public)
    assert "suit" not in again and "declared" not in again and "field: 0 pieces" in again


def test_a_spectator_of_another_game_sees_no_trident_words():
    public = PublicTable()
    public.absorb([{"seq": 1, "type": "turn", "seat": 2}])
    text = table_text({"game": "witch", "players": 3}, None, public)
    assert "seat 2: <- turn" in text and "field" not in text and "pending" not in text


@pytest.mark.parametrize("game", GAMES)
def test_each_players_command_tags_are_the_ones_its_game_declares(game):
    decl = declaration(game)
    own = {t for t in kit_for(game, decl.default_players).own if t.startswith("cmd:")}
    assert decl.command_tags and own == {f"cmd:{c}" for c in decl.command_tags}


def test_the_cmd_set_is_the_contracts_and_every_games_own():
    names = {t.partition(":")[2] for t in pieces_of("cmd", 3)}
    assert {"hint", "agree", "yes", "no", "ok"} <= names and {"trident", "raise", "bribe", "advise"} <= names
    assert len(names) == len(pieces_of("cmd", 3))  # each once
    assert "cmd:trident" not in COMMAND_TAGS  # the Trident's, not the contract's


def test_a_game_without_a_kit_takes_its_declared_command_tags():
    from kikimimi.contract.protocol import Play

    class Plain(Play):
        def handle(self, inp):
            return []

    decl = Declaration(name="plain", play=Plain, tags=frozenset({"plain:a"}), command_tags=("knock",))
    tags = table_tags(decl, 2)
    assert {"cmd:knock", "cmd:hint", "cmd:ok", "plain:a", "seat:2"} <= tags and "cmd:trident" not in tags


def test_only_a_game_that_declares_a_session_plays_one():
    assert declaration("trident").session is not None
    assert check_session_table("trident", 3, {"scoring": "competition"}).players == 3
    with pytest.raises(SessionRefused, match="are Trident games, not witch"):
        check_session_table("witch", 3, {})
