"""Several tables recording into one club at the same moment end with exactly
the records of the same games recorded one by one."""
import itertools
import multiprocessing

import pytest
from records_tables import CONTEST, play_tables_in_turn, race_game, setup_club, snapshot, table_plan, worker

from kikimimi.records import Club
from kikimimi.records.contest import close_contest, standings

TABLES, SESSIONS, ROUNDS = 2, 2, 7
SHARED_GAMES = 4 + 3 * TABLES  # 4 rounds of one game offered twice, 3 of a game per table: a full trial


def _close(url):
    """The referee closes the contest (naming the first of tied leaders, as a play-off would)."""
    with Club(url, create=False) as club:
        leaders = sorted(s.player.name for s in standings(club, CONTEST)[1] if s.place == 1)
        close_contest(club, CONTEST, winner=leaders[0])
        return snapshot(club)


def test_tables_finishing_games_at_the_same_moment_record_what_one_by_one_records(db_url, tmp_path):
    # One by one: the same tables' games in a single process, in turns.
    reference = str(tmp_path / "reference.sqlite")
    setup_club(reference, TABLES)
    with Club(reference, create=False) as club:
        play_tables_in_turn(club, TABLES, SESSIONS)
        recorded = [race_game(club, t, r) for r in range(ROUNDS) for t in range(1, TABLES + 1)]
        assert sum(recorded) == SHARED_GAMES
    expected = _close(reference)

    # At once: one process per table, every game written at the same moment as the other table's.
    setup_club(db_url, TABLES)
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(TABLES), ctx.Queue()
    procs = [ctx.Process(target=worker, args=(db_url, t, SESSIONS, ROUNDS, barrier, results))
             for t in range(1, TABLES + 1)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=180)
    assert [p.exitcode for p in procs] == [0] * TABLES
    reports = sorted(results.get(timeout=5) for _ in procs)
    # Each game offered by both tables was recorded once; each table's own game once each.
    assert sum(recorded for _, recorded, _ in reports) == SHARED_GAMES
    got = _close(db_url)
    assert got == expected
    # The records really were shared: both tables' sessions hang off one contest, all closed.
    assert got["contests"] == [(CONTEST, "closed", TABLES, TABLES * SESSIONS, got["contests"][0][4],
                                sorted(list(range(1, TABLES + 1)) * SESSIONS))]
    assert sum(1 for s in got["sessions"].values() if s[3]) == TABLES * SESSIONS
    assert all(s[1] == "completed" for s in got["sessions"].values())
    shared = got["sessions"][(("D1", "D2", "D3"), 0)]
    assert shared[2] == 10 and len(set(shared[6])) == 10


@pytest.mark.parametrize("table", [1, 2])
def test_table_plans_exercise_streaks_and_crashes(table):
    games = [g for s in table_plan(table, SESSIONS) for g in s]
    assert any(c is not None for _, c in games)
    assert max(len(list(group)) for _, group in itertools.groupby(w for w, _ in games)) >= 2


def _open_and_add(url, name, barrier, results):
    barrier.wait(timeout=60)
    with Club(url, create=True) as club:
        club.add_player(name)
        results.put(name)


def test_tables_opening_a_new_club_at_once_migrate_it_once(db_url):
    """Three tables started together on an empty database: one creates the schema,
    the others wait for it and use it."""
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(3), ctx.Queue()
    procs = [ctx.Process(target=_open_and_add, args=(db_url, f"P{i}", barrier, results)) for i in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    with Club(db_url, create=False) as club:
        assert sorted(p.name for p in club.players()) == ["P0", "P1", "P2"]
