"""Club records for the Trident: players, official practice sessions, the
rank ladder, peerage and seating, kept in one SQLite file per club.

The daemon calls `record_game_over(session_id, event, seat_players)` when a
game ends at a table attached to a session; everything else is reached from
`kikimimi players|session|contest|seating|export` (kikimimi/cli/records.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.records.club import Club, GameRecord, Player, SessionInfo, Settlement
from kikimimi.records.errors import NotCounted, RecordsError
from kikimimi.records.ladder import Ladder, Rank
from kikimimi.records.schema import default_path, open_database

__all__ = [
    "Club", "GameRecord", "Ladder", "NotCounted", "Player", "Rank", "RecordsError",
    "SessionInfo", "Settlement", "default_path", "open_database", "record_game_over",
]


def record_game_over(
    session_id: int, event: Mapping[str, Any], seat_players: Mapping[int, int | str], *, db: Any = None
) -> GameRecord:
    """The daemon's hook: record one finished game of an official session.

    `db` is the club file (default: $KIKIMIMI_DB or the user's club file).
    Raises NotCounted for games that do not count (not 3 players, stopped)
    and RecordsError for anything else refused; nothing is written then.
    """
    with Club(db) as club:
        return club.record_game_over(session_id, event, seat_players)
