"""The declarer's own card as the third token looks like any other.

Before, a valid third token was declared on its scan, and an own card there was only named:
no declaration followed it, so the table knew the declarer held it.  Now every third token
is named and the declaration is said a moment later (`settle`, counted from when the
speaker has named the token); an own card, answered in the declarer's earphone alone, is
taken back in that moment as a change of mind is, and that earphone's line, still playing,
never moves the moment."""
from __future__ import annotations

import random

import pytest

from kikimimi.contract.heard import modelled_seconds
from kikimimi.table.engine import run_script
from kikimimi.table.public import public_view
from support.watcher import Watched, oni_declarer_card_by_third_token

from .test_game import Script, of, said

SETTLE = 3.0  # the option's default


def _turn(third: str) -> tuple[list, list]:
    """Seat 1 (mion, tofu, swamp) puts keiichi, bat and `third` down, takes `third` back,
    puts forest down, and waits; then seat 2 raises."""
    s = Script().deal()
    s.field("oni:token-keiichi").field("oni:token-bat").field(f"oni:token-{third}")
    s.field(f"oni:token-{third}", removed=True).field("oni:token-forest")
    s.wait(SETTLE + 1).hand(2, "cmd:raise")
    return s.lines, run_script(s.lines)


def _shape(log: list) -> list:
    """The public view with the one token that differs left unnamed (it lies in the open)."""
    return [(e["t"], e["type"], e.get("key"), e.get("to")) for e in public_view(log)]


def test_an_own_third_token_taken_back_looks_like_a_change_of_mind():
    own_lines, own = _turn("swamp")  # seat 1's card
    other_lines, other = _turn("dam")  # seat 2's: a valid third token the declarer thinks better of
    assert said(own, "seat:1", "own-card") and not said(other, "seat:1", "own-card")
    assert [e["params"]["card"] for e in said(own, "table", "token")][-2:] == ["oni:card-swamp", "oni:card-forest"]
    assert _shape(own) == _shape(other)  # before the settle, "dam" was declared on its scan
    [declared] = of(own, "declare")
    assert declared["cards"] == ["keiichi", "bat", "forest"] and of(other, "declare")[0]["cards"] == declared["cards"]
    forest = own_lines[-2]["t"]
    named = [e for e in of(own, "heard") if e["timer"] == "settle"][-1]  # the one forest started
    assert named["at"] > forest and declared["t"] == pytest.approx(named["at"] + SETTLE)  # after heard, on no scan
    rng = random.Random(1)
    guesses = [oni_declarer_card_by_third_token(Watched.of(lines, log), log, rng)
               for lines, log in ((own_lines, own), (other_lines, other))]
    assert [len(g) for g in guesses] == [1, 1] and guesses[0][0].hit and not guesses[1][0].hit


def test_a_token_taken_back_in_the_settle_stops_the_declaration():
    s = Script().deal()
    s.field("oni:token-keiichi").field("oni:token-bat").field("oni:token-dam")
    s.field("oni:token-bat", removed=True).wait(SETTLE + 1).hand(2, "cmd:raise")
    log = run_script(s.lines)
    assert not of(log, "declare") and said(log, "table", "token")


def test_an_own_card_taken_back_after_a_valid_third_keeps_the_declaration_coming():
    s = Script().deal()
    s.field("oni:token-keiichi").field("oni:token-bat").field("oni:token-swamp")  # seat 1's own place
    s.field("oni:token-forest").field("oni:token-swamp", removed=True)  # a valid place, then the own one off
    s.wait(SETTLE + 1).hand(2, "cmd:raise")
    log = run_script(s.lines)
    assert of(log, "declare")[0]["cards"] == ["keiichi", "bat", "forest"]


def _quick(third: str) -> list:
    """As `_turn`, but the third token goes back and forest down at once: the own card's
    refusal is still playing in seat 1's earphone when forest is named."""
    s = Script().deal()
    s.field("oni:token-keiichi").field("oni:token-bat").field(f"oni:token-{third}")
    s.field(f"oni:token-{third}", removed=True, dt=0.3).field("oni:token-forest", dt=0.3)
    s.wait(SETTLE + 10).hand(2, "cmd:raise")
    return run_script(s.lines)


def test_the_refusal_still_playing_in_an_earphone_does_not_move_the_declaration():
    own, other = _quick("swamp"), _quick("dam")  # "swamp." and "dam ruins." take as long in the model
    refused = said(own, "seat:1", "own-card")[0]
    forest = said(own, "table", "token")[-1]
    assert forest["t"] < refused["t"] + modelled_seconds(refused["text"])  # the earphone is still busy
    assert _shape(own) == _shape(other)
