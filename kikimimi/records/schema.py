"""Opening a club's records database: refuse what is not ours, migrate what is.

A club's file is precious (years of ranks), so nothing is written to a file
until it is known to be ours: a file that is not SQLite, an SQLite file
without our `application_id` marker, or one from a newer kikimimi is refused
with one line and left byte for byte as it was.  Migrations run each in its
own immediate transaction, so two processes opening a new file at once
cannot both apply one.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kikimimi.records.errors import RecordsError

#: "kkrc" — marks a kikimimi records database (PRAGMA application_id).
APPLICATION_ID = 0x6B6B7263

_V1 = (
    """CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kana TEXT NOT NULL,
        form TEXT NOT NULL CHECK (form IN ('king', 'queen')),
        created_at TEXT NOT NULL,
        rank INTEGER NOT NULL DEFAULT 0 CHECK (rank BETWEEN 0 AND 6),
        rank_since INTEGER,
        peerage INTEGER NOT NULL DEFAULT 0 CHECK (peerage BETWEEN 0 AND 5),
        wins INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
        firsts INTEGER NOT NULL DEFAULT 0,
        games INTEGER NOT NULL DEFAULT 0,
        crashes INTEGER NOT NULL DEFAULT 0,
        run INTEGER NOT NULL DEFAULT 0,
        crash_run INTEGER NOT NULL DEFAULT 0,
        four_streaks INTEGER NOT NULL DEFAULT 0,
        contests INTEGER NOT NULL DEFAULT 0,
        sessions INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE streak_bonuses (
        player_id INTEGER NOT NULL REFERENCES players(id),
        rank INTEGER NOT NULL CHECK (rank BETWEEN 0 AND 6),
        count INTEGER NOT NULL CHECK (count >= 0),
        PRIMARY KEY (player_id, rank)
    )""",
    """CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('full', 'half')),
        planned INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'abandoned')),
        started_at TEXT NOT NULL,
        ended_at TEXT
    )""",
    """CREATE TABLE session_players (
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        seat INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id),
        demotion_at_wins INTEGER,
        PRIMARY KEY (session_id, player_id),
        UNIQUE (session_id, seat)
    )""",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        number INTEGER NOT NULL,
        reason TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        event TEXT NOT NULL,
        UNIQUE (session_id, number)
    )""",
    """CREATE TABLE game_results (
        game_id INTEGER NOT NULL REFERENCES games(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        seat INTEGER NOT NULL,
        place INTEGER NOT NULL,
        pieces INTEGER,
        points INTEGER,
        crash INTEGER NOT NULL,
        rank_during INTEGER NOT NULL,
        PRIMARY KEY (game_id, player_id)
    )""",
    """CREATE TABLE contests (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        name TEXT NOT NULL,
        recorded_at TEXT NOT NULL
    )""",
    """CREATE TABLE settlements (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        session_id INTEGER REFERENCES sessions(id),
        contest_id INTEGER REFERENCES contests(id),
        at TEXT NOT NULL,
        rank_before INTEGER NOT NULL,
        rank_after INTEGER NOT NULL,
        peerage_before INTEGER NOT NULL,
        peerage_after INTEGER NOT NULL,
        wins_before INTEGER NOT NULL,
        wins_after INTEGER NOT NULL,
        reasons TEXT NOT NULL
    )""",
    "CREATE INDEX game_results_player ON game_results(player_id)",
    "CREATE INDEX settlements_player ON settlements(player_id)",
    "CREATE INDEX session_players_player ON session_players(player_id)",
)

#: MIGRATIONS[i] brings a database from user_version i to i + 1.
MIGRATIONS: list[tuple[str, ...]] = [_V1]


def latest_version() -> int:
    return len(MIGRATIONS)


def default_path() -> Path:
    """$KIKIMIMI_DB, else ~/.local/share/kikimimi/club.sqlite."""
    env = os.environ.get("KIKIMIMI_DB")
    if env:
        return Path(env)
    return Path.home() / ".local" / "share" / "kikimimi" / "club.sqlite"


def _inspect(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; raises if the file is not ours.  Reads only."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise RecordsError(f"{path}: not a kikimimi records database ({exc})") from None
    if app_id == 0 and version == 0 and objects == 0:
        return 0  # a new, empty file
    if app_id != APPLICATION_ID:
        raise RecordsError(f"{path}: not a kikimimi records database (no kikimimi schema marker); refusing to touch it")
    if version > latest_version():
        raise RecordsError(
            f"{path}: schema version {version} is newer than this kikimimi knows ({latest_version()}); upgrade kikimimi"
        )
    return version


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the missing migrations; returns the final schema version."""
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version >= latest_version():
                conn.execute("COMMIT")
                return version
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def open_database(path: str | os.PathLike[str] | None = None) -> sqlite3.Connection:
    """A connection to the club's file, validated and migrated.

    WAL with synchronous=FULL: a committed game survives a kill or a power
    cut, and a game being written when the process dies is simply absent.
    """
    path = Path(path) if path is not None else default_path()
    if path.is_dir():
        raise RecordsError(f"{path}: is a directory, not a records database")
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordsError(f"{path}: cannot create its folder ({exc.strerror})") from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    except sqlite3.Error as exc:
        raise RecordsError(f"{path}: cannot open ({exc})") from None
    try:
        _inspect(conn, path)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        migrate(conn)
    except RecordsError:
        conn.close()
        raise
    except sqlite3.Error as exc:
        conn.close()
        raise RecordsError(f"{path}: {exc}") from None
    conn.row_factory = sqlite3.Row
    return conn
