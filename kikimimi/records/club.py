"""A club's records: players, official practice sessions, contests, settlements.

Every write is one transaction (`Database.transaction`): a game result
together with every ladder counter it moves, a settlement together with every
player's new rank.  A process killed at any point leaves either the whole
game or none of it, and an open session simply continues with the next game.
Several tables may write at once (PostgreSQL): a transaction that lost a race
is run again from its start, so it never writes a ladder read before another
table's game changed it.
"""
from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from kikimimi.records import ladder as L
from kikimimi.records.backend import Database
from kikimimi.records.basics import SESSION_KINDS, Target
from kikimimi.records.basics import now as _now
from kikimimi.records.contest_tables import claim_table
from kikimimi.records.errors import AlreadyRecorded, NotCounted, RecordsError
from kikimimi.records.schema import open_database

T = TypeVar("T")

PLAYERS_PER_GAME = 3
MAX_SCORE = 1_000_000  # pieces or points in one game: far above any real hand, far below a column's limit
_LADDER_COLUMNS = (
    "rank peerage wins firsts games crashes run crash_run four_streaks contests sessions".split()
)


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    kana: str
    form: str
    created_at: str
    rank_since: int | None
    ladder: L.Ladder

    @property
    def rank(self) -> L.Rank:
        return self.ladder.rank

    @property
    def peerage(self) -> int:
        return self.ladder.peerage

    @property
    def rank_key(self) -> str:
        return L.rank_key(self.ladder.rank, self.form)

    @property
    def peerage_key(self) -> str:
        return L.peerage_key(self.ladder.peerage, self.form)

    @property
    def first_time(self) -> bool:
        """Never finished an official session (no rank yet)."""
        return self.ladder.rank is L.Rank.NONE


@dataclass(frozen=True)
class Settlement:
    id: int
    player_id: int
    session_id: int | None
    contest_id: int | None
    at: str
    rank_before: L.Rank
    rank_after: L.Rank
    peerage_before: int
    peerage_after: int
    wins_before: int
    wins_after: int
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class SessionInfo:
    id: int
    kind: str
    planned: int
    status: str
    started_at: str
    ended_at: str | None
    seats: dict[int, int]  # seat -> player id
    games: int
    contest_id: int | None = None  # the contest across tables this session is a table of
    table: int | None = None  # its table number in that contest


@dataclass(frozen=True)
class GameRecord:
    session_id: int
    number: int
    game_id: int
    winner: int  # player id
    settlements: tuple[Settlement, ...]  # non-empty when this game completed the session
    game_key: str | None = None  # the game's identity, when the recorder gave one


class Club:
    """The records of one club, in an SQLite file or a PostgreSQL database.

    `target` is a path or a postgresql:// URL (default: $KIKIMIMI_DB or the
    user's club file).  `create=False` refuses a database that does not exist
    yet, for commands that only read.
    """

    def __init__(self, target: Target = None, *, create: bool = True):
        self.db: Database = open_database(target, create=create)

    @property
    def conn(self) -> Database:
        """The database, for queries of one's own (export, tests)."""
        return self.db

    @property
    def where(self) -> str:
        return self.db.where

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Club:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, body: Callable[[], T]) -> T:
        """Run `body` as one transaction (again from its start if it lost a race)."""
        return self.db.transaction(body)

    # -- players ---------------------------------------------------------

    def add_player(self, name: str, kana: str = "", form: str = "king") -> Player:
        """Register a player.  `kana` is the spoken name at Japanese tables (may be
        empty at a club whose tables speak English: the display name is spoken)."""
        name, kana = name.strip(), kana.strip()
        if not name:
            raise RecordsError("a player needs a display name")
        if len(name) > 80 or len(kana) > 80 or not (name + kana).isprintable():
            raise RecordsError("a player's name and kana are at most 80 printable characters")
        if form not in L.FORMS:
            raise RecordsError(f"form must be one of {', '.join(L.FORMS)}, not {form!r}")

        def body() -> int:
            if self.db.one("SELECT id FROM players WHERE name = ?", (name,)) is not None:
                raise RecordsError(f"a player named {name!r} already exists")
            return self.db.value(
                "INSERT INTO players (name, kana, form, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                (name, kana, form, _now()),
            )

        return self.player(self._write(body))

    def player(self, ref: int | str) -> Player:
        """A player by id (int, or "#3") or by display name."""
        row = None
        if isinstance(ref, int) or (isinstance(ref, str) and ref.startswith("#") and ref[1:].isdigit()):
            pid = ref if isinstance(ref, int) else int(ref[1:])
            if 0 < pid < 2**31:
                row = self.db.one("SELECT * FROM players WHERE id = ?", (pid,))
        else:
            row = self.db.one("SELECT * FROM players WHERE name = ?", (ref,))
        if row is None:
            raise RecordsError(f"no player {ref!r}")
        return self._player_from_row(row)

    def players(self) -> list[Player]:
        return [self._player_from_row(r) for r in self.db.all("SELECT * FROM players ORDER BY id")]

    def _player_from_row(self, row: Any) -> Player:
        values = {c: row[c] for c in _LADDER_COLUMNS}
        values["rank"] = L.Rank(values["rank"])
        bonuses = dict(self.db.all("SELECT rank, count FROM streak_bonuses WHERE player_id = ?", (row["id"],)))
        return Player(
            id=row["id"], name=row["name"], kana=row["kana"], form=row["form"],
            created_at=row["created_at"], rank_since=row["rank_since"],
            ladder=L.Ladder(**values, bonuses=bonuses),
        )

    def _save_ladder(self, player_id: int, ladder: L.Ladder, rank_since: int | None = None) -> None:
        sets = ", ".join(f"{c} = ?" for c in _LADDER_COLUMNS)
        values = [int(getattr(ladder, c)) for c in _LADDER_COLUMNS]
        if rank_since is not None:
            sets += ", rank_since = ?"
            values.append(rank_since)
        self.db.execute(f"UPDATE players SET {sets} WHERE id = ?", (*values, player_id))
        for rank, count in ladder.bonuses.items():
            self.db.execute(
                "INSERT INTO streak_bonuses (player_id, rank, count) VALUES (?, ?, ?) "
                "ON CONFLICT (player_id, rank) DO UPDATE SET count = excluded.count",
                (player_id, int(rank), count),
            )

    # -- sessions ----------------------------------------------------------

    def start_session(
        self, kind: str, seat_players: Mapping[int, int | str], *,
        contest: int | str | None = None, table: int | None = None,
    ) -> SessionInfo:
        """Open a full or half trial with its seat -> player mapping.

        With `contest`, the session is one table of that contest across
        tables (`table`: its number, default the lowest one free)."""
        if kind not in SESSION_KINDS:
            raise RecordsError(f"session kind must be full or half, not {kind!r}")
        seats = self._resolve_seats(seat_players)
        if len(seats) != PLAYERS_PER_GAME:
            raise RecordsError(f"an official practice session has {PLAYERS_PER_GAME} players, not {len(seats)}")

        def body() -> int:
            for pid in seats.values():
                busy = self._open_session_of(pid)
                if busy is not None:
                    raise RecordsError(f"{self.player(pid).name} is already playing in open session {busy}")
            contest_id = table_no = None
            if contest is not None:
                contest_id, table_no = claim_table(self.db, contest, table, kind)
            sid = self.db.value(
                "INSERT INTO sessions (kind, planned, started_at, contest_id, table_no) VALUES (?, ?, ?, ?, ?) "
                "RETURNING id",
                (kind, SESSION_KINDS[kind], _now(), contest_id, table_no),
            )
            for seat, pid in sorted(seats.items()):
                self.db.execute(
                    "INSERT INTO session_players (session_id, seat, player_id) VALUES (?, ?, ?)", (sid, seat, pid)
                )
            return sid

        return self.session(self._write(body))

    def _open_session_of(self, player_id: int) -> int | None:
        return self.db.value(
            "SELECT s.id FROM sessions s JOIN session_players sp ON sp.session_id = s.id "
            "WHERE s.status = 'open' AND sp.player_id = ?", (player_id,),
        )

    def _resolve_seats(self, seat_players: Mapping[int, int | str]) -> dict[int, int]:
        seats: dict[int, int] = {}
        for seat, ref in seat_players.items():
            try:
                seat = int(seat)
            except (TypeError, ValueError):
                raise RecordsError(f"seat {seat!r} is not a number") from None
            if not 1 <= seat <= 64:
                raise RecordsError(f"seat {seat} does not exist (seats count from 1)")
            seats[seat] = self.player(ref).id
        if len(set(seats.values())) != len(seats):
            raise RecordsError("one player is given two seats")
        return seats

    def session(self, session_id: int) -> SessionInfo:
        row = self.db.one("SELECT * FROM sessions WHERE id = ?", (session_id,)) if 0 < session_id < 2**31 else None
        if row is None:
            raise RecordsError(f"no session {session_id}")
        seats = dict(self.db.all(
            "SELECT seat, player_id FROM session_players WHERE session_id = ? ORDER BY seat", (session_id,)
        ))
        games = self.db.value("SELECT count(*) FROM games WHERE session_id = ?", (session_id,))
        return SessionInfo(
            id=row["id"], kind=row["kind"], planned=row["planned"], status=row["status"],
            started_at=row["started_at"], ended_at=row["ended_at"], seats=seats, games=int(games),
            contest_id=row["contest_id"], table=row["table_no"],
        )

    def sessions(self, status: str | None = None) -> list[SessionInfo]:
        if status is None:
            ids = self.db.all("SELECT id FROM sessions ORDER BY id")
        else:
            ids = self.db.all("SELECT id FROM sessions WHERE status = ? ORDER BY id", (status,))
        return [self.session(i[0]) for i in ids]

    def record_game_over(
        self, session_id: int, event: Mapping[str, Any], seat_players: Mapping[int, int | str], *,
        game_id: str | None = None,
    ) -> GameRecord:
        """Record one Trident game of an open session from its `game-over` event.

        `game_id` identifies the game (e.g. `game_identity(journal bytes)`):
        a game already recorded under it is refused with AlreadyRecorded,
        so a table that records again after a restart, or a log recorded
        twice, cannot count one game twice.  The game, every player's
        counters and (after the session's last game) the settlement are one
        transaction.  Raises NotCounted for games the official records
        ignore, RecordsError for anything malformed.
        """
        key = _check_game_key(game_id)
        ranking = _check_game_over(event)
        seats = self._resolve_seats(seat_players)
        event_text = json.dumps(dict(event), ensure_ascii=False, sort_keys=True)

        def body() -> GameRecord:
            if key is not None:
                _refuse_if_recorded(self.db, key)
            info = self.session(session_id)
            if info.status != "open":
                raise RecordsError(f"session {session_id} is {info.status}; start a new session")
            if sorted(seats.values()) != sorted(info.seats.values()):
                raise RecordsError(f"the seated players are not the players of session {session_id}")
            if sorted(seats) != sorted(e["seat"] for e in ranking):
                raise RecordsError(
                    f"the ranking's seats {sorted(e['seat'] for e in ranking)} do not match the seats given {sorted(seats)}"
                )
            number = info.games + 1
            game_row = self.db.value(
                "INSERT INTO games (session_id, number, reason, recorded_at, event, game_key) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (session_id, number, event["reason"], _now(), event_text, key),
            )
            winner = 0
            for entry in ranking:
                pid = seats[entry["seat"]]
                player = self.player(pid)
                first, crash = entry["place"] == 1, bool(entry.get("crash", False))
                if first:
                    winner = pid
                rank_during = int(player.ladder.rank)
                mark = L.apply_game(player.ladder, first=first, crash=crash)
                self._save_ladder(pid, player.ladder)
                self.db.execute(
                    "INSERT INTO game_results (game_id, player_id, seat, place, pieces, points, crash, rank_during) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_row, pid, entry["seat"], entry["place"], entry.get("pieces"), entry.get("points"),
                     int(crash), rank_during),
                )
                if mark.crash_episode:
                    self.db.execute(
                        "UPDATE session_players SET demotion_at_wins = ? "
                        "WHERE session_id = ? AND player_id = ? AND demotion_at_wins IS NULL",
                        (player.ladder.wins, session_id, pid),
                    )
            settlements: tuple[Settlement, ...] = ()
            if number >= info.planned:
                settlements = self._settle(session_id)
            return GameRecord(session_id, number, game_row, winner, settlements, key)

        return self._write(body)

    def end_session(self, session_id: int, *, abandon: bool = False) -> tuple[Settlement, ...]:
        """End a session: settle it if all its games are in, or abandon it.

        Ruling: a session short of its planned games is not an official
        practice session; it can only be abandoned (its games still count
        for wins and streaks, but nothing is settled).
        """
        def body() -> tuple[Settlement, ...]:
            info = self.session(session_id)
            if info.status != "open":
                raise RecordsError(f"session {session_id} is already {info.status}")
            if abandon:
                self.db.execute(
                    "UPDATE sessions SET status = 'abandoned', ended_at = ? WHERE id = ?", (_now(), session_id)
                )
                return ()
            if info.games < info.planned:
                raise RecordsError(
                    f"session {session_id} has {info.games} of {info.planned} games; "
                    "record the rest, or end it with --abandon"
                )
            return self._settle(session_id)

        return self._write(body)

    def _settle(self, session_id: int) -> tuple[Settlement, ...]:
        """Settle every player of a finished session (inside the caller's transaction)."""
        at = _now()
        self.db.execute("UPDATE sessions SET status = 'completed', ended_at = ? WHERE id = ?", (at, session_id))
        out = []
        rows = self.db.all(
            "SELECT player_id, demotion_at_wins FROM session_players WHERE session_id = ? ORDER BY seat",
            (session_id,),
        )
        for pid, demotion_at in rows:
            player = self.player(pid)
            before = copy.deepcopy(player.ladder)
            reasons = L.settle_session(player.ladder, demotion_at)
            out.append(self._store_settlement(player, before, reasons, at, session_id=session_id))
        return tuple(out)

    def _store_settlement(
        self, player: Player, before: L.Ladder, reasons: list[str], at: str, *,
        session_id: int | None = None, contest_id: int | None = None,
    ) -> Settlement:
        after = player.ladder
        sid = self.db.value(
            "INSERT INTO settlements (player_id, session_id, contest_id, at, rank_before, rank_after, "
            "peerage_before, peerage_after, wins_before, wins_after, reasons) VALUES (?,?,?,?,?,?,?,?,?,?,?) "
            "RETURNING id",
            (player.id, session_id, contest_id, at, int(before.rank), int(after.rank), before.peerage,
             after.peerage, before.wins, after.wins, json.dumps(reasons or ["no-change"])),
        )
        self._save_ladder(player.id, after, rank_since=sid if after.rank != before.rank else None)
        return self._settlement_from_row(self.db.one("SELECT * FROM settlements WHERE id = ?", (sid,)))

    # -- contests and history ------------------------------------------------

    def record_contest(self, player_ref: int | str, name: str) -> Settlement:
        """A contest (tournament) won: settles at once, outside any session."""
        if not name.strip():
            raise RecordsError("a contest needs a name")
        return self._write(lambda: self._win_contest(self.player(player_ref), name.strip()))

    def _win_contest(self, player: Player, name: str) -> Settlement:
        """The winner's peerage step and rank (inside the caller's transaction)."""
        busy = self._open_session_of(player.id)
        if busy is not None:
            raise RecordsError(f"{player.name} is in open session {busy}; record the contest after it ends")
        at = _now()
        won = self.db.value(
            "INSERT INTO contests (player_id, name, recorded_at) VALUES (?, ?, ?) RETURNING id", (player.id, name, at)
        )
        before = copy.deepcopy(player.ladder)
        reasons = L.apply_contest(player.ladder)
        return self._store_settlement(player, before, reasons, at, contest_id=won)

    def history(self, player_ref: int | str) -> list[Settlement]:
        pid = self.player(player_ref).id
        rows = self.db.all("SELECT * FROM settlements WHERE player_id = ? ORDER BY id", (pid,))
        return [self._settlement_from_row(r) for r in rows]

    @staticmethod
    def _settlement_from_row(row: Any) -> Settlement:
        return Settlement(
            id=row["id"], player_id=row["player_id"], session_id=row["session_id"],
            contest_id=row["contest_id"], at=row["at"],
            rank_before=L.Rank(row["rank_before"]), rank_after=L.Rank(row["rank_after"]),
            peerage_before=row["peerage_before"], peerage_after=row["peerage_after"],
            wins_before=row["wins_before"], wins_after=row["wins_after"],
            reasons=tuple(json.loads(row["reasons"])),
        )


def game_identity(journal: bytes, last_line: int | None = None) -> str:
    """A game's identity from its journal's (or event log's) bytes: the same game, the same id.

    `last_line` (the game-over event's `in`: the journal line that ended the
    game, the header being line 1) keeps only the lines up to it, so what a
    table journals after the game ended (a scan answered "the game is over",
    a restart) does not make it another game."""
    if last_line is not None:
        if not isinstance(last_line, int) or isinstance(last_line, bool) or last_line < 1:
            raise RecordsError(f"a journal line number counts from 1, not {last_line!r}")
        journal = b"\n".join(journal.split(b"\n")[:last_line])
    return "sha256:" + hashlib.sha256(journal).hexdigest()


def _check_game_key(game_id: object) -> str | None:
    if game_id is None:
        return None
    if not isinstance(game_id, str) or not 1 <= len(game_id) <= 200 or not game_id.isprintable():
        raise RecordsError("a game's identity must be 1 to 200 printable characters")
    return game_id


def _refuse_if_recorded(db: Database, key: str) -> None:
    row = db.one("SELECT session_id, number FROM games WHERE game_key = ?", (key,))
    if row is not None:
        raise AlreadyRecorded(f"this game is already recorded (session {row[0]}, game {row[1]}); not recorded again")


def _check_game_over(event: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ranking of a countable Trident game-over event, or a one-line refusal."""
    if not isinstance(event, Mapping):
        raise RecordsError("a game-over event must be a JSON object")
    if event.get("type", "game-over") != "game-over":
        raise RecordsError(f"not a game-over event (type {event.get('type')!r})")
    reason = event.get("reason")
    if reason not in ("out", "crash", "stopped"):
        raise RecordsError(f"game-over reason must be out, crash or stopped, not {reason!r}")
    ranking = event.get("ranking")
    if not isinstance(ranking, Sequence) or not all(isinstance(e, Mapping) for e in ranking):
        raise RecordsError("game-over has no ranking list")
    if len(ranking) != PLAYERS_PER_GAME:
        raise NotCounted(f"only {PLAYERS_PER_GAME}-player games count; this one had {len(ranking)}")
    if reason == "stopped":
        raise NotCounted("a game stopped by the referee is not an official result; play it again")
    entries = []
    for e in ranking:
        seat, place = e.get("seat"), e.get("place")
        if not isinstance(seat, int) or not isinstance(place, int) or isinstance(seat, bool) or isinstance(place, bool):
            raise RecordsError(f"ranking entry {dict(e)} needs whole-number seat and place")
        for key in ("pieces", "points"):
            value = e.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or not -MAX_SCORE <= value <= MAX_SCORE):
                raise RecordsError(f"ranking entry's {key} must be a whole number up to {MAX_SCORE}, not {value!r}")
        entries.append(dict(e))
    if sorted(e["place"] for e in entries) != list(range(1, PLAYERS_PER_GAME + 1)):
        raise RecordsError(f"ranking places must be 1..{PLAYERS_PER_GAME}, each once")
    if len({e["seat"] for e in entries}) != len(entries):
        raise RecordsError("ranking names one seat twice")
    crashed = [e for e in entries if e.get("crash")]
    if reason == "crash":
        if len(crashed) != 1 or crashed[0]["place"] != PLAYERS_PER_GAME:
            raise RecordsError("a crash game needs exactly one crashed player, in last place")
    elif crashed:
        raise RecordsError(f"a game over by {reason!r} cannot have a crashed player")
    return sorted(entries, key=lambda e: e["place"])
