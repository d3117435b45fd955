"""Each line of the seed's win conditions, driven through table scripts."""
from __future__ import annotations

from .table import Table, internal_errors, of, over, said

C = "citizen"


def ended(log, winner, reason):
    end = over(log)
    assert end is not None and not internal_errors(log)
    assert (end["winner"], end["reason"]) == (winner, reason)
    return end


# -- classic / general ----------------------------------------------------------------
def test_mafia_wins_when_its_votes_reach_the_citizens():
    t = Table(["mafia", C, C, C]).night({1: 2})
    assert over(t.run()) is None  # 1 vs 2
    log = t.day().night({1: 3}).run()
    end = ended(log, "mafia", "mafia")
    assert end["day"] == 2 and [r["seat"] for r in end["ranking"] if r["won"]] == [1]


def test_mafia_win_waits_while_the_prophet_lives():
    log = Table(["mafia", "prophet", C, C]).night({1: 3}).day().night({1: 4}).run()
    assert over(log) is None
    assert of(log, "power")[-1]["sides"]["mafia"]["votes"] == 1 == of(log, "power")[-1]["sides"]["citizens"]["votes"]


def test_mafia_win_waits_for_a_mercenary_whose_client_was_killed():
    log = Table(["mafia", "mercenary", C, C]).night({1: 3}).day().night({1: 4}).run()
    assert over(log) is None


def test_mafia_win_waits_while_the_whole_secret_society_lives():
    log = Table(["mafia", "mafia", "society", "society", C]).night({1: 5}).run()
    assert over(log) is None  # 2 vs 2, but both of the society live


def test_citizens_win_when_the_mafia_and_contacted_helpers_have_no_votes():
    log = Table(["mafia", C, C, C]).night().day({2: 1, 3: 1, 4: 1}, yes=[2, 3, 4]).run()
    ended(log, "citizens", "citizens")


def test_an_uncontacted_helper_does_not_keep_the_mafia_alive():
    log = Table(["mafia", "witch", C, C, C]).night().day({2: 1, 3: 1, 4: 1, 5: 1}, yes=[2, 3, 4, 5]).run()
    end = ended(log, "citizens", "citizens")
    assert {r["seat"]: r["won"] for r in end["ranking"]}[2] is False  # the witch is on the mafia team


def test_immediate_citizens_win_by_the_prophets_revelation():
    t = Table(["mafia", "prophet", C, C, C, C])
    for victim in (3, 4, 5):
        t.night({1: victim}).day()
    log = t.night({1: 6}).run()
    assert said(log, "revelation")[0]["params"] == {"seat": 2}
    ended(log, "citizens", "citizens-immediate-prophet")


def test_immediate_citizens_win_by_the_secret_societys_envoy():
    t = Table(["mafia", "society", "society", C, C, C]).night({1: 4, 2: 3})
    log = t.run()
    assert said(log, "found-moon", "seat:2") and said(log, "sun-is", "seat:3")
    log = t.day().night({1: 5, 3: 2}).run()
    assert said(log, "envoy")
    ended(log, "citizens", "citizens-immediate-envoy")


def test_immediate_mafia_win_by_time_limited():
    log = Table(["mafia", C, C, C], skills={"1": "time-limited"}).quiet(3).run()
    end = ended(log, "mafia", "mafia-immediate-time-limited")
    assert end["day"] == 4  # 4 players: night 4 / 2 + 2


def test_general_mode_voids_a_game_decided_before_the_second_night():
    log = Table(["mafia", C, C, C], mode="general").night().day({2: 1, 3: 1, 4: 1}, yes=[2, 3, 4]).run()
    end = ended(log, "void", "citizens")
    assert not any(r["won"] for r in end["ranking"])


def test_general_mode_counts_a_game_decided_after_the_second_night():
    log = Table(["mafia", C, C, C], mode="general").night({1: 2}).day().night({1: 3}).run()
    ended(log, "mafia", "mafia")


# -- cult mode ------------------------------------------------------------------------------
def test_cult_mode_mafia_needs_the_citizens_and_the_cult_together():
    log = Table(["mafia"] * 4 + ["cult-leader"] + [C] * 4, mode="cult").night({1: 6}).run()
    ended(log, "mafia", "mafia-cult-mode")


def test_cult_mode_citizens_need_no_mafia_no_leader_and_at_least_the_cult():
    everyone = range(1, 10)
    t = Table(["mafia", "cult-leader"] + [C] * 7, mode="cult").night()
    t.day({s: 1 for s in everyone}, yes=everyone)
    log = t.run()
    assert over(log) is None  # the cult leader lives
    log = t.night().day({s: 2 for s in range(2, 10)}, yes=range(3, 10)).run()
    ended(log, "citizens", "citizens-cult-mode")


def test_cult_way_1_leader_alive_no_mafia_cult_at_least_citizens():
    t = Table(["mafia", "cult-leader"] + [C] * 7, mode="cult")
    t.night({1: 3, 2: 4})  # mafia kill 3; the leader converts 4
    t.day({s: 6 for s in (1, 2, 4, 5, 7, 8, 9)}, yes=(1, 2, 4, 5, 7, 8, 9))
    t.night({1: 7})
    t.day({s: 1 for s in (1, 2, 4, 5, 8, 9)}, yes=(2, 4, 5, 8, 9))
    assert over(t.run()) is None  # cult 2 < citizens 3
    log = t.night({2: 5}).run()
    ended(log, "cult", "cult-way-1")


def test_cult_way_2_leadership_gone_no_mafia_no_citizens():
    t = Table(["mafia", "cult-leader", "fanatic"] + [C] * 6, mode="cult")
    t.night({1: 4, 2: 5})
    t.day({s: 6 for s in (1, 2, 3, 5, 6, 7, 8, 9)}, yes=(1, 2, 3, 5, 7, 8, 9))
    t.night({1: 7})
    t.day({s: 2 for s in (1, 3, 5, 8, 9)}, yes=(1, 3, 5, 8, 9))
    t.night({1: 8})
    t.day({s: 1 for s in (1, 3, 5, 9)}, yes=(3, 5, 9))
    assert over(t.run()) is None  # citizens 1 < cult 2, but nobody leads the cult
    log = t.night().day({s: 9 for s in (3, 5, 9)}, yes=(3, 5)).run()
    ended(log, "cult", "cult-way-2")


def test_cult_way_3_citizens_gone_before_the_mafia_while_the_cult_outvotes_it():
    t = Table(["mafia", "cult-leader", "fanatic"] + [C] * 6, mode="cult")
    t.night({1: 4, 2: 5})
    t.day({s: 6 for s in (1, 2, 3, 5, 6, 7, 8, 9)}, yes=(1, 2, 3, 5, 7, 8, 9))
    t.night({1: 7})
    t.day({s: 8 for s in (1, 2, 3, 5, 8, 9)}, yes=(1, 2, 3, 5, 9))
    log = t.night({1: 9}).run()
    ended(log, "cult", "cult-way-3")


def test_cult_immediate_win_when_the_judge_is_converted_and_the_mafia_all_dead():
    t = Table(["mafia", "cult-leader", "judge"] + [C] * 6, mode="cult").night({1: 4, 2: 3})
    log = t.day({s: 1 for s in (1, 2, 3, 5, 6, 7, 8, 9)}, yes=(2, 3, 5, 6, 7, 8, 9)).run()
    ended(log, "cult", "cult-immediate-judge")


def test_cult_immediate_win_by_a_converted_prophets_revelation():
    t = Table(["mafia", "cult-leader", "prophet"] + [C] * 6, mode="cult")
    t.night({1: 4, 2: 3}).day().night({1: 5}).day().night({1: 6}).day()
    log = t.night({1: 7}).run()
    ended(log, "cult", "cult-immediate-prophet")


def test_cult_immediate_win_by_time_limited():
    log = Table(["mafia", "cult-leader"] + [C] * 7, mode="cult", skills={"2": "time-limited"}).quiet(5).run()
    end = ended(log, "cult", "cult-immediate-time-limited")
    assert end["day"] == 6
