"""Club records for the Trident: players, official practice sessions, the
rank ladder, peerage, seating and contests across tables, kept in an SQLite
file (one table) or a PostgreSQL database (a club with several tables).

The daemon calls `record_game_over(session_id, event, seat_players,
game_id=...)` when a game ends at a table attached to a session; everything
else is reached from `kikimimi players|session|contest|seating|export`
(kikimimi/cli/records.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.records.basics import Target
from kikimimi.records.club import Club, GameRecord, Player, SessionInfo, Settlement, game_identity
from kikimimi.records.errors import AlreadyRecorded, NotCounted, RecordsError
from kikimimi.records.ladder import Ladder, Rank
from kikimimi.records.plays import Play, PlayResult
from kikimimi.records.schema import default_path, default_target, open_database

__all__ = [
    "AlreadyRecorded", "Club", "GameRecord", "Ladder", "NotCounted", "Player", "Rank", "RecordsError",
    "Play", "PlayResult", "SessionInfo", "Settlement", "Target", "default_path", "default_target", "game_identity",
    "open_database", "record_game_over", "record_play",
]


def record_game_over(
    session_id: int, event: Mapping[str, Any], seat_players: Mapping[int, int | str], *, db: Target = None,
    game_id: str | None = None,
) -> GameRecord:
    """The daemon's hook: record one finished game of an official session.

    `db` is the club's file or postgresql:// URL (default: $KIKIMIMI_DB or
    the user's club file); it must exist already (the session is in it).
    `game_id` is the game's identity (`game_identity(journal_bytes)`): the
    same game offered again raises AlreadyRecorded and writes nothing.
    Raises NotCounted for games that do not count (not 3 players, stopped)
    and RecordsError for anything else refused; nothing is written then.
    """
    with Club(db, create=False) as club:
        return club.record_game_over(session_id, event, seat_players, game_id=game_id)


def record_play(
    game: str, event: Mapping[str, Any], seat_players: Mapping[int, int | str], *, db: Target = None,
    table: str = "", game_id: str | None = None, session_id: int | None = None,
) -> Play:
    """The evening's hook: any finished game (every game, not only the Trident's sessions)
    in its players' game history; moves no ladder counter.  `seat_players`: seat ->
    player id or name (a seat left out is a guest).  Raises AlreadyRecorded for a
    game whose `game_id` is held, RecordsError for anything refused."""
    from kikimimi.records.plays import record_play as record

    with Club(db, create=False) as club:
        return record(club, game, event, seat_players, table=table, game_id=game_id, session_id=session_id)
