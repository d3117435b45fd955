"""Every rule and ruling of docs/rules/intrigue.md, through table scripts.

Cash figures are worked out by hand in the comments beside each assertion
(classic edition: sections pay 10,000 / 20,000 / 30,000 / 50,000 / 100,000,
start 320,000, step 10,000).
"""
from __future__ import annotations

from kikimimi.table.engine import public_view

from .helpers import A, Script

START = 320_000


def two_round_game(**options) -> Script:
    """A whole classic game cut to two rounds (a house rule): every step of a turn, by hand."""
    s = Script(rounds=2, **options)
    # Round 1, seat 1: nothing to hire, no income yet; sends to seats 2 and 3.
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    # Seat 2: seat 1 offers 2 steps = 20,000 (1: 300,000; 2: 340,000); law -> section 5.
    s.offer(1, 2).place(2, "1-law-1", 5)
    s.send(2, "2-law-1", 3).send(2, "2-military-1", 4)
    # Seat 3: offers in the order sent: seat 1 (finance) 10,000 (1: 290,000; 3: 330,000), seat 2 nothing.
    s.offer(1, 1).offer(2, 0).place(3, "2-law-1", 4).place(3, "1-finance-1", 1)
    s.send(3, "3-finance-1", 4).send(3, "3-law-1", 1)
    # Seat 4: seat 2 30,000 (2: 310,000; 4: 350,000), seat 3 10,000 (3: 320,000; 4: 360,000).
    s.offer(2, 3).offer(3, 1).place(4, "2-military-1", 3).place(4, "3-finance-1", 2)
    s.send(4, "4-law-1", 1).send(4, "4-finance-1", 2)
    # Round 2 (the last: no dispatch).  Seat 1 income: law in 2's section 5 (100,000) + finance in
    # 3's section 1 (10,000) = 110,000 -> 400,000.  Garden: 3-law-1, 4-law-1: a conflict of newcomers.
    # Seat 3 offers 20,000 (3: 300,000; 1: 420,000), seat 4 10,000 (4: 350,000; 1: 430,000).
    s.offer(3, 2).offer(4, 1).place(1, "4-law-1", 5)
    # Seat 2 income: law in 3's section 4 (50,000) + military in 4's section 3 (30,000) -> 390,000.
    # Finance from seat 4, no conflict (seat 2 holds law): nothing offered; section 5 is taken.
    s.offer(4, 0).place(2, "4-finance-1", 5).place(2, "4-finance-1", 4)
    # Seat 3 income: finance in 4's section 2 (20,000) -> 320,000; empty garden, no dispatch: turn passes.
    # Seat 4 income: law in 1's section 5 (100,000) + finance in 2's section 4 (50,000) -> 500,000.
    # Final income: 1: 430,000 + 110,000 = 540,000; 2: 390,000 + 80,000 = 470,000;
    # 3: 320,000 + 20,000 = 340,000; 4: 500,000 + 150,000 = 650,000.
    return s


def test_a_whole_game_by_hand():
    r = two_round_game().run()
    over = r.of("game-over")[0]
    assert over["reason"] == "end"
    assert [(e["seat"], e["place"], e["cash"], e["won"]) for e in over["ranking"]] == [
        (4, 1, 650_000, True), (1, 2, 540_000, False), (2, 3, 470_000, False), (3, 4, 340_000, False)]
    # Total cash = start + what the bank paid; bribes only moved cash between seats.
    paid = sum(e["amount"] for e in r.of("income"))
    assert paid == 2 * (110_000 + 80_000 + 20_000 + 150_000)
    assert sum(e["cash"] for e in over["ranking"]) == 4 * START + paid


def test_each_balance_is_whispered_after_every_change():
    s = Script(rounds=2)
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.cmd(1, "bribe").cmd(1, "bribe")
    tapped = s.line
    s.cmd(1, "ok")
    r = s.run()
    assert [e["cash"] for e in r.of("cash", 1)] == [START] * 4  # the start, each seat its own
    assert not r.of("cash", tapped)  # taps are only an offer in the making
    assert [(e["seat"], e["cash"], e["private"]) for e in r.of("cash", s.line)] == [
        (1, 300_000, "seat:1"), (2, 340_000, "seat:2")]  # paid at once, on OK
    said = [(e["to"], e["params"]["cash"]) for e in r.at(s.line) if e["type"] == "say" and e["key"] == "cash"]
    assert said == [("seat:1", 300_000), ("seat:2", 340_000)]


def test_income_is_paid_by_the_bank_for_advisors_employed_elsewhere():
    s = two_round_game()
    r = s.run()
    incomes = [(e["seat"], e["amount"]) for e in r.of("income")]
    # Round 1: nobody is employed yet; round 2: each turn; then the final income of all four.
    assert incomes[:4] == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert incomes[4:8] == [(1, 110_000), (2, 80_000), (3, 20_000), (4, 150_000)]
    assert incomes[8:] == [(1, 110_000), (2, 80_000), (3, 20_000), (4, 150_000)]
    # Seat 4 did not pay for it: the owner of the mansion pays nothing.
    spoken = [e["text"] for e in r.log if e["type"] == "say" and e["key"] == "income"]
    assert "Seat 1 receives 110000 ducats from the bank." in spoken


def test_dispatch_goes_to_two_different_other_mansions():
    s = Script()
    s.scan(1, "seat:2")
    before_advisor = s.line
    s.scan(1, A("1-law-1")).scan(1, "seat:1")
    own = s.line
    s.scan(1, "seat:2")
    first = s.line
    s.scan(1, A("1-law-1"))
    again = s.line
    s.scan(1, A("1-law-2")).scan(1, "seat:2")
    twice = s.line
    s.scan(1, "seat:4")
    r = s.run()
    assert r.keys(before_advisor) == ["choose-advisor-first"]
    assert r.keys(own) == ["not-own-garden", "send-chosen"]  # refused, then asked again (kikimimi.contract.choices)
    assert [(e["seat"], e["advisor"], e["target"]) for e in r.of("dispatch", first)] == [(1, A("1-law-1"), 2)]
    assert r.keys(again) == ["not-in-hand"]
    assert r.keys(twice) == ["different-mansion", "send-chosen"]
    assert [(e["target"]) for e in r.of("dispatch", s.line)] == [4]
    assert r.of("turn", s.line)[0]["seat"] == 2  # the turn passes by itself after the second dispatch
    assert r.snap["gardens"][2] == [A("1-law-1")] and r.snap["gardens"][4] == [A("1-law-2")]


def test_a_seat_that_is_not_in_turn_cannot_dispatch():
    s = Script().scan(2, A("2-law-1")).scan(2, "seat:3")
    r = s.run()
    assert r.keys(s.line) == ["not-now"] and not r.of("dispatch")
    assert r.keys(s.line - 1) == ["piece-advisor"]  # scanning a piece out of turn names it, in the earphone


def test_offers_go_in_the_order_sent_and_each_tap_is_one_step():
    s = Script()
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.offer(1, 0).place(2, "1-law-1", 1).send(2, "2-science-1", 3).send(2, "2-church-1", 4)
    s.cmd(1, "bribe")
    r = s.run()
    assert r.called() == ["1-law-1", "1-finance-1"]  # seat 3's garden: sent by 1, then by 2
    assert r.at(s.line)[-1]["params"]["amount"] == 10_000
    s.cmd(1, "bribe").cmd(1, "bribe").cmd(1, "ok")
    s.cmd(2, "ok")
    r = s.run()
    assert r.called() == ["1-law-1", "1-finance-1", "2-science-1"]
    offers = [(e["seat"], e["advisor"], e["amount"]) for e in r.of("offer")]
    assert offers == [(1, A("1-law-1"), 0), (1, A("1-finance-1"), 30_000), (2, A("2-science-1"), 0)]
    assert r.cash(1) == START - 30_000 and r.cash(3) == START + 30_000


def test_confirming_without_raising_offers_nothing():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 0)
    r = s.run()
    assert r.of("offer", s.line)[0]["amount"] == 0
    assert not r.of("cash", s.line)  # nothing moved
    assert r.keys(s.line, "table") == ["offer-nothing", "place-call"]


def test_a_tap_beyond_the_cash_is_refused_and_the_refusal_is_private():
    s = Script(start_cash=25_000)  # 2 steps of 10,000 fit, a third does not
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.cmd(1, "bribe").cmd(1, "bribe").cmd(1, "bribe")
    beyond = s.line
    s.cmd(1, "ok")
    r = s.run()
    assert r.keys(beyond) == ["offer-beyond-cash"]
    err = r.errors(beyond)[0]
    assert err["private"] == "seat:1" and "25" not in err["message"]
    assert not [e for e in public_view(r.at(beyond))]  # a spectator learns nothing of seat 1's cash
    assert r.of("offer", s.line)[0]["amount"] == 20_000
    assert r.cash(1) == 5_000 and r.cash(2) == 45_000


def test_only_the_called_seat_offers_and_only_while_offers_are_called():
    s = Script().cmd(2, "bribe")
    early = s.line
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3).cmd(3, "bribe")
    other = s.line
    s.cmd(3, "ok")
    r = s.run()
    assert r.keys(early) == ["no-offer-now"]
    assert r.keys(other) == ["not-your-offer"] and r.keys(s.line) == ["not-your-offer"]
    assert not r.of("offer")


def test_placement_takes_free_sections_one_advisor_each():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 0)
    s.scan(2, "intrigue:section-3")
    no_advisor = s.line
    s.place(2, "1-law-1", 3).send(2, "2-law-1", 3).send(2, "2-finance-1", 4)
    s.offer(1, 0).offer(2, 0).place(3, "1-finance-1", 2).place(3, "2-law-1", 2)
    taken = s.line
    s.place(3, "2-law-1", 5)
    r = s.run()
    assert r.keys(no_advisor) == ["choose-advisor-first"]
    assert [(e["owner"], e["advisor"], e["section"]) for e in r.of("hire")] == [
        (2, A("1-law-1"), 3), (3, A("1-finance-1"), 2), (3, A("2-law-1"), 5)]
    assert r.keys(taken) == ["section-taken"] and r.errors(taken)
    assert not r.of("conflict")  # two roles, no conflict
    assert r.keys(s.line, "table")[0] == "hired"
    assert "dispatch-call" in r.keys(s.line, "table")  # all placed: seat 3 sends


def test_section_taken_is_refused():
    s = two_round_game()
    r = s.run()
    refusals = [e for e in r.log if e["type"] == "say" and e["key"] == "section-taken"]
    assert [(e["to"], e["params"]["section"]) for e in refusals] == [("seat:2", 5)]


def test_every_bribe_is_kept_also_for_an_advisor_rejected():
    r = two_round_game().run()
    # Round 2, seat 1's law conflict: seat 3 paid 20,000 and its advisor left the game.
    assert [e["advisor"] for e in r.of("dismiss")] == [A("3-law-1")]
    rejected = [e for e in r.of("offer") if e["advisor"] == A("3-law-1")]
    assert rejected[0]["amount"] == 20_000
    assert r.snap["sections"][1] == {5: A("4-law-1")}


def conflict_game() -> Script:
    """Seat 2's mansion ends round 2 with law (section 2, seat 1) and finance (section 5, seat 3)
    employed; round 3 brings a law newcomer (sent first) and a finance newcomer."""
    s = Script(rounds=3)
    # Round 1
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.offer(1, 0).place(2, "1-law-1", 2).send(2, "2-law-1", 3).send(2, "2-finance-1", 4)
    s.offer(1, 0).offer(2, 0).place(3, "1-finance-1", 1).place(3, "2-law-1", 2)
    s.send(3, "3-finance-1", 2).send(3, "3-law-1", 4)
    s.offer(2, 0).offer(3, 0).place(4, "2-finance-1", 1).place(4, "3-law-1", 2)
    s.send(4, "4-law-1", 2).send(4, "4-finance-1", 1)
    # Round 2, seat 1
    s.offer(4, 0).place(1, "4-finance-1", 1).send(1, "1-military-1", 2).send(1, "1-law-2", 3)
    return s


def test_non_conflicting_first_then_the_conflict_employed_bidding_first():
    s = conflict_game()
    # Seat 2: garden 3-finance-1, 4-law-1, 1-military-1; employed 1-law-1 (section 2).
    s.offer(3, 0).offer(1, 0)  # the two without a conflict, in the order sent
    s.offer(1, 1)  # employed law first: 10,000
    s.offer(4, 2)  # newcomer law: 20,000
    s.place(2, "4-law-1", 2)
    too_early = s.line
    r = s.run()
    assert r.called()[-4:] == ["3-finance-1", "1-military-1", "1-law-1", "4-law-1"]
    call = [e for e in r.log if e["type"] == "say" and e["key"] == "offer-call-employed"][-1]
    assert call["params"]["advisor"] == A("1-law-1")
    assert r.keys(too_early - 1) == ["settle-free-first"]
    assert r.keys(too_early) == ["choose-advisor-first"]


def test_an_employed_advisor_kept_stays_and_the_newcomer_leaves_with_its_bribe_kept():
    s = conflict_game()
    s.offer(3, 0).offer(1, 0).offer(1, 1).offer(4, 2)
    s.place(2, "3-finance-1", 5).place(2, "1-military-1", 3)
    s.place(2, "1-law-1", 4)
    wrong_section = s.line
    s.scan(2, "intrigue:section-2")
    r = s.run()
    assert r.keys(wrong_section) == ["conflict-section"]
    assert r.of("conflict")[0]["advisors"] == [A("1-law-1"), A("4-law-1")]
    hire = r.of("hire", s.line)[0]
    assert (hire["advisor"], hire["section"], hire.get("kept")) == (A("1-law-1"), 2, True)
    assert [e["advisor"] for e in r.of("dismiss", s.line)] == [A("4-law-1")]
    # Seat 2: 320,000 + round 2 income (finance in 4's section 1: 10,000; law in 3's section 2:
    # 20,000) + 10,000 from seat 1 + 20,000 from seat 4 = 380,000.
    assert r.cash(2) == 380_000
    # Seat 4: 320,000 + round 2 income? Not yet (its turn is later): 320,000 - 20,000.
    assert r.cash(4) == 300_000


def test_a_newcomer_that_wins_takes_the_losers_section():
    s = conflict_game()
    s.offer(3, 0).offer(1, 0).offer(1, 0).offer(4, 1)
    s.place(2, "3-finance-1", 5).place(2, "1-military-1", 3).place(2, "4-law-1", 2)
    r = s.run()
    assert r.snap["sections"][2] == {2: A("4-law-1"), 3: A("1-military-1"), 5: A("3-finance-1")}
    assert [e["advisor"] for e in r.of("dismiss")] == [A("1-law-1")]
    assert A("1-law-1") in r.snap["out"]


def round_three() -> Script:
    """Continue `conflict_game` to round 3, where seat 2 has two conflicts at once."""
    s = conflict_game()
    s.offer(3, 0).offer(1, 0).offer(1, 0).offer(4, 0)
    s.place(2, "3-finance-1", 5).place(2, "1-military-1", 3).place(2, "1-law-1", 2)
    s.send(2, "2-military-1", 1).send(2, "2-science-1", 3)
    # Seat 3: garden 1-law-2, 2-science-1; employed 1-finance-1 (1), 2-law-1 (2): law conflicts.
    s.offer(2, 0).offer(2, 0).offer(1, 0)  # science (free), then law: employed 2-law-1, newcomer 1-law-2
    s.place(3, "2-science-1", 5).place(3, "2-law-1", 2)
    s.send(3, "3-law-2", 2).send(3, "3-military-1", 1)
    # Seat 4: empty garden
    s.send(4, "4-finance-2", 2).send(4, "4-military-1", 3)
    # Round 3, seat 1: garden 2-military-1, 3-military-1: a conflict of newcomers of two colours.
    s.offer(2, 0).offer(3, 0).place(1, "3-military-1", 4)
    return s


def test_conflicts_are_settled_from_the_highest_paid_section_down():
    s = round_three()
    # Seat 2: employed law (2, seat 1) and finance (5, seat 3); newcomers 3-law-2 (sent first), 4-finance-2.
    s.offer(3, 1).offer(4, 2).offer(1, 0).offer(3, 0)
    s.place(2, "3-law-2", 2)
    out_of_order = s.line - 1
    s.place(2, "4-finance-2", 5).place(2, "3-law-2", 2)
    r = s.run()
    assert r.called(owner=2)[-4:] == ["3-finance-1", "4-finance-2", "1-law-1", "3-law-2"]
    assert r.keys(out_of_order) == ["conflict-order"]
    assert [c["role"] for c in r.of("conflict") if c["owner"] == 2][-2:] == ["finance", "law"]
    assert r.snap["sections"][2] == {2: A("3-law-2"), 3: A("1-military-1"), 5: A("4-finance-2")}
    assert {A("3-finance-1"), A("1-law-1")} <= set(r.snap["out"])


def test_a_conflict_of_newcomers_goes_to_any_free_section():
    r = round_three().run()
    assert r.snap["sections"][1] == {1: A("4-finance-1"), 4: A("3-military-1")}
    assert A("2-military-1") in r.snap["out"]


def test_two_advisors_of_one_colour_conflict_too():
    s = Script(rounds=3)
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.offer(1, 0).place(2, "1-law-1", 1).send(2, "2-law-1", 3).send(2, "2-finance-1", 4)
    s.offer(1, 0).offer(2, 0).place(3, "1-finance-1", 1).place(3, "2-law-1", 2)
    s.send(3, "3-law-1", 4).send(3, "3-finance-1", 1)
    s.offer(2, 0).offer(3, 0).place(4, "2-finance-1", 1).place(4, "3-law-1", 2)
    s.send(4, "4-law-1", 1).send(4, "4-finance-1", 3)
    s.offer(3, 0).offer(4, 0).place(1, "3-finance-1", 1).place(1, "4-law-1", 2)
    s.send(1, "1-law-2", 2).send(1, "1-military-1", 3)
    # Seat 2: its law section holds 1-law-1; 1-law-2 (the same colour) arrives: a conflict, both of seat 1.
    r = s.run()
    assert r.called()[-1] == "1-law-1"  # the employed one bids first
    s.offer(1, 0).offer(1, 1).place(2, "1-law-2", 1)
    r = s.run()
    assert r.called(owner=2)[-2:] == ["1-law-1", "1-law-2"]
    conflict = [c for c in r.of("conflict") if c["owner"] == 2][-1]
    assert conflict["advisors"] == [A("1-law-1"), A("1-law-2")]
    assert r.snap["sections"][2][1] == A("1-law-2") and A("1-law-1") in r.snap["out"]


def test_the_last_round_has_no_dispatch_and_the_turn_passes_after_the_last_placement():
    s = two_round_game()
    r = s.run()
    assert [e["seat"] for e in r.of("dispatch")] == [1, 1, 2, 2, 3, 3, 4, 4]  # round 1 only
    rounds = [e["round"] for e in r.of("round")]
    assert rounds == [1, 2]
    # Round 2, seat 1's last placement hands the turn to seat 2 at once.
    line = next(e["in"] for e in r.of("hire") if e["advisor"] == A("4-law-1"))
    assert [e["seat"] for e in r.of("turn", line)] == [2]
    assert all(len(h) == 8 for h in r.snap["hands"].values())
    end = r.keys(to="table")
    assert end[end.index("final-income"):] == ["final-income"] + ["income"] * 4 + ["game-over-end"] + ["rank"] * 4


def test_one_round_game_ends_at_once():
    r = Script(rounds=1).run()
    assert not r.of("dispatch")
    assert r.of("game-over")[0]["reason"] == "end"
    assert [e["cash"] for e in r.of("game-over")[0]["ranking"]] == [START] * 4
    assert all(e["place"] == 1 and e["won"] for e in r.of("game-over")[0]["ranking"])  # ties share


def test_most_cash_wins_and_ties_share_the_place():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 2).console("stop")
    r = s.run()
    # 1: 300,000; 2: 340,000; 3 and 4: 320,000 each -> places 1, 2, 2, 4.
    over = r.of("game-over")[0]
    assert over["reason"] == "stopped"
    assert [(e["seat"], e["place"], e["cash"], e["won"]) for e in over["ranking"]] == [
        (2, 1, 340_000, True), (3, 2, 320_000, False), (4, 2, 320_000, False), (1, 4, 300_000, False)]


def test_every_advisor_in_the_garden_is_placed_before_the_dispatch():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 0)
    s.scan(2, A("2-law-1"))
    own = s.line
    s.scan(2, "seat:3")
    early = s.line
    r = s.run()
    assert r.keys(own) == ["not-in-garden"] and r.keys(early) == ["not-now"]
    assert r.snap["phase"] == "placing" and not [e for e in r.of("dispatch") if e["seat"] == 2]


def test_bribes_do_not_bind_the_owner():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    s.offer(1, 0).place(2, "1-law-1", 1).send(2, "2-military-1", 3).send(2, "2-finance-1", 4)
    # Seat 3's garden: 1-finance-1 (30,000 offered), 2-military-1 (nothing): the better section goes to 2.
    s.offer(1, 3).offer(2, 0).place(3, "2-military-1", 5).place(3, "1-finance-1", 1)
    r = s.run()
    assert [(e["advisor"], e["section"]) for e in r.of("hire") if e["owner"] == 3] == [
        (A("2-military-1"), 5), (A("1-finance-1"), 1)]
    assert r.cash(1) == START - 30_000 and r.cash(3) == START + 30_000


def test_the_referee_sees_every_balance():
    s = Script().send(1, "1-law-1", 2).send(1, "1-finance-1", 3).offer(1, 1)
    snap = s.run().snap
    assert snap["cash"] == {1: 310_000, 2: 330_000, 3: START, 4: START}
    assert snap["turn"] == 2 and snap["phase"] == "placing"
