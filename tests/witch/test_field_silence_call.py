"""A silence call asked for on the field reader (docs/witch.md, "asking for a call"): a table
with no screen and no referee can still call silence.  SILENCE on the table's public reader
opens the call for everyone, within the referee's limits (one at a time, only while the talk
is on), and the speaker says nothing but that a call is open."""
from __future__ import annotations

from kikimimi.table.public import public_view
from kikimimi.testkit.roles_script import of, said

from .test_same_motions import ALL, day1


def spoken(log):
    return [(e["to"], e["key"], e.get("params")) for e in log if e["type"] == "say"]


def test_silence_on_the_field_opens_a_call_the_seats_answer():
    s = day1().field("cmd:silence").field("cmd:silence", removed=True)
    for seat in ALL:
        s.hand(seat, "cmd:silence" if seat <= 5 else "cmd:pass")
    log = s.run()
    assert of(log, "silence-call", open=True, by="field") and said(log, "silence-call", "table")
    (silence,) = of(log, "silence")
    assert silence["day_left"] == 660 and not of(log, "error")  # the tag lifted off the field: no line


def test_the_speaker_says_the_same_whoever_asked():
    def answered(s):
        for seat in ALL:
            s.hand(seat, "cmd:pass")
        return s.run()

    by_field, by_referee = answered(day1().field("cmd:silence")), answered(day1().console("silencecall"))
    assert spoken(by_field) == spoken(by_referee)
    assert [{k: v for k, v in e.items() if k not in ("by", "t")} for e in public_view(by_field)] == \
        [{k: v for k, v in e.items() if k not in ("by", "t")} for e in public_view(by_referee)]


def test_asking_is_limited_as_the_referees_call_is_and_answered_aloud():
    log = day1().field("cmd:silence").field("cmd:silence").run()
    assert len(of(log, "silence-call", open=True)) == 1 and said(log, "silence-ask-open", "table")
    log = day1().console("silencecall").field("cmd:silence").run()
    assert len(of(log, "silence-call", open=True)) == 1 and said(log, "silence-ask-open", "table")
    log = day1().console("next", dt=5).field("cmd:silence", dt=3).run()
    assert not of(log, "silence-call") and said(log, "silence-ask-not-now", "table")
    log = day1(day_acts="acts").field("cmd:silence").run()
    assert not of(log, "silence-call") and said(log, "silence-ask-free", "table")


def test_before_the_first_day_silence_on_the_field_opens_nothing():
    from .table import table
    log = table(day_acts="together").field("cmd:silence").run()
    assert not of(log, "silence-call") and said(log, "silence-ask-not-now", "table")


def test_another_tag_on_the_field_is_still_of_no_use():
    log = day1().field("cmd:pass").run()
    assert not of(log, "silence-call") and said(log, "field-seats-or-silence", "table")
    assert not said(log, "field-seats-only")  # "only seat tokens" would be a wrong rule at this table


def test_where_silence_is_scanned_on_ones_own_reader_the_field_takes_seat_tokens_only():
    log = day1(day_acts="acts").field("cmd:pass").run()
    assert said(log, "field-seats-only", "table") and not said(log, "field-seats-or-silence")


def test_every_ask_line_is_in_both_languages():
    for lang in ("en", "ja"):
        log = day1(lang=lang).field("cmd:silence").field("cmd:silence").run()
        (line,) = said(log, "silence-ask-open")
        assert line.get("text") and ("already" in line["text"] if lang == "en" else "始まって" in line["text"])


def test_ear_bots_at_a_table_with_no_screen_ask_on_the_field():
    from kikimimi.design.sim import play
    script, log = play("witch", 3, 8, {"day_acts": "together"}, "ear")
    asks = [line for line in script[1:] if line.get("reader") == "field" and line.get("tag") == "cmd:silence"]
    assert asks and "seat" not in asks[0]  # the table asks: no seat, so no role, behind it
    assert not [line for line in script[1:] if line.get("console") == "silencecall"]
    assert of(log, "silence-call", open=True, by="field") and of(log, "game-over")
