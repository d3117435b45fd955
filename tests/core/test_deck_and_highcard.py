"""A deck of known unseen pieces (kikimimi.contract.deck), and examples/highcard on the runtime's
primitives: HINT answered by the runtime, seat tokens and unused command tags refused
before they reach the game (they were taken as a card: "Your card: cmd:hint."), and a
card drawn once never drawn again."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from kikimimi.contract import deck, registry
from kikimimi.contract.deck import Deck
from kikimimi.table.engine import ScriptRun
from kikimimi.contract.registry import register
from kikimimi.contract.script import Header

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "highcard"


def test_a_deck_gives_each_piece_once_and_refuses_a_draw_from_an_empty_pile():
    pile = Deck(["x:a", "x:b"])
    assert pile.draw("x:a") is None and pile.left == ["x:b"] and len(pile) == 1
    assert pile.draw("x:a") == deck.NOT_THERE and pile.draw("x:c") == deck.NOT_THERE
    assert pile.draw("x:b") is None and "x:b" not in pile
    assert pile.draw("x:a") == deck.EMPTY
    pile.put_back("x:a")
    assert pile.left == ["x:a"]


def test_a_refused_draw_is_one_line_in_the_seats_earphone():
    events = deck.refused(2, "x:a", deck.EMPTY)
    assert [(e.type, e.fields.get("private") or e.fields.get("to")) for e in events] == [
        ("error", "seat:2"), ("say", "seat:2")]
    assert events[1].fields["key"] == "deck-empty"


@pytest.fixture
def highcard(monkeypatch):
    """The example game, registered in-process from its source folder."""
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    sys.modules.pop("kikimimi_highcard", None)
    from kikimimi_highcard import GAME

    register(GAME)
    yield GAME
    sys.modules.pop("kikimimi_highcard", None)


def play(*lines: dict[str, Any]) -> tuple[ScriptRun, list[list[dict[str, Any]]]]:
    r = ScriptRun(Header.parse({"game": "highcard", "players": 3, "seed": 1, "lang": "en"}))
    return r, [r.feed(n, item) for n, item in enumerate(lines, start=2)]


def hand(t: float, seat: int, tag: str) -> dict[str, Any]:
    return {"t": t, "reader": "hand", "seat": seat, "tag": tag}


def said(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["to"], e["text"]) for e in events if e["type"] == "say"]


def test_hint_is_answered_not_taken_as_a_card(highcard):
    r, (hint, card, again) = play(hand(1.0, 1, "cmd:hint"), hand(2.0, 1, "hc:card-4"), hand(3.0, 1, "cmd:hint"))
    assert said(hint) == [("seat:1", "Still to draw: 1, 2, 3.")]
    assert said(card)[0] == ("seat:1", "Your card: four.")
    assert said(again) == [("seat:1", "Still to draw: 2, 3."), ("seat:1", "Your card: four.")]
    assert r.table.game.cards == {1: "hc:card-4"}


@pytest.mark.parametrize("tag", ["seat:2", "cmd:raise", "cmd:yes"])
def test_a_seat_token_or_unused_command_is_refused_by_the_runtime(highcard, tag):
    r, (got,) = play(hand(1.0, 1, tag))
    assert said(got) == [("seat:1", "That tag is not enrolled or not part of this game.")]
    assert [e["private"] for e in got if e["type"] == "error"] == ["seat:1"]
    assert r.table.game.cards == {}


def test_another_seats_card_is_not_in_the_pile(highcard):
    r, (_, got) = play(hand(1.0, 1, "hc:card-4"), hand(2.0, 2, "hc:card-4"))
    assert said(got) == [("seat:2", "That piece is not in the pile.")]
    assert r.table.game.cards == {1: "hc:card-4"} and len(r.table.game.pile) == 8


def test_its_cards_are_known_through_its_kit_alone(highcard):
    assert highcard.tags == frozenset()
    assert highcard.known_tags(3) == frozenset(f"hc:card-{n}" for n in range(1, 10))
