"""One test per rule and ruling of docs/rules/trident.md, driven by table scripts through the engine."""
from __future__ import annotations

import pytest

from kikimimi.table.engine import public_view
from kikimimi.contract.script import ScriptError
from kikimimi_games.trident import PIECES
from kikimimi_games.trident.pieces import BY_TAG, Kind

from .helpers import DEAL, Script, T


# -- Pieces -------------------------------------------------------------------
def test_pieces_54_with_identities_kinds_and_competition_points():
    assert len(PIECES) == 54 == len({p.tag for p in PIECES})
    counts = {k: sum(p.kind is k for p in PIECES) for k in Kind}
    assert counts == {Kind.BASIC: 32, Kind.CHANGE: 12, Kind.ATTACK: 5, Kind.SPECIAL1: 1, Kind.SPECIAL2: 4}
    pts = {t: BY_TAG[T(t)].points for t in ("heart-1", "diamond-1", "spade-1", "clover-1", "change-heart-1",
                                           "change-draw-4", "unknown-2")}
    assert pts == {"heart-1": 1, "diamond-1": 2, "spade-1": 3, "clover-1": 5, "change-heart-1": 10,
                   "change-draw-4": 100, "unknown-2": 10}


def test_ruling_draw2_is_30_and_draw4_is_50_points():
    assert BY_TAG[T("draw-2-2")].points == 30 and BY_TAG[T("draw-4-3")].points == 50


def test_ruling_unknown_says_only_unknown_on_hand_and_its_effect_on_the_field():
    s = Script().start(hands={**DEAL, 1: ["unknown-4", "heart-1", "heart-2", "heart-3", "heart-4"],
                              2: ["diamond-1", "diamond-2", "diamond-3", "draw-4-1", "unknown-3"]})
    s.hand(1, "unknown-4"); scan = s.line
    s.field("unknown-4"); play = s.line
    r = s.run()
    [said] = r.of("say", scan)
    assert said["to"] == "seat:1" and said["text"] == "unknown"
    assert "turn around left" in [e for e in r.of("say", play) if e["to"] == "table"][0]["text"]


# -- Set-up ---------------------------------------------------------------------
def test_deal_each_player_scans_five_pieces_then_the_first_player_opens():
    r = Script().deal().run()
    assert {s: len(h) for s, h in r.snap["hands"].items()} == {1: 5, 2: 5, 3: 5}
    assert len(r.snap["basket"]) == 39 and r.snap["phase"] == "opening"
    assert r.log[-1]["key"] == "opening-draw" and r.log[-1]["params"] == {"seat": 1}


def test_deal_a_sixth_piece_is_refused_in_that_earphone():
    s = Script().deal().hand(1, "spade-8")
    r = s.run()
    assert r.of("error", s.line) and r.of("say", s.line)[0]["to"] == "seat:1"
    assert len(r.snap["hands"][1]) == 5 and T("spade-8") in r.snap["basket"]


def test_ruling_two_to_four_players_allowed():
    for n in (2, 4):
        assert Script(players=n).deal({s: [f"spade-{s}"] * 0 or [] for s in range(1, n + 1)}).run().snap["phase"] == "dealing"
    with pytest.raises(ScriptError):
        Script(players=5).run()


def test_first_player_option_opens_and_takes_the_first_turn():
    r = Script(first=2).start().run()
    assert r.of("play")[0]["seat"] == 2 and r.of("turn")[-1]["seat"] == 2


# -- Opening ----------------------------------------------------------------------
def test_opening_basic_sets_its_suit_and_first_player_takes_the_turn():
    r = Script().start("spade-8").run()
    assert [e["suit"] for e in r.of("suit")] == ["spade"] and r.snap["turn"] == 1 and r.snap["phase"] == "turn"


def test_opening_change_piece_sets_the_suit_it_names():
    assert Script().start("change-clover-2").run().snap["suit"] == "clover"


def test_opening_attack_or_special_has_no_effect_and_is_redone():
    r = Script().deal().field("draw-4-2").field("unknown-2").field("diamond-8").run()
    assert [e["suit"] for e in r.of("suit")] == ["diamond"]  # unknown-2 (change-spade) did not set spade
    assert r.snap["pending"] == 0 and r.snap["field"] == [T("draw-4-2"), T("unknown-2"), T("diamond-8")]


# -- A turn -------------------------------------------------------------------------
def test_play_basic_of_the_field_suit_passes_the_turn():
    s = Script().start().field("heart-1")
    r = s.run()
    assert r.of("play", s.line)[0] == {**r.of("play", s.line)[0], "seat": 1, "tag": T("heart-1")}
    assert r.snap["turn"] == 2


def test_controller_never_repeats_the_suit_when_a_basic_is_played():
    s = Script().start().field("heart-1")
    r = s.run()
    assert not r.of("suit", s.line) and "suit-set" not in r.keys(s.line)


def test_wrong_piece_wrong_suit_goes_back_draws_two_and_turn_passes():
    s = Script().start().field("change-spade-1").field("diamond-1")  # seat 2: suit is spade now
    r = s.run()
    [pen] = r.of("penalty", s.line)
    assert pen["seat"] == 2 and pen["reason"] == "wrong-piece" and pen["draw"] == 2
    assert "diamond-1" in r.hand(2) and r.snap["owed"][2] == 2 and r.snap["turn"] == 3
    assert T("diamond-1") not in str([e for e in r.at(s.line) if e.get("to") == "table" or e["type"] != "say"])


def test_non_basic_piece_is_legal_any_time_whatever_the_suit():
    r = Script().start().field("draw-2-1").run()
    assert r.snap["pending"] == 2 and not r.of("penalty")


def test_ruling_one_piece_per_turn():
    s = Script().start().field("heart-1").field("heart-2")
    r = s.run()
    assert r.of("penalty", s.line)[0]["seat"] == 1 and r.snap["turn"] == 2 and "heart-2" in r.hand(1)


def test_draw_then_play():
    s = Script().start().hand(1, "heart-7").field("heart-7")
    r = s.run()
    assert r.of("draw", s.line - 1)[0]["private"] == "seat:1" and r.snap["turn"] == 2


def test_draw_then_pass_ends_the_turn():
    r = Script().start().hand(1, "spade-7").cmd(1, "pass").run()
    assert r.of("declare")[0]["what"] == "pass" and r.snap["turn"] == 2 and "spade-7" in r.hand(1)


def test_ruling_may_draw_while_holding_a_legal_piece():
    r = Script().start().hand(1, "heart-7").run()
    assert not r.of("error") and r.snap["phase"] == "drawn"


def test_pass_before_drawing_is_refused():
    s = Script().start().cmd(1, "pass")
    r = s.run()
    assert r.of("error", s.line) and r.snap["turn"] == 1


def test_second_draw_in_a_turn_is_refused_with_reason_to_that_seat():
    s = Script().start().hand(1, "spade-7").hand(1, "spade-6")
    r = s.run()
    assert r.keys(s.line) == r.keys(s.line, to="seat:1") == ["already-drew"]
    assert [e.get("private") for e in r.errors(s.line)] == ["seat:1"]  # its error is that seat's too
    assert not [e for e in public_view(r.log) if e.get("type") in ("error", "say") and e["t"] == r.at(s.line)[0]["t"]]
    assert T("spade-6") in r.snap["basket"]


def idle(s: Script, seat: int, basket_piece: str) -> Script:
    """A seat draws one basket piece and passes."""
    return s.hand(seat, basket_piece).cmd(seat, "pass")


def run_down_seat1(s: Script, hearts: list[str], declare: bool = True) -> Script:
    """Seat 1 plays hearts one per round while seats 2 and 3 draw and pass."""
    spare = iter(f"spade-{i}" for i in range(1, 9))
    for n, h in enumerate(hearts):
        s.field(h)
        if declare and n == len(hearts) - 1:
            s.cmd(1, "trident")
        idle(s, 2, next(spare))
        idle(s, 3, next(spare))
    return s


def test_may_not_go_out_with_a_non_basic_piece():
    hands = {**DEAL, 1: ["change-spade-1", "heart-1", "heart-2", "heart-3", "heart-4"]}
    s = run_down_seat1(Script().start(hands=hands), ["heart-1", "heart-2", "heart-3", "heart-4"])
    s.field("change-spade-1")
    r = s.run()
    assert r.of("penalty-reason", s.line)[0]["why"] == "non-basic-last" and r.hand(1) == ["change-spade-1"]
