"""Lines イントリーゲ said wrong at a live table: the hidden dial heard only by moving it, the
garden call before a conflict's, and a chosen advisor scanned again while dispatching."""
from __future__ import annotations

from kikimimi.table.engine import run_script

from .helpers import A, Script
from .test_rules import two_round_game

STEP = 10_000


def said(run, key, to=None):
    return [e for e in run.log if e["type"] == "say" and e["key"] == key and to in (None, e["to"])]


def hidden_offer() -> Script:
    """Seat 1 sends two advisors; seat 2's turn opens with seat 1's hidden offer."""
    return Script(bribes="hidden").send(1, "1-law-1", 2).send(1, "1-finance-1", 3)


def test_hint_during_ones_own_hidden_offer_says_where_the_dial_stands():
    s = hidden_offer()
    start = said(s.run(), "offer-dial", "seat:1")[-1]["params"]["amount"]
    s.cmd(1, "bribe").cmd(1, "hint")
    r = s.run()
    dial = [e for e in r.at(s.line) if e["type"] == "say" and e["key"] in ("offer-raised", "offer-dial-over")]
    assert [(e["to"], e["params"]["amount"]) for e in dial] == [("seat:1", (start + STEP) % (330_000))]
    other = s.cmd(2, "hint").run()  # anyone else's HINT: the board, never the dial
    assert not [e for e in other.at(s.line) if e.get("key") in ("offer-raised", "offer-dial-over")]


def test_after_an_undone_tap_the_bidder_hears_where_the_dial_stands():
    s = hidden_offer()
    start = said(s.run(), "offer-dial", "seat:1")[-1]["params"]["amount"]
    s.cmd(1, "bribe").cmd(1, "bribe").console("undo")
    log = run_script(s.lines)  # the engine a table runs: the undo is its own
    again = [e for e in log if e.get("in") == s.line and e["type"] == "say"
             and e["key"] in ("offer-raised", "offer-dial-over")]
    assert [(e["to"], e["params"]["amount"]) for e in again] == [("seat:1", (start + STEP) % 330_000)]


def test_a_garden_of_one_conflict_hears_the_conflicts_call_alone():
    r = two_round_game().run()
    settle = [e for e in said(r, "settle-conflict") if e["params"]["owner"] == 1][0]
    same = [e["key"] for e in r.log if e["type"] == "say" and e["in"] == settle["in"]]
    assert "settle-conflict" in same and "place-call" not in same


def test_the_chosen_advisor_scanned_again_while_dispatching_is_chosen_again():
    s = Script().scan(1, A("1-law-1")).scan(1, A("1-law-1"))
    r = s.run()
    assert not r.errors(s.line)
    assert [e["to"] for e in r.at(s.line) if e.get("key") == "send-chosen"] == ["seat:1"]
    s.scan(1, A("1-finance-1")).scan(1, "seat:2")  # a change of mind, then the mansion
    r = s.run()
    assert [e["advisor"] for e in r.of("dispatch")] == [A("1-finance-1")]
