"""Each row of the seed's head/vote table, driven through table scripts:
the referee's `power` event after the change the row describes."""
from __future__ import annotations

from .table import Table, internal_errors, of, over, power, said

C = "citizen"


def test_row_ordinary():
    log = Table(["mafia", C, C, C]).run()
    assert power(log) == {"mafia": {"heads": 1, "votes": 1}, "citizens": {"heads": 3, "votes": 3}}
    assert of(log, "power")[-1]["private"] == "referee"


def test_row_politician_two_heads_two_votes():
    assert power(Table(["mafia", "politician", C, C]).run())["citizens"] == {"heads": 4, "votes": 4}


def test_row_revealed_judge_infinite_heads_and_votes():
    # seat 3 is accused; three of four say yes, the judge says no: he is revealed and spares him
    log = Table(["mafia", "judge", C, C, C]).night().day(
        {1: 3, 2: 3, 4: 3, 5: 3}, yes=[1, 4, 5], no=[2]).run()
    assert said(log, "judge-revealed")[0]["params"] == {"seat": 2}
    assert of(log, "approval")[-1]["executed"] is False
    assert power(log)["citizens"] == {"heads": "inf", "votes": "inf"}
    assert over(log) is None


def test_row_gangster_three_heads_one_vote():
    assert power(Table(["mafia", "gangster", C, C]).run())["citizens"] == {"heads": 5, "votes": 3}


def test_row_threatened_keeps_heads_loses_votes_and_cannot_vote():
    t = Table(["mafia", "gangster", C, C, C]).night({2: 3})
    log = t.run()
    assert power(log)["citizens"] == {"heads": 6, "votes": 3}
    t.next().next().hand(3, "seat:1")
    log = t.run()
    assert said(log, "threatened", to="seat:3")


def test_row_lover_with_grudge_two_heads_one_vote():
    log = Table(["mafia", "lover", "lover", C, C]).night({1: 2}).run()
    assert [e["seat"] for e in of(log, "death")] == [3]  # the other lover died instead
    assert power(log)["citizens"] == {"heads": 4, "votes": 3}


def test_row_unconverted_fanatic_no_heads_one_vote():
    jobs = ["mafia", "mafia", "mafia", "cult-leader", "fanatic"] + [C] * 7
    assert power(Table(jobs, mode="cult").run())["cult"] == {"heads": 1, "votes": 2}


def test_row_prophet_infinite_heads_one_vote():
    assert power(Table(["mafia", "prophet", C, C]).run())["citizens"] == {"heads": "inf", "votes": 3}


def test_row_mercenary_whose_client_was_killed_at_night():
    log = Table(["mafia", "mercenary", C, C, C]).run()
    assert said(log, "client-is", "seat:2")[0]["params"] == {"seat": 3}
    log = Table(["mafia", "mercenary", C, C, C]).night({1: 3}).run()
    assert power(log)["citizens"] == {"heads": "inf", "votes": 3}


def test_row_secret_society_only_while_both_live():
    t = Table(["mafia", "society", "society", C, C])
    assert power(t.run())["citizens"] == {"heads": "inf", "votes": 4}
    assert power(t.night({1: 3}).run())["citizens"] == {"heads": 3, "votes": 3}


def test_special_helper_counts_for_the_citizens_until_contact():
    t = Table(["mafia", "spy", C, C, C])
    assert power(t.run()) == {"mafia": {"heads": 1, "votes": 1}, "citizens": {"heads": 4, "votes": 4}}
    log = t.hand(2, "seat:1").run()
    assert said(log, "contact-made", "seat:2")
    assert power(log) == {"mafia": {"heads": 2, "votes": 2}, "citizens": {"heads": 3, "votes": 3}}


def test_special_magician_swapped_counts_for_the_magicians_side():
    # the magician's trick is on the mafioso; the mafia shoot the magician: the mafioso dies
    log = Table(["mafia", "magician", C, C, C]).night({2: 1, 1: 2}).run()
    assert [e["seat"] for e in of(log, "death")] == [1]
    assert said(log, "magic-fired", "seat:2")[0]["params"]["job"] == "job:mafia"
    assert power(log) == {"mafia": {"heads": 0, "votes": 0}, "citizens": {"heads": 4, "votes": 4}}
    assert over(log)["winner"] == "citizens"


def test_special_escape_alone_counts_as_dead():
    log = Table(["mafia", C, C, C], skills={"1": "escape"}).night().day(
        {2: 1, 3: 1, 4: 1}, yes=[2, 3, 4]).run()
    assert said(log, "escaped")[0]["params"] == {"seat": 1}
    assert not of(log, "death")
    assert power(log)["mafia"] == {"heads": 0, "votes": 0}
    assert (over(log)["winner"], over(log)["reason"]) == ("citizens", "citizens")
    assert not internal_errors(log)
