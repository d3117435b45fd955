"""The declaration itself: its defaults, the one-line refusals it gives, and the plays it makes."""
from __future__ import annotations

import dataclasses

import pytest

from kikimimi.contract.declaration import CONTRACT_COMMANDS, Declaration
from kikimimi.table.engine import Table
from kikimimi.contract.options import Options, seat
from kikimimi.contract.protocol import Event, Input, Play, event
from kikimimi.contract import registry
from kikimimi.contract.registry import declaration, register
from kikimimi.contract.script import Header, ScriptError


class Coin(Play):
    """Seat `first` flips; the game is over at once."""

    def __init__(self, players: int, options: dict | None = None):
        super().__init__(players, options)
        self.first = OPTIONS.parse(players, self.options)["first"]
        self.done = False

    @property
    def over(self) -> bool:
        return self.done

    def start(self, t: float) -> list[Event]:
        self.done = True
        return [event("game-over", reason="end", ranking=[{"seat": self.first, "place": 1}])]

    def handle(self, inp: Input) -> list[Event]:
        return []


OPTIONS = Options(seat("first", 1, "who flips"))
COIN = Declaration(name="coin", play=Coin, tags=frozenset({"coin:coin"}), options=OPTIONS,
                   min_players=2, max_players=3, pause_when_reader_lost=True)


def test_what_a_game_leaves_out_takes_the_shared_default():
    assert COIN.title == "coin" and COIN.tag_sets == ("coin",) and COIN.default_players == 2
    assert COIN.ear_table == ".ear:ear_simulation"
    assert COIN.package in (__name__, __name__.rpartition(".")[0])  # where its phrases would be
    assert COIN.referee_commands() == list(CONTRACT_COMMANDS)  # no table of its own: the contract's
    assert COIN.known_tags(3) == {"coin:coin"}
    assert COIN.own_values(2, {}) == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        COIN.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("fields, message", [
    ({"name": ""}, "needs a name"),
    ({"min_players": 5, "max_players": 4}, "is no range"),
    ({"official_players": 9}, "outside 2-3"),
])
def test_a_declaration_that_cannot_be_refuses_itself_in_one_line(fields, message):
    with pytest.raises(ValueError, match=message) as bad:
        dataclasses.replace(COIN, **fields)
    assert "\n" not in str(bad.value)


def test_players_and_options_are_refused_before_a_play_exists():
    with pytest.raises(ValueError, match="^coin is for 2-3 players, not 4$"):
        COIN.check_players(4)
    with pytest.raises(ValueError, match="^first"):
        COIN.check_options(2, {"first": 3})
    with pytest.raises(ValueError, match="unknown option 'side'"):
        COIN.check_options(2, {"side": "heads"})
    COIN.check_options(3, {"first": 3})


@pytest.fixture
def own_registry(monkeypatch):
    """Games registered here stay here: the rest of the suite sees the registry as it was."""
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    yield
    monkeypatch.undo()
    registry.game_names.cache_clear()


def test_each_play_is_new_and_the_engine_reads_the_declaration_once(own_registry):
    one, two = COIN.new_play(2, {"first": 2}), COIN.new_play(2, {})
    assert one is not two and (one.first, two.first) == (2, 1)
    register(COIN)
    assert declaration("coin") is COIN
    table = Table(Header("coin", 2, {"first": 2}, "en"))
    assert table.declaration is COIN and table._pause_on_lost is True
    assert "coin:coin" in table.known_tags and "seat:2" in table.known_tags
    with pytest.raises(ScriptError, match="coin is for 2-3 players, not 5"):
        Table(Header("coin", 5, {}, "en"))


def test_a_game_naming_its_options_without_a_schema_refuses_the_unknown_in_one_line():
    """`option_names` alone (no schema) still refuses an unknown option, through the one check
    that `Declaration.check_options` and the old `Game.check_options` share."""
    from kikimimi.contract.protocol import Game

    class Named(Game):
        name = "named"
        option_names = frozenset({"first"})

        @classmethod
        def known_tags(cls, players: int) -> frozenset[str]:
            return frozenset({"named:x"})

        @property
        def over(self) -> bool:
            return True

        def start(self, t: float) -> list[Event]:
            return []

        def handle(self, inp: Input) -> list[Event]:
            return []

    for check in (Named.check_options, Declaration.of_game(Named).check_options):
        with pytest.raises(ValueError, match=r"^unknown option 'colour' \(known: first\)$"):
            check(2, {"colour": 1})
        check(2, {"first": 1})
    assert Named.referee_commands() == list(CONTRACT_COMMANDS)
