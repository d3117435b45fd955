"""The two places a club's records can live: an SQLite file or a PostgreSQL server.

One table on its own keeps its club in an SQLite file (nothing to install or
run); a club with several tables playing at once shares one PostgreSQL
database.  Everything above this module writes one portable SQL dialect
(`?` parameters, `INSERT ... RETURNING id`, `ON CONFLICT`) and sees rows that
answer both `row[0]` and `row["name"]`; the differences — how a transaction
starts, which errors mean "try again", how a connection is named in a
message — are kept here, so the records logic is written once.

Writes are whole transactions run by `Database.transaction(body)`, one
writer at a time, as SQLite's `BEGIN IMMEDIATE` queues writers.  On
PostgreSQL the queue is the club database's advisory lock, taken *before*
the transaction begins, so each write's snapshot already holds every earlier
write; the transaction is SERIALIZABLE as well, and one that still loses a
race (a deadlock, a unique key, a client that does not queue) is run again
from the start, a bounded number of times.  Why not let SERIALIZABLE alone
sort the tables out: a club's tables are tiny, PostgreSQL's predicate locks
then cover whole pages, and tables recording games for different players
abort each other — with four tables writing flat out, a third of the writes
ran again and some lost twelve races in a row.  Queued, none retries, and a write is
milliseconds while a table finishes a game every few minutes.
"""
from __future__ import annotations

import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from kikimimi.records.errors import RecordsError

T = TypeVar("T")

#: How many times a write is tried before a serialization failure is the user's one line.
MAX_ATTEMPTS = 12
#: The PostgreSQL advisory lock that queues a club's writers ("kkrc", as the schema's marker).
CLUB_LOCK = 0x6B6B7263
#: How long a write waits for the queue (or SQLite for its lock) before it is a one-line error.
LOCK_WAIT_SECONDS = 30
SCHEMES = ("postgresql://", "postgres://")


def is_server_url(target: object) -> bool:
    """Whether `--db` names a PostgreSQL server rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(SCHEMES)


class Row(tuple):
    """A result row for PostgreSQL that, like sqlite3.Row, answers by index or by column name."""

    _names: dict[str, int]

    def __new__(cls, names: dict[str, int], values: Sequence[Any]) -> Row:
        row = super().__new__(cls, values)
        row._names = names
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


class Database:
    """A connection to a club's records, with the dialect's differences inside."""

    kind = ""

    def __init__(self, where: str):
        self.where = where  # how messages name this database (never a password)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def transaction(self, body: Callable[[], T]) -> T:
        raise NotImplementedError

    @contextmanager
    def queued(self) -> Iterator[None]:
        """Hold the club's write lock across several transactions (SQLite: each takes its own)."""
        yield

    def close(self) -> None:
        raise NotImplementedError

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.execute(sql, params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.execute(sql, params).fetchall()

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.one(sql, params)
        return None if row is None else row[0]


# -- SQLite ------------------------------------------------------------------


class SqliteDatabase(Database):
    kind = "sqlite"

    def __init__(self, path: Path, conn: sqlite3.Connection):
        super().__init__(str(path))
        self.path = path
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        try:
            return self.conn.execute(sql, tuple(params))
        except sqlite3.OperationalError as exc:
            raise RecordsError(f"{self.where}: {exc}") from None

    def transaction(self, body: Callable[[], T]) -> T:
        """One write at a time across processes: the lock is taken before anything is read."""
        if self.conn.in_transaction:
            return body()
        self.execute("BEGIN IMMEDIATE")
        try:
            result = body()
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.execute("COMMIT")
        return result

    def close(self) -> None:
        self.conn.close()


def connect_sqlite(path: Path, *, create: bool) -> SqliteDatabase:
    """Open an SQLite file; a missing file is created only when asked to."""
    if path.is_dir():
        raise RecordsError(f"{path}: is a directory, not a records database")
    if not path.exists():
        if not create:
            raise RecordsError(
                f"{path}: no records database here (create it with `kikimimi players add`, or pass --create)"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordsError(f"{path}: cannot create its folder ({exc.strerror})") from None
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=LOCK_WAIT_SECONDS)
    except sqlite3.Error as exc:
        raise RecordsError(f"{path}: cannot open ({exc})") from None
    return SqliteDatabase(path, conn)


# -- PostgreSQL --------------------------------------------------------------


def _psycopg() -> Any:
    """psycopg is the `postgres` extra: a club on SQLite never needs it."""
    from kikimimi.contract.extras import MissingExtra, need

    try:
        return need("postgres", "PostgreSQL records (postgresql://)")
    except MissingExtra as exc:
        raise RecordsError(str(exc)) from None


def describe_url(url: str) -> str:
    """The URL as messages show it: user, host, port and database, never a password."""
    psycopg = _psycopg()
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        raise RecordsError("--db: not a valid postgresql:// URL") from None
    user = f"{info['user']}@" if info.get("user") else ""
    port = f":{info['port']}" if info.get("port") else ""
    return f"postgresql://{user}{info.get('host', '')}{port}/{info.get('dbname', '')}"


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    names = {c.name: i for i, c in enumerate(cursor.description or ())}
    return lambda values: Row(names, values)


class PostgresDatabase(Database):
    kind = "postgresql"

    def __init__(self, url: str, conn: Any):
        super().__init__(describe_url(url))
        psycopg = _psycopg()
        self.psycopg = psycopg
        self.conn = conn
        # Worth running again from the start: someone else's transaction won a race.  A unique
        # violation is one too (two tables inserting the same key at once); run again, the
        # body's own checks see the other table's row and refuse with their one line.
        self._retry = (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected,
                       psycopg.errors.UniqueViolation)
        self._in_tx = False
        self.retries = 0  # transactions run again after losing a race (bench and tests read it)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if "%" in sql:
            raise ValueError("records SQL must not contain '%' (it is a psycopg placeholder)")
        try:
            return self.conn.execute(sql.replace("?", "%s"), tuple(params))
        except self._retry as exc:
            if self._in_tx:
                raise  # transaction() runs the whole body again
            raise RecordsError(f"{self.where}: {_first_line(exc)}; try again") from None
        except (self.psycopg.OperationalError, self.psycopg.InterfaceError, self.psycopg.DataError) as exc:
            raise RecordsError(f"{self.where}: {_first_line(exc)}") from None

    @contextmanager
    def queued(self) -> Iterator[None]:
        """Hold the club's write lock (a session advisory lock: re-entrant, and
        released by the server if this client dies)."""
        try:
            self.conn.execute("SELECT pg_advisory_lock(%s)", (CLUB_LOCK,))
        except self.psycopg.errors.LockNotAvailable:
            raise RecordsError(
                f"{self.where}: the records stayed busy for {LOCK_WAIT_SECONDS} s (another table is writing); "
                "try again"
            ) from None
        except (self.psycopg.OperationalError, self.psycopg.InterfaceError) as exc:
            raise RecordsError(f"{self.where}: {_first_line(exc)}") from None
        try:
            yield
        finally:
            if not self.conn.closed:
                self.execute("SELECT pg_advisory_unlock(?)", (CLUB_LOCK,))

    def transaction(self, body: Callable[[], T]) -> T:
        """Run `body` as one queued SERIALIZABLE transaction, again from the start if it lost a race."""
        if self._in_tx:
            return body()
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                with self.queued(), self.conn.transaction():
                    self._in_tx = True
                    try:
                        return body()
                    finally:
                        self._in_tx = False
            except self._retry as exc:
                if attempt == MAX_ATTEMPTS:
                    raise RecordsError(
                        f"{self.where}: gave up after {MAX_ATTEMPTS} tries, other tables kept writing "
                        f"the same records ({_first_line(exc)})"
                    ) from None
                self.retries += 1
                time.sleep(random.uniform(0, 0.01 * 2 ** min(attempt, 6)))
            except (self.psycopg.OperationalError, self.psycopg.InterfaceError) as exc:
                raise RecordsError(f"{self.where}: {_first_line(exc)}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        self.conn.close()


def _first_line(exc: BaseException) -> str:
    """A driver error as one line (libpq's messages span several)."""
    text = " ".join(str(exc).split())
    return text[:300] if text else type(exc).__name__


def connect_postgres(url: str, *, create: bool) -> PostgresDatabase:
    """Connect to the club's PostgreSQL database; create the database itself only when asked to."""
    psycopg = _psycopg()
    where = describe_url(url)
    try:
        conn = _connect(psycopg, url)
    except psycopg.Error as exc:
        if not _no_such_database(exc):
            raise RecordsError(f"{where}: cannot connect ({_first_line(exc)})") from None
        if not create:
            raise RecordsError(
                f"{where}: no such database (create it with `kikimimi players add`, or pass --create)"
            ) from None
        _create_database(psycopg, url, where)
        try:
            conn = _connect(psycopg, url)
        except psycopg.Error as exc:
            raise RecordsError(f"{where}: cannot connect ({_first_line(exc)})") from None
    return PostgresDatabase(url, conn)


def _no_such_database(exc: BaseException) -> bool:
    """Whether connecting failed because the URL's database does not exist (SQLSTATE 3D000).

    A failed connection carries no SQLSTATE in psycopg; the server's message is the evidence."""
    if getattr(exc, "sqlstate", None) == "3D000":
        return True
    text = str(exc)
    return "database \"" in text and "\" does not exist" in text


def _connect(psycopg: Any, url: str) -> Any:
    conn = psycopg.connect(url, autocommit=True, connect_timeout=10, row_factory=_row_factory)
    conn.isolation_level = psycopg.IsolationLevel.SERIALIZABLE
    conn.execute(f"SET lock_timeout = '{LOCK_WAIT_SECONDS}s'")
    return conn


def _create_database(psycopg: Any, url: str, where: str) -> None:
    """CREATE DATABASE through the server's maintenance database `postgres`."""
    info = psycopg.conninfo.conninfo_to_dict(url)
    name = info.get("dbname") or ""
    if not name:
        raise RecordsError(f"{where}: the URL names no database")
    admin = psycopg.conninfo.make_conninfo(url, dbname="postgres")
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
            conn.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
    except psycopg.errors.DuplicateDatabase:
        pass  # another table created it a moment ago
    except psycopg.Error as exc:
        raise RecordsError(f"{where}: cannot create the database ({_first_line(exc)})") from None


def connect(target: str | os.PathLike[str], *, create: bool) -> Database:
    """An SQLite file path or a postgresql:// URL, opened (not yet checked or migrated)."""
    if is_server_url(target):
        return connect_postgres(str(target), create=create)
    return connect_sqlite(Path(target), create=create)


@contextmanager
def closing_on_error(db: Database) -> Iterator[Database]:
    try:
        yield db
    except BaseException:
        db.close()
        raise
