"""Tables of a club evening for the concurrency test and the bench: each
table plays its own players' official sessions, all attached to one contest,
and finishes its games at the same moment as the others (a barrier).

`table_plan` is deterministic, so the same games can be recorded by several
processes at once or one by one, and the records compared.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from records_helpers import game_over

from kikimimi.records import AlreadyRecorded, Club

CONTEST = "Evening Cup"


def table_players(table: int) -> list[str]:
    return [f"T{table}P{k}" for k in (1, 2, 3)]


def table_plan(table: int, sessions: int, seed: int = 19) -> list[list[tuple[int, int | None]]]:
    """Per session, the 5 games of a half trial as (winning seat, crashed seat or None).

    Runs of wins (streak bonuses, 4-win streaks) and back-to-back crashes
    (demotion episodes) are frequent, so settlements have much to get right."""
    rng = random.Random(seed * 1000 + table)
    plan = []
    for _ in range(sessions):
        games = []
        streaker = rng.randint(1, 3)
        for _ in range(5):
            winner = streaker if rng.random() < 0.6 else rng.randint(1, 3)
            crash = None
            if rng.random() < 0.35:
                crash = rng.choice([s for s in (1, 2, 3) if s != winner])
            games.append((winner, crash))
        plan.append(games)
    return plan


def setup_club(url: str, tables: int) -> None:
    """The players of every table, the contest, and the shared session (a full trial) of the race."""
    with Club(url, create=True) as club:
        for t in range(1, tables + 1):
            for name in table_players(t):
                club.add_player(name)
        for name in ("D1", "D2", "D3"):
            club.add_player(name)
        from kikimimi.records.contest import start_contest

        start_contest(club, CONTEST, tables, "half")
        club.start_session("full", {1: "D1", 2: "D2", 3: "D3"})


def table_steps(club: Club, table: int, sessions: int) -> Iterator[None]:
    """One table's sessions, one write per step (a session's start, then each game)."""
    seats = {i + 1: n for i, n in enumerate(table_players(table))}
    for s, games in enumerate(table_plan(table, sessions)):
        sid = club.start_session("half", seats, contest=CONTEST).id
        yield
        for k, (winner, crash) in enumerate(games):
            club.record_game_over(sid, game_over(winner, crash), seats, game_id=f"table{table}-s{s}-g{k}")
            yield


def play_tables_in_turn(club: Club, tables: int, sessions: int) -> None:
    """Every table's steps one by one, in turns: table 1's, then table 2's, ..."""
    for _ in zip(*(table_steps(club, t, sessions) for t in range(1, tables + 1))):
        pass


def race_game(club: Club, table: int, r: int) -> bool:
    """Round `r` of the shared session: on even rounds every table offers the same
    game (one must record it, the others are refused); on odd rounds each offers
    a game of its own with the same result (all are recorded, one after another,
    into the same session and the same players' ladders).  True if recorded."""
    key = f"shared-{r}" if r % 2 == 0 else f"shared-{r}-table{table}"
    try:
        club.record_game_over(_shared_session(club), game_over(1 + r % 3), {1: "D1", 2: "D2", 3: "D3"}, game_id=key)
    except AlreadyRecorded:
        return False
    return True


def _shared_session(club: Club) -> int:
    d1 = club.player("D1").id
    return club.db.value(
        "SELECT s.id FROM sessions s JOIN session_players sp ON sp.session_id = s.id "
        "WHERE sp.player_id = ? ORDER BY s.id", (d1,),
    )


def worker(url: str, table: int, sessions: int, rounds: int, barrier: Any, results: Any) -> None:
    """A table's process: its sessions, then the shared session's race; reports
    (table, shared games it recorded, transactions it had to run again)."""
    def wait() -> None:
        barrier.wait(timeout=120)

    with Club(url, create=False) as club:
        steps = table_steps(club, table, sessions)
        while True:
            wait()
            if next(steps, StopIteration) is StopIteration:
                break
        recorded = 0
        for r in range(rounds):
            wait()
            recorded += race_game(club, table, r)
        results.put((table, recorded, getattr(club.db, "retries", 0)))


def snapshot(club: Club) -> dict[str, Any]:
    """The records with every id, time and interleaving-dependent number taken out."""
    names = {p.id: p.name for p in club.players()}

    def session_key(sid: int | None) -> Any:
        if sid is None:
            return None
        players = sorted(names[pid] for pid in club.session(sid).seats.values())
        earlier = club.db.value(
            "SELECT count(*) FROM sessions s WHERE s.id < ? AND s.id IN "
            "(SELECT session_id FROM session_players WHERE player_id = ?)",
            (sid, club.player(players[0]).id),
        )
        return (tuple(players), int(earlier))

    players = {}
    for p in club.players():
        lad = p.ladder
        players[p.name] = (int(lad.rank), lad.peerage, lad.wins, lad.firsts, lad.games, lad.crashes, lad.run,
                           lad.crash_run, lad.four_streaks, lad.contests, lad.sessions, dict(sorted(lad.bonuses.items())),
                           [(session_key(s.session_id), int(s.rank_before), int(s.rank_after), s.peerage_before,
                             s.peerage_after, s.wins_before, s.wins_after, s.reasons) for s in club.history(p.id)])
    sessions = {}
    for info in club.sessions():
        games = [
            (g["number"], g["reason"], sorted(
                (names[r["player_id"]], r["seat"], r["place"], r["points"], r["crash"], r["rank_during"])
                for r in club.db.all("SELECT * FROM game_results WHERE game_id = ?", (g["id"],))))
            for g in club.db.all("SELECT * FROM games WHERE session_id = ? ORDER BY number", (info.id,))
        ]
        demotions = sorted(
            (names[r[0]], r[1]) for r in club.db.all(
                "SELECT player_id, demotion_at_wins FROM session_players WHERE session_id = ?", (info.id,)))
        keys = sorted(str(r[0]) for r in club.db.all("SELECT game_key FROM games WHERE session_id = ?", (info.id,)))
        sessions[session_key(info.id)] = (info.kind, info.status, info.games, info.contest_id is not None,
                                          demotions, games, keys)
    from kikimimi.records.contest import contests

    return {"players": players, "sessions": sessions,
            "contests": [(c.name, c.status, c.tables, len(c.sessions), c.winner_id and names[c.winner_id],
                          sorted(t for t, _, _ in c.sessions)) for c in contests(club)]}
