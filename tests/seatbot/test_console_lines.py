"""The referee's console names bot seats and shows the bots' notes; its help lists the commands."""
from __future__ import annotations

from kikimimi.console.commands import help_text
from kikimimi.console.render import event_line


def test_the_console_shows_a_bot_seated_left_and_its_notes():
    assert event_line({"seq": 2, "t": 0.0, "type": "seat-bot", "in": 2, "seat": 3, "kind": "ear",
                       "private": "referee"}) == \
        "* seat 3 is played by a bot (ear): its earphone comes to you only"
    assert "a player sits there" in str(event_line({"type": "seat-bot", "seat": 3, "kind": None}))
    note = {"seq": None, "t": 1.0, "type": "seat-bot-note", "in": None, "seat": 3,
            "message": "seat 3 (bot): it passes", "private": "referee"}
    assert event_line(note) == "* seat 3 (bot): it passes"


def test_help_lists_bot_and_unbot():
    text = help_text("witch")
    assert "bot SEAT [KIND]" in text and "unbot SEAT" in text


def test_the_table_view_marks_the_bot_seat():
    from kikimimi.console.render import table_text

    header = {"game": "witch", "players": 4, "lang": "en"}
    text = table_text(header, {"game": {"phase": "day"}, "over": False, "seat_bots": {"3": "ear"}})
    assert "seat 3: played by a bot (ear)" in text.splitlines()
    assert "bot" not in table_text(header, {"game": {"phase": "day"}, "over": False})
