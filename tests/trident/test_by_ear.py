"""Everything a sighted player sees is heard, and nothing secret is."""
from __future__ import annotations

import gc
import weakref

import pytest

from kikimimi.table.engine import Table, public_view
from kikimimi.contract.script import Header
from kikimimi_games.trident import TridentGame
from kikimimi_games.trident.machine import PHASES

from .helpers import Script

SUITS = ("heart", "diamond", "spade", "clover", "ハート", "ダイヤ", "スペード", "クローバー")


def spoken(r, line, to="table"):
    return [e for e in r.at(line) if e["type"] == "say" and e["to"] == to]


def texts(r, line, to="table"):
    return [e["text"] for e in spoken(r, line, to)]


@pytest.mark.parametrize("lang,words", [("en", "Seat 1 draws."), ("ja", "1番がコマを引きました。")])
def test_a_turn_draw_is_announced_without_the_piece(lang, words):
    s = Script(lang=lang).start().hand(1, "heart-7")
    r = s.run()
    assert words in texts(r, s.line)
    assert not [t for t in texts(r, s.line) if "7" in t or "heart" in t.lower()]


def test_a_piece_straight_from_the_basket_to_the_field_is_a_draw_then_a_play():
    s = Script().start().field("heart-7")
    r = s.run()
    assert [e["key"] for e in spoken(r, s.line)][:2] == ["draws", "field-piece"]


@pytest.mark.parametrize("lang,words", [("en", "Seat 2 takes 2."), ("ja", "2番が攻撃を受けて、2個取ります。")])
def test_an_attack_taken_by_a_pass_is_announced_with_its_count(lang, words):
    s = Script(lang=lang).start().field("draw-2-1").cmd(2, "pass")
    r = s.run()
    assert words in texts(r, s.line) and r.snap["owed"][2] == 2 and r.snap["turn"] == 3


@pytest.mark.parametrize("lang,takes,paid", [
    ("en", "Seat 2 takes 2.", "Seat 2 has drawn all they owed."),
    ("ja", "2番が攻撃を受けて、2個取ります。", "2番、引く分を取り終えました。"),
])
def test_an_attack_taken_by_a_draw_is_announced_then_the_debt_paid(lang, takes, paid):
    s = Script(lang=lang).start().field("draw-2-1").hand(2, "heart-7")
    r = s.run()
    assert takes in texts(r, s.line) and "draws" not in [e["key"] for e in spoken(r, s.line)]
    s.hand(2, "heart-6")
    r = s.run()
    assert texts(r, s.line) == [paid]


@pytest.mark.parametrize("lang,table_says", [
    ("en", "Seat 2: wrong piece. Take it back and draw 4."),
    ("ja", "2番、間違いです。コマを戻して、4個取ってください。"),
])
def test_a_wrong_piece_under_an_attack_says_the_same_count_on_the_speaker_and_in_the_ear(lang, table_says):
    s = Script(lang=lang).start().field("draw-2-1").field("diamond-1")  # seat 2 answers a draw-2 with a basic
    r = s.run()
    assert table_says in texts(r, s.line)
    [more] = [e for e in spoken(r, s.line, "seat:2") if e["key"] == "draw-more"]  # once, with the same count
    assert more["params"] == {"count": 4} and "4" in more["text"]
    if lang == "en":
        assert more["text"] == "Draw 4 more."
    assert r.snap["owed"][2] == 4 and r.snap["pending"] == 0


@pytest.mark.parametrize("lang,words", [("en", "It is still seat 1's turn."), ("ja", "引き続き1番の番です。")])
def test_an_out_of_turn_penalty_says_the_turn_stays(lang, words):
    s = Script(lang=lang).start().field("diamond-1")  # seat 2 plays on seat 1's turn
    r = s.run()
    said = texts(r, s.line)
    assert said[-1] == words and r.snap["turn"] == 1
    assert [e["key"] for e in spoken(r, s.line)] == ["wrong-piece-draws", "still-turn"]


def test_the_public_penalty_never_says_why():
    s = Script().start().field("change-spade-1").field("diamond-1")  # wrong suit
    r = s.run()
    [pen] = r.of("penalty", s.line)
    assert "why" not in pen and pen["draw"] == 2
    [why] = r.of("penalty-reason", s.line)
    assert why["why"] == "wrong-suit" and why["private"] == "seat:2"
    public = public_view(r.log)
    assert not [e for e in public if "wrong-suit" in str(e)]
    reasons = {"wrong-out-of-turn", "wrong-wrong-suit", "wrong-not-an-answer", "wrong-non-basic-last"}
    assert not [e for e in public if e["type"] == "say" and e["key"] in reasons]


def test_unicode_digits_in_console_seats_are_one_line_refusals():
    s = Script().start().console("penalty ²").console("hint ²").console("declare pass ３")
    r = s.run()  # Run asserts no internal error
    errors = r.of("error")
    assert len(errors) == 3 and all("\n" not in e["message"] for e in errors)
    assert not r.of("penalty")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hint_speaks_what_a_sighted_player_sees_into_the_asking_ear_only(lang):
    s = Script(lang=lang).start().field("draw-2-1").cmd(3, "hint")
    r = s.run()
    assert not spoken(r, s.line) and not spoken(r, s.line, "seat:1")
    keys = [e["key"] for e in spoken(r, s.line, "seat:3")]
    assert keys == ["now-turn", "pending", "seat-pieces", "seat-pieces", "seat-pieces", "basket-count"]
    said = texts(r, s.line, "seat:3")
    assert ("Seat 1: 4 pieces." if lang == "en" else "1番、持ちコマ4個。") in said
    assert ("Basket: 38 pieces." if lang == "en" else "かごのコマは38個。") in said
    assert not [t for t in said if any(w in t.lower() for w in SUITS)]  # never the suit
    assert r.of("hint", s.line)[0]["private"] == "seat:3"


def test_hint_tells_debts_and_agreements_and_never_the_suit():
    s = Script().start().field("change-spade-1").field("diamond-1").cmd(1, "agree").console("hint 1")
    r = s.run()
    said = texts(r, s.line, "seat:1")
    assert "It is seat 3's turn." in said and "No attack is waiting." in said
    assert "Seat 2: 5 pieces, 2 still to draw." in said and "1 of 3 have forgotten the suit." in said
    assert not [e for e in r.at(s.line) if e["type"] == "say" and "suit" in (e.get("params") or {})]


@pytest.mark.parametrize("lang,words", [
    ("en", "Finish the deal first: 5 pieces each. Still short: seat 2, 3."),
    ("ja", "先に配り終えてください。一人5個です。まだ足りないのは2、3番です。"),
])
def test_hint_during_the_deal_and_the_deal_short_refusal_name_the_short_seats(lang, words):
    s = Script(lang=lang)
    for name in ("heart-1", "heart-2", "heart-3", "heart-4", "heart-5"):
        s.hand(1, name)
    s.hand(2, "spade-1").cmd(2, "hint")
    r = s.run()
    assert texts(r, s.line, "seat:2")[0] == words
    s.field("spade-2")
    r = s.run()
    assert texts(r, s.line) == [words]


def test_situation_says_whose_turn_and_what_waits_and_never_the_suit():
    s = Script().start().field("draw-2-1")
    game = s.run().game
    [turn, pending] = game.situation()
    assert (turn.fields["key"], turn.fields["params"]) == ("now-turn", {"seat": 2})
    assert (pending.fields["key"], pending.fields["params"]) == ("pending", {"total": 2})
    assert all(e.fields["to"] == "table" for e in game.situation())


@pytest.mark.parametrize("lang,words", [("en", "That tag is not enrolled or not part of this game."),
                                        ("ja", "このタグは登録されていないか、このゲームでは使いません。")])
def test_a_tag_not_in_this_game_has_its_own_phrase(lang, words):
    s = Script(lang=lang).start().field("oni:card-keiichi")
    r = s.run()
    assert texts(r, s.line) == [words]
    assert "unknown" not in words.lower()  # the Trident has real pieces spoken "unknown"


def test_two_hundred_rebuilds_leave_one_game_alive():
    header = Header("trident", 3, {}, "en", {})
    refs = []
    gc.collect()
    before = len(PHASES.machine.models)
    for _ in range(200):  # what an undo or a resume does: a new table, the old one dropped
        table = Table(header)
        table.start()
        table.feed(2, {"t": 1, "reader": "hand", "seat": 1, "tag": "trident:heart-1"})
        refs.append(weakref.ref(table.game))
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 1 and len(PHASES.machine.models) == before == 0
    assert isinstance(refs[-1](), TridentGame) and refs[-1]().state == "dealing"


@pytest.mark.parametrize("lang,words", [("en", "It is seat 2's turn."), ("ja", "2番の番です。")])
def test_an_undo_and_a_reader_back_say_whose_turn_it_is(lang, words):
    from kikimimi.table.engine import ScriptRun
    from kikimimi.contract.script import UNDO

    s = Script(lang=lang).start().field("heart-1").field("diamond-1")  # seat 2 errs: the turn moves to 3
    run = ScriptRun(Header.parse(s.lines[0]))
    for n, line in enumerate(s.lines[1:], start=2):
        run.feed(n, line)
    undo = run.feed(len(s.lines) + 1, {"t": s.t + 1, "console": UNDO})
    said = [e for e in undo if e["type"] == "say"]
    assert [e["key"] for e in said] == ["undone", "now-turn"] and said[-1]["text"] == words
    back = run.feed(len(s.lines) + 2, {"t": s.t + 2, "reader": "hand", "seat": 1, "back": True})
    assert [e["text"] for e in back if e["type"] == "say"][-1] == words
