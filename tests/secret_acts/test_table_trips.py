"""Issue 34: what live tables tripped on, one test per defect (each fails without its fix)."""
from __future__ import annotations

from kikimimi.engine import run_script
from kikimimi.phrases import Phrasebook
from kikimimi.testing.table_script import Script

# -- 7: wording ------------------------------------------------------------------


def test_one_laugh_is_said_once_not_one_times():
    book = Phrasebook("en", ("core", "witch"))
    assert book.render("laughter", {"count": 1}).startswith("Laughter from the dark, once.")
    assert book.render("laughter", {"count": 2}).startswith("Laughter from the dark, 2 times.")


def test_one_seat_gone_is_seat_not_seats():
    book = Phrasebook("en", ("core", "witch"))
    assert book.render("hint-out", {"seats": [2]}) == "Gone: seat 2."
    assert book.render("hint-out", {"seats": [2, 5]}) == "Gone: seats 2, 5."
    assert book.render("hint-alive", {"seats": [4]}) == "On the island: seat 4."


def test_a_lost_hand_reader_is_named_by_its_seat():
    s = Script("witch", 6)
    s.lines.append({"t": 1, "reader": "hand", "seat": 3, "lost": True})
    s.lines.append({"t": 2, "reader": "field", "lost": True})
    said = [e["text"] for e in run_script(s.lines) if e["type"] == "say" and e["key"] == "reader-lost"]
    assert said == ["The hand reader of seat 3 is not answering.", "The field reader is not answering."]
