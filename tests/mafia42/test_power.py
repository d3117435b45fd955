"""The win arithmetic as pure functions: each row of the seed's head/vote table,
each line of its win conditions (the same lines are driven through table
scripts in test_win_lines.py)."""
from __future__ import annotations

import math

import pytest

from kikimimi_games.mafia42.jobs import default_catalogue
from kikimimi_games.mafia42.power import Fired, Power, Seat, as_event, decide, seat_power, sides

CAT = default_catalogue()
INF = math.inf


def seat(n, job, team=None, **kw):
    return Seat(n, job, team or CAT[job].team, **kw)


def power_of(p, *others):
    return seat_power(p, [p, *others], CAT)


# -- the head/vote table, row by row ------------------------------------------
def test_row_ordinary_counts_one_and_one():
    assert power_of(seat(1, "citizen")) == Power(1, 1)


def test_row_politician_counts_two_and_two():
    assert power_of(seat(1, "politician")) == Power(2, 2)


def test_row_revealed_judge_counts_infinite_and_infinite():
    assert power_of(seat(1, "judge")) == Power(1, 1)
    assert power_of(seat(1, "judge", revealed=True)) == Power(INF, INF)


def test_row_gangster_counts_three_heads_one_vote():
    assert power_of(seat(1, "gangster")) == Power(3, 1)


def test_row_threatened_keeps_heads_loses_votes():
    assert power_of(seat(1, "politician", threatened=True)) == Power(2, 0)
    assert power_of(seat(1, "citizen", threatened=True)) == Power(1, 0)


def test_row_lover_with_grudge_only_while_the_shooting_mafia_lives():
    mafia = seat(5, "mafia")
    lover = seat(1, "lover", grudge_against=(5,))
    assert power_of(lover, mafia) == Power(2, 1)
    mafia.alive = False
    assert power_of(lover, mafia) == Power(1, 1)


def test_row_unconverted_fanatic_counts_no_heads_one_vote():
    assert power_of(seat(1, "fanatic")) == Power(0, 1)
    assert power_of(seat(1, "fanatic", converted=True)) == Power(1, 1)


def test_row_prophet_counts_infinite_heads_one_vote():
    assert power_of(seat(1, "prophet")) == Power(INF, 1)


def test_row_mercenary_after_his_client_was_killed_at_night():
    assert power_of(seat(1, "mercenary")) == Power(1, 1)
    assert power_of(seat(1, "mercenary", client_killed=True)) == Power(INF, 1)


def test_row_secret_society_only_while_both_live():
    sun, moon = seat(1, "society"), seat(2, "society")
    assert power_of(sun, moon) == Power(INF, 1)
    moon.alive = False
    assert power_of(sun, moon) == Power(1, 1)


def test_special_helpers_before_contact_count_for_the_citizens():
    spy = seat(2, "spy")
    assert sides([seat(1, "mafia"), spy], CAT)["citizens"] == Power(1, 1)
    spy.contacted = True
    assert sides([seat(1, "mafia"), spy], CAT)["mafia"] == Power(2, 2)


def test_special_magician_swapped_player_counts_for_the_magicians_side():
    swapped = seat(3, "mafia", side="citizens")
    assert sides([swapped], CAT)["citizens"] == Power(1, 1)
    assert sides([swapped], CAT)["mafia"] == Power(0, 0)


def test_special_escaped_and_alone_counts_as_dead():
    alone = seat(1, "mafia", escaped=True)
    assert sides([alone, seat(2, "citizen")], CAT)["mafia"] == Power(0, 0)
    assert sides([alone, seat(3, "mafia"), seat(2, "citizen")], CAT)["mafia"] == Power(2, 2)
    leader = seat(1, "cult-leader", escaped=True)
    assert sides([leader], CAT)["cult"] == Power(0, 0)


def test_infinity_is_real_and_equal_to_itself():
    judge = seat(1, "judge", revealed=True)
    prophet = seat(2, "prophet")
    assert sides([judge, prophet], CAT)["citizens"] == Power(INF, INF)
    assert as_event(sides([judge], CAT), "classic")["citizens"] == {"heads": "inf", "votes": "inf"}
    # ∞ vs ∞ is equal: a revealed judge counted for the mafia against one on the citizens' side
    board = [seat(1, "judge", revealed=True, side="mafia"), seat(2, "judge", revealed=True)]
    power = sides(board, CAT)
    assert power["mafia"].votes >= power["citizens"].votes and power["citizens"].votes >= power["mafia"].votes
    assert decide(board, "classic", CAT) is None  # votes are level, but a revealed judge lives
    board[1].alive = False
    assert decide(board, "classic", CAT) is None  # still one revealed judge alive


def test_politician_and_mafia_one_on_one_goes_on():
    """The seed's own example: mafia 1 vs politician 2 votes, the game continues."""
    assert decide([seat(1, "mafia"), seat(2, "politician")], "classic", CAT) is None


# -- win lines: classic / general ---------------------------------------------------
def test_classic_mafia_wins_with_votes_at_least_the_citizens():
    d = decide([seat(1, "mafia"), seat(2, "citizen")], "classic", CAT)
    assert d and (d.winner, d.line) == ("mafia", "mafia")


@pytest.mark.parametrize("anchor", [
    dict(job="prophet"), dict(job="mercenary", client_killed=True), dict(job="judge", revealed=True)])
def test_classic_mafia_blocked_by_each_anchor_alive(anchor):
    job = anchor.pop("job")
    assert decide([seat(1, "mafia"), seat(2, "mafia"), seat(3, job, **anchor)], "classic", CAT) is None


def test_classic_mafia_blocked_only_by_the_whole_secret_society():
    both = [seat(1, "mafia"), seat(2, "mafia"), seat(3, "mafia"), seat(4, "society"), seat(5, "society")]
    assert decide(both, "classic", CAT) is None
    both[4].alive = False
    assert decide(both, "classic", CAT).winner == "mafia"


def test_classic_citizens_win_when_mafia_and_contacted_helpers_have_no_votes():
    d = decide([seat(1, "mafia", alive=False), seat(2, "spy"), seat(3, "citizen")], "classic", CAT)
    assert (d.winner, d.line) == ("citizens", "citizens")
    assert decide([seat(1, "mafia", alive=False), seat(2, "spy", contacted=True), seat(3, "citizen"),
                   seat(4, "citizen")], "classic", CAT) is None


def test_immediate_citizens_revelation_and_envoy():
    board = [seat(1, "mafia"), seat(2, "prophet"), seat(3, "mafia")]
    assert decide(board, "classic", CAT, Fired(revelation=2)).line == "citizens-immediate-prophet"
    assert decide(board, "classic", CAT, Fired(envoy=True)).line == "citizens-immediate-envoy"


def test_immediate_time_limited_wins_for_the_holders_team():
    board = [seat(1, "mafia", skill="time-limited"), seat(2, "citizen"), seat(3, "citizen"), seat(4, "doctor")]
    d = decide(board, "classic", CAT, Fired(time_limited=[1]))
    assert (d.winner, d.line) == ("mafia", "mafia-immediate-time-limited")


# -- win lines: cult mode ---------------------------------------------------------
def test_cult_mode_mafia_needs_citizens_plus_cult():
    board = [seat(1, "mafia"), seat(2, "mafia"), seat(3, "citizen"), seat(4, "cult-leader")]
    assert decide(board, "cult", CAT).line == "mafia-cult-mode"
    board.append(seat(5, "citizen"))
    assert decide(board, "cult", CAT) is None


def test_cult_mode_citizens_need_no_mafia_no_leadership_and_at_least_the_cult():
    board = [seat(1, "mafia", alive=False), seat(2, "cult-leader", alive=False),
             seat(3, "citizen"), seat(4, "citizen", team="cult", converted=True)]
    assert decide(board, "cult", CAT).line == "citizens-cult-mode"
    board.append(seat(5, "doctor", team="cult", converted=True))
    assert decide(board, "cult", CAT) is None or decide(board, "cult", CAT).winner != "citizens"


def test_cult_way_1_leader_alive_cult_at_least_citizens():
    board = [seat(1, "mafia", alive=False), seat(2, "cult-leader"), seat(3, "citizen")]
    assert decide(board, "cult", CAT).line == "cult-way-1"
    board.append(seat(4, "prophet"))  # an anchor on the citizens' side stops it
    board.append(seat(5, "citizen", team="cult", converted=True))
    assert decide(board, "cult", CAT) is None


def test_cult_way_2_leadership_gone_needs_citizens_at_zero():
    board = [seat(1, "mafia", alive=False), seat(2, "cult-leader", alive=False), seat(3, "fanatic"),
             seat(4, "citizen", alive=False)]
    assert decide(board, "cult", CAT).line == "cult-way-2"


def test_cult_way_3_citizens_gone_first_while_cult_outvotes_mafia():
    board = [seat(1, "mafia"), seat(2, "cult-leader"), seat(3, "politician", team="cult", converted=True)]
    assert decide(board, "cult", CAT).line == "cult-way-3"


def test_cult_immediate_judge_converted_with_the_mafia_all_dead():
    board = [seat(1, "mafia", alive=False), seat(2, "cult-leader"), seat(3, "judge", team="cult", converted=True),
             seat(4, "citizen"), seat(5, "citizen"), seat(6, "citizen")]
    assert decide(board, "cult", CAT).line == "cult-immediate-judge"
    board.append(seat(7, "prophet"))
    assert decide(board, "cult", CAT) is None


def test_cult_immediate_converted_prophets_revelation():
    board = [seat(1, "mafia"), seat(2, "prophet", team="cult", converted=True), seat(3, "citizen")]
    assert decide(board, "cult", CAT, Fired(revelation=2)).line == "cult-immediate-prophet"


def test_cult_immediate_time_limited():
    board = [seat(1, "mafia"), seat(2, "cult-leader", skill="time-limited"), seat(3, "citizen")]
    assert decide(board, "cult", CAT, Fired(time_limited=[2])).line == "cult-immediate-time-limited"
