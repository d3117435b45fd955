"""The rank ladder and peerage, walked from recorded game-over events only."""
import pytest
from records_helpers import game_over, new_club_players, play

from kikimimi.records import Rank

A10 = "AAAAAAAAAA"


@pytest.fixture
def abc(club):
    new_club_players(club)
    return club


def rank(club, name):
    return club.player(name).rank


def test_first_session_settles_apprentice_only_at_its_end(abc):
    seats = {1: "A", 2: "B", 3: "C"}
    info = abc.start_session("half", seats)
    for winner in (1, 2, 1, 3):
        abc.record_game_over(info.id, game_over(winner), seats)
    assert [rank(abc, n) for n in "ABC"] == [Rank.NONE] * 3
    assert abc.player("A").ladder.wins == 2
    rec = abc.record_game_over(info.id, game_over(2), seats)
    assert abc.session(info.id).status == "completed"
    assert [s.rank_after for s in rec.settlements] == [Rank.APPRENTICE] * 3
    assert [rank(abc, n) for n in "ABC"] == [Rank.APPRENTICE] * 3


def test_bishop_at_exactly_ten_wins(abc):
    play(abc, "ABABABABAB")  # A: 5
    play(abc, "ABABABABCC")  # A: 9
    assert rank(abc, "A") is Rank.APPRENTICE
    play(abc, "ACBCB")  # A: 10
    assert rank(abc, "A") is Rank.BISHOP
    assert abc.history("A")[-1].reasons == ("promotion:bishop",)


def test_one_session_of_ten_wins_rises_two_ranks_in_order(abc):
    _, rec = play(abc, A10)
    s = rec.settlements[0]
    assert (s.rank_before, s.rank_after) == (Rank.NONE, Rank.BISHOP)
    assert s.reasons == ("first-session:apprentice", "four-win-streaks:2", "promotion:bishop")


def test_streak_bonuses_count_only_at_the_rank_held_and_runs_cross_sessions(abc):
    play(abc, A10)  # bonuses earned while unranked: 9; Bishop now
    assert abc.player("A").ladder.bonuses_at(Rank.BISHOP) == 0
    play(abc, "AABBBBBBBB")  # run goes on from last session: two bonuses as Bishop
    lad = abc.player("A").ladder
    assert lad.bonuses_at(Rank.NONE) == 9 and lad.bonuses_at(Rank.BISHOP) == 2
    assert lad.wins == 12 and rank(abc, "A") is Rank.BISHOP


def test_career_through_every_rank_to_king(abc):
    """A's whole career, each settlement checked one step short and at the threshold."""
    play(abc, A10)
    assert (rank(abc, "A"), abc.player("A").peerage) == (Rank.BISHOP, 2)
    play(abc, "BABABABABA")  # 15 wins
    play(abc, "BAABABABAB")  # 20 wins, 1 bonus as Bishop: one short
    assert rank(abc, "A") is Rank.BISHOP
    play(abc, "AABBBBBBBB")  # 22 wins, 2 bonuses as Bishop
    assert rank(abc, "A") is Rank.WIZARD
    play(abc, "AAAABBBBBB")  # 26 wins, 3 bonuses as Wizard, third 4-win streak
    assert (rank(abc, "A"), abc.player("A").peerage) == (Rank.WIZARD, 3)
    play(abc, "BABABABBBB")  # 29 wins: one short
    assert rank(abc, "A") is Rank.WIZARD
    play(abc, "ABBBBBBBBB")  # 30 wins
    assert rank(abc, "A") is Rank.KNIGHT
    play(abc, A10)  # 40 wins, 9 bonuses as Knight, 4-win streaks 5: Duke
    assert abc.player("A").peerage == 5
    play(abc, "BAAAAAAAAA")  # 49 wins: one short
    assert rank(abc, "A") is Rank.KNIGHT
    play(abc, "ABBBBBBBBB")  # 50 wins
    assert rank(abc, "A") is Rank.GENERAL
    play(abc, "Ba Ba B B B")  # Generals are never demoted
    assert rank(abc, "A") is Rank.GENERAL and abc.player("A").ladder.wins == 50
    # A contest for a General short of 100 wins: peerage already Duke, rank stays.
    s = abc.record_contest("A", "Autumn Cup")
    assert (s.rank_after, s.peerage_after) == (Rank.GENERAL, 5)
    for _ in range(4):
        play(abc, A10)
    assert abc.player("A").ladder.wins == 90 and rank(abc, "A") is Rank.GENERAL
    play(abc, A10)
    assert abc.player("A").ladder.wins == 100 and rank(abc, "A") is Rank.SOVEREIGN
    assert abc.player("A").rank_key == "king"
    # Kings are never demoted, not even by two crashes in a row.
    play(abc, "Ba Ba B B B B B B B B")
    assert rank(abc, "A") is Rank.SOVEREIGN and abc.player("A").ladder.wins == 100
    ranks = [s.rank_after for s in abc.history("A") if s.session_id is not None]
    assert sorted(set(ranks)) == [Rank.BISHOP, Rank.WIZARD, Rank.KNIGHT, Rank.GENERAL, Rank.SOVEREIGN]


def test_queen_form_and_hundred_wins_without_peerage_is_not_enough(club):
    new_club_players(club, form="queen")
    for _ in range(15):
        play(club, "AAABAAABAB")  # runs of three, never four: 7 wins a session
    lad = club.player("A").ladder
    assert lad.four_streaks == 0 and lad.wins == 105
    assert club.player("A").rank is Rank.GENERAL  # no peerage: no Queen
    s = club.record_contest("A", "Spring Cup")  # peerage, and the rank step to Queen
    assert (s.rank_after, s.peerage_after) == (Rank.SOVEREIGN, 1)
    assert club.player("A").rank_key == "queen" and club.player("A").peerage_key == "baroness"


def test_peerage_steps_from_four_win_streaks(abc):
    expected = []
    for _ in range(6):
        play(abc, "CCCCA")  # one 4-win streak each, broken by A
        expected.append(abc.player("C").peerage)
    assert expected == [1, 2, 3, 4, 5, 5]
    assert abc.player("C").peerage_key == "duke"


def test_a_run_of_seven_is_one_four_win_streak_and_eight_across_sessions_two(abc):
    play(abc, "CCCCCCCAAA")
    assert abc.player("C").ladder.four_streaks == 1
    play(abc, "BBCCC")
    play(abc, "CCCCC")  # run of 8 spanning two sessions
    assert abc.player("C").ladder.four_streaks == 3 and abc.player("C").peerage == 3


def test_demotion_after_two_crashes_settles_at_session_end(abc):
    play(abc, "AAAAAAAAAB")  # A: 9 wins
    play(abc, "ABBBBBBBBB")  # A: 10 -> Bishop
    assert rank(abc, "A") is Rank.BISHOP
    seats = {1: "A", 2: "B", 3: "C"}
    info = abc.start_session("full", seats)
    spec = [(2, 1), (2, 1), (1, None), (2, None), (1, None), (2, None), (2, None), (2, None), (2, None)]
    for w, c in spec:
        abc.record_game_over(info.id, game_over(w, c), seats)
    assert rank(abc, "A") is Rank.BISHOP  # not mid-session
    rec = abc.record_game_over(info.id, game_over(2), seats)
    s = next(s for s in rec.settlements if s.player_id == abc.player("A").id)
    assert (s.rank_before, s.rank_after) == (Rank.BISHOP, Rank.APPRENTICE)
    # total at the crash 10 - 10 = 0, plus the 2 wins after it
    assert (s.wins_before, s.wins_after) == (12, 2)
    assert s.reasons[0].startswith("demotion:")


def test_demotion_once_per_session_and_three_crashes_are_one_episode(abc):
    play(abc, A10)
    play(abc, A10)  # Wizard, 20 wins
    assert rank(abc, "A") is Rank.WIZARD
    play(abc, "B B B B B B B B Ba Ba")
    assert rank(abc, "A") is Rank.BISHOP and abc.player("A").ladder.wins == 10
    # A third consecutive crash, next session: the same episode, no new demotion.
    play(abc, "Ba B B B B")
    assert rank(abc, "A") is Rank.BISHOP and abc.player("A").ladder.wins == 10
    # Two separate episodes in one session: one rank only.
    play(abc, "Ba Ba A Ba Ba Ba B B B B")
    assert rank(abc, "A") is Rank.APPRENTICE
    assert abc.player("A").ladder.wins == 1  # 10 - 10 at the first crash, plus the win after


def test_crash_run_across_sessions_opens_episode_in_the_second(abc):
    play(abc, A10)
    play(abc, "AABBBBBBBB")
    play(abc, A10)  # Wizard
    play(abc, "B B B B B B B B B Ba")  # one crash: nothing
    assert rank(abc, "A") is Rank.WIZARD
    play(abc, "Ba B B B B")  # the second crash in a row, in this session
    assert rank(abc, "A") is Rank.BISHOP


def test_apprentice_is_not_demoted(abc):
    play(abc, "Cb Bc Bc B B")  # C unranked: nothing to drop
    play(abc, "C Bc Bc B B")  # C Apprentice: stays, wins untouched
    assert rank(abc, "C") is Rank.APPRENTICE and abc.player("C").ladder.wins == 2
    assert abc.history("C")[-1].reasons == ("no-change",)


def test_abandoned_session_counts_games_but_settles_nothing(abc):
    play(abc, "AAAAAAA")
    sid = abc.sessions("open")[0].id
    abc.end_session(sid, abandon=True)
    assert abc.session(sid).status == "abandoned"
    a = abc.player("A")
    assert a.rank is Rank.NONE and a.ladder.wins == 7 and a.ladder.run == 7 and abc.history("A") == []
    play(abc, "AAABB")  # the run went on: 10 in a row; settles now
    a = abc.player("A")
    assert a.rank is Rank.BISHOP and a.ladder.four_streaks == 2 and a.peerage == 2


def test_contests_give_one_peerage_step_and_one_rank(abc):
    play(abc, "ABCAB")
    s = abc.record_contest("A", "Spring Cup")
    assert (s.rank_before, s.rank_after, s.peerage_before, s.peerage_after) == (
        Rank.APPRENTICE, Rank.BISHOP, 0, 1)
    s = abc.record_contest("A", "Summer Cup")
    assert (s.rank_after, s.peerage_after) == (Rank.WIZARD, 2)
    # A later 4-win streak adds to the contests: Earl.
    play(abc, "AAAAB")
    assert abc.player("A").peerage == 3 and rank(abc, "A") is Rank.WIZARD


def test_contest_refused_while_in_an_open_session(abc):
    play(abc, "ABC")
    from kikimimi.records import RecordsError

    with pytest.raises(RecordsError, match="open session"):
        abc.record_contest("A", "Cup")
    assert abc.player("A").ladder.contests == 0
