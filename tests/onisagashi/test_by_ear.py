"""鬼探し by ear and its private refusals."""
from __future__ import annotations

import gc
import weakref

import pytest

from kikimimi.table.engine import Table, public_view
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.script import Header
from kikimimi_games.onisagashi import OnisagashiGame
from kikimimi_games.onisagashi.machine import PHASES

from .test_game import Script, of, said


def scripted(lang="en", **options):
    s = Script(**options)
    s.lines[0]["lang"] = lang
    return s


def name(lang, card):
    return Phrasebook(lang, ("onisagashi",)).name(f"oni:card-{card}")


@pytest.mark.parametrize("lang,stop", [("en", "."), ("ja", "。")])
def test_every_declaration_token_on_the_field_is_named(lang, stop):
    log = scripted(lang).deal().declare("keiichi", "bat", "forest").run()
    tokens = said(log, "table", "token")
    # the third too, then the declaration (an own third token is named, then taken back)
    assert [e["text"] for e in tokens] == [name(lang, c) + stop for c in ("keiichi", "bat", "forest")]
    assert name("en", "keiichi") == "Keiichi Maebara"
    assert said(log, "table", "declare")


def test_a_token_put_back_on_the_field_is_named_again():
    log = Script().deal().declare("keiichi", "keiichi").run()
    assert len(said(log, "table", "token")) == 2 and not of(log, "error")


@pytest.mark.parametrize("lang,words", [
    ("en", "The deal has not begun: wait until the referee types deal."),
    ("ja", "まだ配っていません。審判がディールを入力するまでお待ちください。"),
])
def test_a_card_scanned_before_the_deal_says_so(lang, words):
    s = scripted(lang, target=2).deal().declare("keiichi", "bat", "forest").console("raise 4").console("next")
    for c in ("shion", "kuwa", "riverbank"):
        s.hand(4, f"oni:token-{c}")
    s.hand(2, "oni:card-keiichi")  # the round is over; the referee has not typed deal
    log = s.run()
    [ev] = [e for e in log if e["in"] == len(s.lines) and e["type"] == "say"]
    assert ev["to"] == "seat:2" and ev["text"] == words
    assert of(log, "error")[-1]["private"] == "seat:2"


def test_a_card_not_in_hand_after_the_deal_says_the_deal_is_over():
    log = Script().deal().hand(2, "oni:card-keiichi").run()
    assert said(log, "seat:2", "deal-over") and not said(log, "table", "deal-over")


@pytest.mark.parametrize("lang,words", [
    ("en", "Finish the deal of round 1 first. Still short: seat 3, 4, 5."),
    ("ja", "先に第1ラウンドを配り終えてください。まだ足りないのは3、4、5番です。"),
])
def test_finish_the_deal_first_names_the_short_seats(lang, words):
    s = scripted(lang)
    for seat, cards in ((1, ["mion", "tofu", "swamp"]), (2, ["rena", "nata", "dam"])):
        for c in cards:
            s.hand(seat, f"oni:card-{c}")
    s.declare("keiichi").hand(3, "cmd:raise")
    log = s.run()
    assert said(log, "table", "deal-short")[0]["text"] == words
    assert said(log, "seat:3", "deal-short")[0]["text"] == words


def test_a_card_on_the_field_is_refused_without_its_name_in_public():
    log = Script().deal().field("oni:card-mion").run()
    err = of(log, "error")[0]
    assert err["private"] == "referee" and "mion" in err["message"]
    assert said(log, "table", "field-tokens-only")
    assert not [e for e in public_view(log) if "mion" in str(e).lower() or "Mion" in str(e)]


def test_unicode_digits_at_the_console_are_one_line_refusals():
    log = Script().deal().declare("keiichi", "bat", "forest").console("raise ²").console("hint ²").run()
    errors = of(log, "error")
    assert len(errors) == 2 and not [e for e in errors if "internal" in e["message"]]
    assert not of(log, "raise")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hint_speaks_the_table_then_the_seats_own_assistant(lang):
    s = scripted(lang, assistant={"1": "full", "2": "off"}).deal().declare("keiichi", "bat")
    s.hand(1, "cmd:hint").console("hint 2")
    log = s.run()
    asked = len(s.lines) - 1  # the line of seat 1's HINT; the console's is the next
    keys1 = [e["key"] for e in said(log, "seat:1") if e["in"] == asked]
    assert keys1[:3] == ["round-now", "now-turn", "tokens-on-field"]
    assert keys1.count("seat-cards") == 5 and keys1.count("score") == 5 and keys1[-1] == "hint"
    keys2 = [e["key"] for e in said(log, "seat:2") if e["in"] == asked + 1]
    assert keys2[-1] == "no-hint" and "hint" not in keys2
    tokens = said(log, "seat:1", "tokens-on-field")[0]["text"]
    assert tokens == ("On the field: Keiichi Maebara, metal bat." if lang == "en"
                      else f"場にあるのは{name('ja', 'keiichi')}、{name('ja', 'bat')}。")
    assert not [e for e in log if e["type"] == "say" and e["to"] == "table" and e["in"] >= asked]


def test_situation_follows_the_phase():
    s = Script().deal().declare("keiichi", "bat", "forest")
    header = Header.parse(s.lines[0])
    table = Table(header)
    table.start()
    keys = []
    for n, line in enumerate(s.lines[1:], start=2):
        table.feed(n, line)
        keys.append([e.fields["key"] for e in table.game.situation()])
    assert keys[0] == ["deal-short"] and keys[14] == ["now-turn"] and keys[-1] == ["window-open"]
    assert keys[-2] == ["now-turn", "tokens-on-field"]


def test_two_hundred_rebuilds_leave_one_game_alive():
    header = Header("onisagashi", 5, {}, "en", {})
    refs = []
    for _ in range(200):
        table = Table(header)
        table.start()
        table.feed(2, {"t": 1, "reader": "hand", "seat": 1, "tag": "oni:card-mion"})
        refs.append(weakref.ref(table.game))
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 1 and not PHASES.machine.models
    assert isinstance(refs[-1](), OnisagashiGame)
