"""A table {seat: word} option (マフィア42's skills, 闇に笑う魔女's preferences): one schema kind,
one refusal line naming the option, and the parsed table keyed by seat number."""
from __future__ import annotations

import pytest

from kikimimi_games.mafia42.options import parse_options as mafia_options
from kikimimi_games.witch.options import OPTIONS as WITCH
from kikimimi.contract.options import Options, seat_table

SCHEMA = Options(seat_table("skills", ("escape", "time-limited"), "seats' skills"))


def test_a_seat_table_is_keyed_by_seat_and_empty_when_not_set():
    assert SCHEMA.parse(4, {}) == {"skills": {}}
    assert SCHEMA.parse(4, {"skills": {"3": "escape", 1: "time-limited"}}) == {"skills": {3: "escape", 1: "time-limited"}}
    assert mafia_options(4, {"skills": {"2": "escape"}})["skills"] == {2: "escape"}
    assert WITCH.parse(8, {})["preferences"] == {}
    assert WITCH.parse(8, {"preferences": {"1": "mirror"}})["preferences"] == {1: "mirror"}


@pytest.mark.parametrize("value", [
    {"5": "escape"}, {"0": "escape"}, {"-1": "escape"}, {"x": "escape"}, {"1": "fly"}, {"1": 3},
    {"1": "escape", 1: "escape"}, ["escape"], "escape", {str(n): "escape" for n in range(1, 6)},
    {True: "escape"}, {"²": "escape"}, {"١": "escape"}, {"0001": "escape"},  # int("²") is Python's own error
])
def test_a_bad_seat_table_is_one_line_naming_the_option(value):
    with pytest.raises(ValueError) as bad:
        SCHEMA.parse(4, {"skills": value})
    text = str(bad.value)
    assert text.startswith("skills must be a table from seats 1 to 4 to escape or time-limited") and "\n" not in text
    assert len(text) < 200


def test_witch_preferences_refuse_a_role_that_does_not_exist():
    with pytest.raises(ValueError, match="^preferences must be a table from seats 1 to 8"):
        WITCH.parse(8, {"preferences": {"1": "dragon"}})
