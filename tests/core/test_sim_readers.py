"""The keyboard stands in for the readers: typed lines become script lines."""
from __future__ import annotations

import pytest

from kikimimi.table.sim_readers import TypedLineError, parse_typed, vocabulary_help

TAGS = {"trident:heart-3", "trident:change-heart-1", "cmd:pass", "cmd:trident", "seat:2"}


@pytest.mark.parametrize("typed, line", [
    ("2 heart-3", {"reader": "hand", "seat": 2, "tag": "trident:heart-3"}),
    ("f heart-3", {"reader": "field", "tag": "trident:heart-3"}),
    ("-2 heart-3", {"reader": "hand", "seat": 2, "tag": "trident:heart-3", "removed": True}),
    ("-f change-heart-1", {"reader": "field", "tag": "trident:change-heart-1", "removed": True}),
    ("1 pass", {"reader": "hand", "seat": 1, "tag": "cmd:pass"}),
    ("3 trident", {"reader": "hand", "seat": 3, "tag": "cmd:trident"}),
    ("1 uid 04a1b2c3d4e5f6", {"reader": "hand", "seat": 1, "uid": "04a1b2c3d4e5f6"}),
    ("1 trident:heart-3", {"reader": "hand", "seat": 1, "tag": "trident:heart-3"}),
    ("> declare trident 2", {"console": "declare trident 2"}),
    ("lost 2", {"reader": "hand", "seat": 2, "lost": True}),
    ("back f", {"reader": "field", "back": True}),
    ("   ", None),
    ("# a comment", None),
])
def test_typed_lines(typed, line):
    assert parse_typed(typed, TAGS) == line


@pytest.mark.parametrize("typed, words", [
    ("heart-3", "expected a reader and a piece"),
    ("x heart-3", "not a reader"),
    (">", "needs a console command"),
    ("2 heart-3 heart-4", "one piece at a time"),
    ("lost", "takes one reader"),
])
def test_bad_typed_lines_say_what_is_wrong(typed, words):
    with pytest.raises(TypedLineError, match=words):
        parse_typed(typed, TAGS)


def test_the_prompt_lists_the_vocabulary():
    text = vocabulary_help(TAGS, 3)
    assert "seats 1-3" in text and "heart-3" in text and "pass" in text
