"""Lines 闇に笑う魔女 said wrong at a live table: the revote's call said twice, and "Your vote is
unchanged." before any ballot existed."""
from __future__ import annotations

from kikimimi.testkit.roles_script import said

from .test_same_motions import ALL, day1, vote_call


def test_a_revote_at_the_calls_is_called_once():
    s = vote_call(day1(), {1: 7, 2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 7})
    for seat in ALL:  # the last word: 4-4, a tie
        s.hand(seat, f"seat:{ {1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7}[seat]}")
    log = s.run()
    revote = said(log, "revote", "table")[0]
    after = [e["key"] for e in log if e["type"] == "say" and e["to"] == "table" and e["t"] == revote["t"]]
    assert after[after.index("revote"):] == ["revote", "revote-call"]  # no "The day's time is up" again


def test_pass_before_any_ballot_does_not_say_the_vote_is_unchanged():
    s = day1().console("next", dt=5)
    s.hand(1, "cmd:pass").hand(1, "seat:2")
    log = s.run()
    assert said(log, "pass-noted-no-ballot", "seat:1") and not said(log, "pass-noted")
    for lang in ("en", "ja"):  # the line in both languages, with a ballot cast it is the old one
        s = day1(lang=lang).console("next", dt=5)
        log = s.hand(1, "cmd:pass").hand(1, "seat:2").hand(1, "seat:7").hand(1, "cmd:pass").hand(1, "seat:3").run()
        assert said(log, "pass-noted-no-ballot", "seat:1")[0]["text"]
