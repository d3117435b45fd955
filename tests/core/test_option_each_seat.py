"""A word for every seat (鬼探し's assistant): one schema kind, so a game reads {seat: word}
for every seat whichever shape the table gave, and a bad shape is one line naming the option."""
from __future__ import annotations

import pytest

from kikimimi_games.onisagashi.options import OPTIONS as ONI
from kikimimi.contract.options import Options, each_seat

SCHEMA = Options(each_seat("assistant", ("off", "matrix", "full"), "full", "the assistant's mode"))


def test_every_shape_gives_every_seat_a_word():
    assert SCHEMA.parse(3, {}) == {"assistant": {1: "full", 2: "full", 3: "full"}}  # the default too
    assert SCHEMA.parse(3, {"assistant": "matrix"})["assistant"] == {1: "matrix", 2: "matrix", 3: "matrix"}
    assert SCHEMA.parse(3, {"assistant": ["off", "full", "matrix"]})["assistant"] == {1: "off", 2: "full", 3: "matrix"}
    # a table's seats left out take the first word
    assert SCHEMA.parse(3, {"assistant": {"2": "full", 3: "matrix"}})["assistant"] == {1: "off", 2: "full", 3: "matrix"}
    assert ONI.parse(5, {"assistant": {"1": "full"}})["assistant"] == {1: "full", 2: "off", 3: "off", 4: "off", 5: "off"}


@pytest.mark.parametrize("value", [
    "loud", ["off", "full"], ["off", "full", "loud"], ["off", "full", 3], {"4": "full"}, {"1": "loud"},
    {"1": "full", 1: "off"}, 3, None, True,
])
def test_a_bad_shape_is_one_line_naming_the_option(value):
    with pytest.raises(ValueError) as bad:
        SCHEMA.parse(3, {"assistant": value})
    text = str(bad.value)
    assert text.startswith("assistant must be off, matrix or full for every seat") and "\n" not in text
    assert len(text) < 200


def test_the_help_says_the_shapes():
    assert "a list of one per seat" in SCHEMA.help_lines()[0]


def test_a_deck_by_player_count_and_a_shortest_below_a_longest_are_the_schemas():
    from kikimimi_games.witch.options import OPTIONS as WITCH
    from kikimimi_games.witch.rules import default_deck

    assert WITCH.parse(8, {})["roles"] == default_deck(8)
    assert WITCH.parse(5, {"roles": None})["roles"] == default_deck(5)  # None is "not set" too
    deck = ["witch", "mirror", "human", "human", "human"]
    assert WITCH.parse(5, {"roles": deck})["roles"] == deck
    assert WITCH.parse(8, {"advisory_min": 30, "advisory_max": 30})["advisory_min"] == 30
    with pytest.raises(ValueError, match="^advisory_min must not exceed advisory_max$"):
        WITCH.parse(8, {"advisory_min": 31})
