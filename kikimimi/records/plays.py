"""Every game a table finishes, whatever the game: each player's game history.

The rank ladder is the Trident's (official sessions, `club.py`); an evening
at a club table also plays 鬼探し, 闇に笑う魔女, マフィア42 and イントリーゲ,
and a player wants "what did I play, and how did it go" for all of them.  A
play is the game's name, its `game-over` event and one row per seat: the
club player sitting there (or a guest), the place, whether that seat won
and its team.  It moves no ladder counter.  Written once per game: its
identity (`game_identity`) is unique, so a table recording again after a
restart cannot count a game twice.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kikimimi.records.errors import AlreadyRecorded, RecordsError

if TYPE_CHECKING:
    from kikimimi.records.club import Club

#: Bounds on what a game-over event may claim (it is untrusted: a log offered by hand).
MAX_SEATS = 64
MAX_WORD = 40
MAX_EVENT_BYTES = 64 * 1024


@dataclass(frozen=True)
class Play:
    """One finished game as the records hold it."""

    id: int
    game: str
    players: int
    table: str
    reason: str
    winner: str | None  # the winning team, for the team games
    recorded_at: str
    session_id: int | None


@dataclass(frozen=True)
class PlayResult:
    """One player's line in their game history."""

    play: Play
    seat: int
    place: int
    won: bool
    team: str | None


def _word(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_WORD or not value.isprintable():
        raise RecordsError(f"a game-over's {what} must be a word of at most {MAX_WORD} characters, not {value!r}")
    return value


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_result(game: str, event: Mapping[str, Any], players: int | None = None) -> list[dict[str, Any]]:
    """The ranking of a game-over event, each entry with seat, place, won and team; one line if malformed."""
    if not isinstance(event, Mapping) or event.get("type", "game-over") != "game-over":
        raise RecordsError("not a game-over event")
    _word(game, "game")
    _word(event.get("reason"), "reason")
    ranking = event.get("ranking")
    if not isinstance(ranking, Sequence) or isinstance(ranking, (str, bytes)) or not ranking \
            or len(ranking) > MAX_SEATS or not all(isinstance(e, Mapping) for e in ranking):
        raise RecordsError("a game-over needs a ranking: a list of seats")
    out = []
    for entry in ranking:
        seat, place, won = entry.get("seat"), entry.get("place"), entry.get("won")
        if not _whole(seat, 1, MAX_SEATS) or not _whole(place, 1, MAX_SEATS):
            raise RecordsError(f"a ranking entry needs a seat and a place (1-{MAX_SEATS}), not {dict(entry)}")
        if won is not None and not isinstance(won, bool):
            raise RecordsError(f"a ranking entry's won is true or false, not {won!r}")
        out.append({"seat": seat, "place": place, "won": place == 1 if won is None else won,
                    "team": _word(entry.get("team"), "team")})
    if len({e["seat"] for e in out}) != len(out):
        raise RecordsError("a ranking names one seat twice")
    if players is not None and sorted(e["seat"] for e in out) != list(range(1, players + 1)):
        raise RecordsError(f"the ranking's seats are not the game's {players} seats")
    return out


def record_play(club: "Club", game: str, event: Mapping[str, Any], seat_players: Mapping[int, int | str], *,
                table: str = "", game_id: str | None = None, session_id: int | None = None) -> Play:
    """Record one finished game (one transaction).  `seat_players`: seat -> player (id or name);
    a seat not in it is a guest.  Raises AlreadyRecorded for a game whose identity is held."""
    from kikimimi.records.club import _check_game_key, _now

    entries = check_result(game, event)
    key = _check_game_key(game_id)
    table = str(table)[:MAX_WORD]
    text = json.dumps(dict(event), ensure_ascii=False, sort_keys=True)
    if len(text.encode()) > MAX_EVENT_BYTES:
        raise RecordsError(f"a game-over event of more than {MAX_EVENT_BYTES} bytes is not a result")
    seats = {int(seat): ref for seat, ref in seat_players.items()}
    unknown = sorted(set(seats) - {e["seat"] for e in entries})
    if unknown:
        raise RecordsError(f"seat {unknown[0]} is not in the game's ranking")

    def body() -> Play:
        if key is not None:
            row = club.db.one("SELECT id FROM plays WHERE game_key = ?", (key,))
            if row is not None:
                raise AlreadyRecorded(f"this game is already recorded (play {row[0]}); not recorded again")
        ids = {seat: club.player(ref).id for seat, ref in seats.items()}
        if len(set(ids.values())) != len(ids):
            raise RecordsError("one player is given two seats")
        if session_id is not None:
            club.session(session_id)  # refuses a session that does not exist
        winner = _word(event.get("winner"), "winner")
        play_id = club.db.value(
            "INSERT INTO plays (game, players, table_name, reason, winner, recorded_at, event, game_key, session_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (game, len(entries), table, str(event.get("reason", "")), winner, _now(), text, key, session_id))
        for e in entries:
            club.db.execute(
                "INSERT INTO play_results (play_id, seat, player_id, place, won, team) VALUES (?, ?, ?, ?, ?, ?)",
                (play_id, e["seat"], ids.get(e["seat"]), e["place"], int(e["won"]), e["team"]))
        return _play(club.db.one("SELECT * FROM plays WHERE id = ?", (play_id,)))

    return club._write(body)


def history(club: "Club", player_ref: int | str, game: str | None = None) -> list[PlayResult]:
    """A player's games, oldest first (of one game, or of every game)."""
    pid = club.player(player_ref).id
    sql = ("SELECT p.*, r.seat, r.place, r.won, r.team FROM play_results r JOIN plays p ON p.id = r.play_id "
           "WHERE r.player_id = ?")
    params: tuple[Any, ...] = (pid,)
    if game is not None:
        sql += " AND p.game = ?"
        params += (game,)
    rows = club.db.all(sql + " ORDER BY p.id", params)
    return [PlayResult(_play(r), r["seat"], r["place"], bool(r["won"]), r["team"]) for r in rows]


def plays(club: "Club") -> list[Play]:
    """Every game the club's tables finished, oldest first."""
    return [_play(r) for r in club.db.all("SELECT * FROM plays ORDER BY id")]


def _play(row: Any) -> Play:
    return Play(row["id"], row["game"], row["players"], row["table_name"], row["reason"], row["winner"],
                row["recorded_at"], row["session_id"])
