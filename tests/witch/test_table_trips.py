"""A referee's `next` typed just after the last ballot set off the count
was applied to the tied revote and wiped it."""
from __future__ import annotations

from kikimimi.testkit.roles_script import of, said
from kikimimi.design.sim import play

from .table import day1, vote


def _tied_revote(dt_next: float):
    s = day1()
    s.console("next", dt=5)  # the talk is over: to the ballots
    vote(s, {1: 2, 2: 1, 3: 2, 4: 1, 5: 2, 6: 1, 7: 3, 8: 4})  # 3 and 3: a tie, the revote opens
    return s.console("next", dt=dt_next)


def test_next_just_after_the_count_is_refused_to_the_referee_and_the_revote_stands():
    log = _tied_revote(0.4).run()
    assert said(log, "revote") and not said(log, "nobody-out")
    refused = of(log, "error")[-1]
    assert refused["private"] == "referee" and refused["message"].startswith("next: a scan moved the game on")


def test_next_after_the_settle_counts_as_before():
    log = _tied_revote(3.0).run()
    assert said(log, "revote") and said(log, "nobody-out")


def test_the_silence_hour_does_not_carry_the_deciding_scans_fraction():
    """45.52 -> 75.52 named the scan: the delay is drawn to the hundredth."""
    fractions = []
    for offset in (0.52, 0.43, 0.17, 0.89):
        s = day1()
        for seat in range(1, 5):
            s.hand(seat, "cmd:silence")
        s.hand(5, "cmd:silence", dt=1 + offset)
        s.wait(50).hand(1, "cmd:hint")
        log = s.run()
        (silence,) = of(log, "silence")
        chosen = said(log, "silence-noted", "seat:5")[0]["t"]
        assert 15 <= silence["t"] - chosen <= 45
        fractions.append(round((silence["t"] - chosen) % 1, 2))
    assert all(f not in (0.0, 1.0) for f in fractions)


def test_lifting_a_refused_role_card_off_the_field_says_nothing_more():
    s = day1().field("witch:role-human-1").field("witch:role-human-1", removed=True)
    log = s.run()
    assert len(said(log, "field-seats-only")) == 1


def test_the_bots_chatter_is_said_in_the_tables_language():
    """"8番。I trust seat 5" was heard at a Japanese table."""
    from kikimimi.contract.phrases import Phrasebook

    book = Phrasebook("ja", ("core", "witch"))
    assert book.render("speech", {"seat": 8, "text": "I trust seat 5", "said": "I trust seat 5"}) == "8番。5番を信じます。"
    assert book.render("speech", {"seat": 2, "said": "hmm, who could it be"}) == "2番。うーん、誰だろう。"
    log = play("witch", 1, 8, {}, "ear", lang="ja")[1]
    spoken = [e["text"] for e in log if e["type"] == "say" and e["to"] == "table"
              and (e["key"] == "speech" or e["key"].startswith("claim-"))]
    assert spoken and not [t for t in spoken if any(w in t for w in ("trust", "hmm", "CO ", "FOUND", "VOTE"))]
    assert any(e["key"] == "claim-found" for e in log if e["type"] == "say")  # claims said as sentences
