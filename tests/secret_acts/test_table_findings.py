"""Smaller findings at the table (witch, イントリーゲ, the phrases), each a test."""
from __future__ import annotations

import re
import string

import pytest

from kikimimi.table.engine import Table, public_view, run_script
from kikimimi.contract.phrases import Phrasebook, load_catalogue
from kikimimi.contract.registry import game_names
from kikimimi.testkit.roles_script import Script, of, said
from kikimimi.contract.script import Header, ScriptError
from kikimimi.voice.readings import Readings, load_readings

GAMES = [name for name in game_names() if name != "toy"]
DECK5 = ["witch", "human", "priest", "human", "mirror"]


def witch_day1(lang: str = "en", **options) -> Script:
    options.setdefault("day_acts", "free")  # the counts tested here come at the last ballot
    s = Script("witch", 5, roles=DECK5, **options)
    s.lines[0]["lang"] = lang
    s.deal("witch", DECK5)
    for seat in range(1, 6):
        s.hand(seat, "cmd:ok")
    return s


# -- 闇に笑う魔女 ----------------------------------------------------------------------------
def test_witch_the_count_speaks_the_totals_after_the_ballots():
    log = witch_day1().votes([(1, 2), (2, 1), (3, 1), (4, 1), (5, 2)]).run()
    totals = [e["text"] for e in said(log, "total", "table")]
    assert totals == ["Seat 1: 3 votes.", "Seat 2: 2 votes."]
    assert of(log, "tally")[0]["totals"] == {"1": 3, "2": 2}


def test_witch_one_vote_is_one_vote():
    log = witch_day1().votes([(1, 2), (2, 1), (3, 1), (4, 1), (5, 1)]).run()
    assert "Seat 2: 1 vote." in [e["text"] for e in said(log, "total", "table")]


def test_witch_a_lot_is_said_to_be_a_lot():
    s = witch_day1().votes([(1, 2), (2, 1), (3, 1), (4, 2), (5, 3)])  # 1: 2, 2: 2 -> revote
    s.votes([(1, 2), (2, 1), (3, 1), (4, 2), (5, 3)])  # tied again, and over both rounds too
    log = s.run()
    lot = said(log, "decided-by-lot", "table")
    assert len(lot) == 1 and lot[0]["text"].startswith("A tie: the lot chose seat ")
    out = of(log, "out", when="day")[0]["seat"]
    assert lot[0]["params"]["seat"] == out


@pytest.mark.parametrize("minutes,text", [(600, "The day has 10 hours."), (630, "The day has 630 minutes."),
                                          (60, "The day has 1 hour.")])
def test_witch_the_dawn_line_follows_day_minutes(minutes, text):
    log = witch_day1(day_minutes=minutes).run()
    dawn = [e for e in log if e["type"] == "say" and e["key"] in ("day", "day-in-minutes")]
    assert dawn and dawn[0]["text"].endswith(text)


def test_witch_a_stopped_game_is_said_to_be_stopped_and_no_day_zero():
    s = Script("witch", 5, roles=DECK5)
    s.lines[0]["lang"] = "ja"
    s.deal("witch", DECK5).console("hint 1").console("stop")
    log = s.run()
    texts = [e["text"] for e in log if e["type"] == "say"]
    assert "ゲームは中断されました。勝者はいません。" in texts
    assert not [t for t in texts if "0日目" in t or "なし、中断の勝利" in t]


def test_witch_every_result_has_its_reason_spoken():
    log = witch_day1().votes([(1, 2), (2, 1), (3, 1), (4, 1), (5, 1)]).run()  # the only witch out
    over = of(log, "game-over")[0]
    assert over["winner"] == "islanders"
    assert said(log, "why-islanders", "table")


def test_witch_an_armed_advisory_survives_a_refused_target():
    log = witch_day1().hand(2, "cmd:advise").hand(2, "seat:2").hand(2, "seat:3").run()
    assert said(log, "not-on-island", "seat:2")
    assert [(e["seat"], e["target"]) for e in of(log, "advise")] == [(2, 3)]


# -- イントリーゲ -------------------------------------------------------------------------
def test_intrigue_the_first_player_is_an_option():
    log = run_script([{"game": "intrigue", "players": 4, "options": {"first": 3}}])
    assert [e["seat"] for e in log if e["type"] == "turn"] == [3]
    rounds = [e for e in run_script([{"game": "intrigue", "players": 4, "options": {"first": 3}},
                                     *({"t": n, "console": "stop"} for n in (1,))]) if e["type"] == "round"]
    assert [e["round"] for e in rounds] == [1]
    with pytest.raises(ScriptError, match="first must be a seat 1-4"):  # one line, through the engine
        Table(Header("intrigue", 4, {"first": 5}))


# -- the phrases ----------------------------------------------------------------------------
COUNTED = "pieces points cards advisors votes minutes hours".split()


@pytest.mark.parametrize("game", GAMES)
def test_no_phrase_says_one_of_a_plural(game):
    """"1 pieces", "1 points": a count of one is said in the singular (a catalogue's `[one]`)."""
    book = Phrasebook("en", ("core", game))
    slips = []
    for key, template in book.phrases.items():
        names = [n for _, n, _, _ in string.Formatter().parse(template) if n]
        for name in names:
            if name in ("role", "seat", "phase", "team", "edition"):  # words, never a count
                continue
            params = dict.fromkeys(names, 2)
            params[name] = 1
            text = book.render_uncached(key, params)
            counts = re.search(r"\{%s\} (%s)\b" % (name, "|".join(COUNTED)), template)
            if counts and re.search(r"\b1 (%s)\b" % "|".join(COUNTED), text):
                slips.append((key, text))
    assert not slips


@pytest.mark.parametrize("catalogue", [*GAMES, "core", "evening", "records"])
def test_japanese_has_one_word_for_each_reader(catalogue):
    """手リーダ is heard テリーダ: the readers are 手元のリーダー and 場のリーダー, everywhere."""
    phrases, names = load_catalogue(catalogue, "ja")
    for key, text in {**phrases, **names}.items():
        assert "手リーダ" not in text and "場リーダ" not in text, (key, text)
        assert not re.search(r"リーダ(?!ー)", text), (key, text)
        assert "手元リーダー" not in text and "場リーダー" not in text, (key, text)


def test_the_client_is_read_irainin():
    assert Readings(load_readings("ja"))("あなたの依頼人は3番です。") == "あなたのイライニンは3番です。"


def test_a_reader_lost_is_said_in_the_one_word():
    log = run_script([{"game": "trident", "players": 3, "lang": "ja"},
                      {"t": 1, "reader": "hand", "seat": 2, "lost": True}])
    assert [e["text"] for e in log if e.get("key") == "reader-lost"] == ["2番の手元のリーダーが応答しません。"]


def test_intrigue_every_round_begins_with_the_first_player():
    from kikimimi.design.sim import play

    _, log = play("intrigue", 2, 4, {"first": 3})
    marks = [(e["type"], e.get("seat") or e.get("round")) for e in log if e["type"] in ("round", "turn")]
    after_round = [marks[i + 1] for i, (kind, _) in enumerate(marks[:-1]) if kind == "round"]
    assert len(after_round) >= 2 and all(m == ("turn", 3) for m in after_round)
    assert any(e["type"] == "game-over" for e in log)


# -- 鬼探し -------------------------------------------------------------------------------
ONI = {1: ["mion", "tofu", "swamp"], 2: ["rena", "nata", "dam"], 3: ["keiichi", "kugi", "phonebox"],
       4: ["satoko", "kame", "roadside"], 5: ["rika", "bat", "forest"]}


def oni_declared() -> list[dict]:
    lines: list[dict] = [{"game": "onisagashi", "players": 5, "lang": "en"}]
    for seat, cards in ONI.items():
        lines += [{"t": len(lines), "reader": "hand", "seat": seat, "tag": f"oni:card-{c}"} for c in cards]
    lines += [{"t": 50 + n, "reader": "field", "tag": f"oni:token-{c}"} for n, c in enumerate(("rena", "bat", "dam"))]
    return lines + [{"t": 53, "console": "next"}]  # the referee calls the settled declaration


def test_oni_the_raise_is_invited_after_a_declaration():
    log = run_script(oni_declared())
    keys = [e["key"] for e in log if e["type"] == "say" and e["to"] == "table"]
    assert keys[keys.index("declare"):][:3] == ["declare", "have", "raise-invite"]


def test_oni_hint_repeats_the_rounds_declarations():
    lines = oni_declared() + [{"t": 60, "reader": "hand", "seat": 4, "tag": "cmd:hint"}]
    log = run_script(lines)
    heard = [e["text"] for e in log if e["in"] == len(lines) and e.get("to") == "seat:4"]
    spoken = [e["text"] for e in log if e["type"] == "say" and e["to"] == "table" and e["key"] in ("declare", "have")]
    assert spoken and all(text in heard for text in spoken)


# -- undo --------------------------------------------------------------------------------
@pytest.mark.parametrize("act", [{"reader": "hand", "seat": 2, "tag": "seat:4"}, {"console": "scan 2 seat:4"}])
def test_an_undone_act_is_told_to_its_owner_and_only_to_it(act):
    s = witch_day1()
    s.add(act)
    s.console("undo")
    log = s.run()
    undo_line = len(s.lines)
    told = [e for e in log if e["in"] == undo_line and e["type"] == "say"]
    assert [(e["to"], e["key"]) for e in told if e["key"].startswith("undone")] == \
        [("table", "undone"), ("seat:2", "undone-yours")]
    assert "seat:4" not in str([e for e in told if e["to"] == "table"])


def test_undo_takes_back_a_game_act_not_a_reader_lost_or_back_line():
    s = witch_day1().hand(2, "seat:4")
    s.add({"reader": "hand", "seat": 3, "lost": True})
    s.add({"reader": "hand", "seat": 3, "back": True})
    s.console("undo")
    log = s.run()
    undo = of(log, "undo")[0]
    assert undo["input"].get("tag") == "seat:4"


def test_witch_a_field_reader_outage_is_not_charged_to_the_speaker():
    def speech(lost: bool) -> dict:
        s = witch_day1()
        s.field("seat:2", dt=1.0)
        if lost:
            s.add({"reader": "field", "lost": True}, 5.0)
            s.add({"reader": "field", "back": True}, 60.0)
            s.field("seat:2", removed=True, dt=5.0)
        else:
            s.field("seat:2", removed=True, dt=10.0)
        return of(s.run(), "speech", seat=2)[0]

    plain, outage = speech(False), speech(True)
    assert plain["minutes"] == outage["minutes"] == 10  # ten seconds at 8 characters a second, 8 a minute


def test_witch_only_the_last_speech_of_the_day_overruns_the_allowance():
    s = witch_day1(allowance=3, island_bonus=0).console("speak 2 " + "a" * 16).console("speak 2 " + "a" * 16)  # 2 + 2 of 3
    s.console("speak 2 " + "a" * 8)
    log = s.run()
    speeches = of(log, "speech", seat=2)
    assert [e["minutes"] for e in speeches] == [2, 2]  # the second ran 1 over: it was the last
    assert said(log, "allowance-spent", "seat:2")


def test_witch_no_public_event_follows_from_a_private_choice():
    """Silence, a power, a vote that does not complete the count: the scan itself is
    followed by nothing public, so the moment gives nobody away (the hour lost to
    silence comes on a timer, a while later)."""
    s = witch_day1()
    private = []
    for seat, tag in ((1, "cmd:silence"), (2, "cmd:silence"), (3, "cmd:exorcise"), (3, "seat:1"),
                      (4, "cmd:silence"), (2, "cmd:advise"), (2, "seat:5"), (5, "seat:1")):
        s.hand(seat, tag)
        private.append(len(s.lines))
    log = s.wait(60).console("hint 1").run()
    assert of(log, "silence")  # the majority was reached: the hour went, on its timer
    from kikimimi.table.public import BOOKKEEPING

    raw = [e for e in log if e["in"] in private and e["type"] not in BOOKKEEPING
           and (e.get("to") == "table" or "private" not in e and e["type"] != "say")]
    assert raw == []
    assert not [e for e in public_view(log) if e["type"] in BOOKKEEPING]
