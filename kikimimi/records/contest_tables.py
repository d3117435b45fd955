"""A contest's tables, read where a session claims one (`Club.start_session`) and below the
contest's standings and close (`kikimimi.records.contest`): they need only the database, so
the club can claim a table without importing the contest module that works on the club."""
from __future__ import annotations

from dataclasses import dataclass

from kikimimi.records.backend import Database
from kikimimi.records.errors import RecordsError

MAX_TABLES = 64


@dataclass(frozen=True)
class ContestInfo:
    id: int
    name: str
    kind: str
    tables: int
    status: str
    started_at: str
    closed_at: str | None
    winner_id: int | None
    sessions: tuple[tuple[int, int, str], ...]  # (table, session id, session status)


def contest_in(db: Database, ref: int | str) -> ContestInfo:
    """A contest by id (int or "#2") or name."""
    if isinstance(ref, int) or (isinstance(ref, str) and ref.startswith("#") and ref[1:].isdigit()):
        cid = ref if isinstance(ref, int) else int(ref[1:])
        row = db.one("SELECT * FROM club_contests WHERE id = ?", (cid,)) if 0 < cid < 2**31 else None
    else:
        row = db.one("SELECT * FROM club_contests WHERE name = ?", (ref,))
    if row is None:
        raise RecordsError(f"no contest {ref!r}")
    winner = None
    if row["won_id"] is not None:
        winner = db.value("SELECT player_id FROM contests WHERE id = ?", (row["won_id"],))
    sessions = tuple(
        (t, s, st) for t, s, st in db.all(
            "SELECT table_no, id, status FROM sessions WHERE contest_id = ? ORDER BY table_no, id", (row["id"],)
        )
    )
    return ContestInfo(
        id=row["id"], name=row["name"], kind=row["kind"], tables=row["table_count"], status=row["status"],
        started_at=row["started_at"], closed_at=row["closed_at"], winner_id=winner, sessions=sessions,
    )


def claim_table(db: Database, ref: int | str, table: int | None, kind: str) -> tuple[int, int]:
    """The contest id and table number for a new session (inside its transaction)."""
    info = contest_in(db, ref)
    if info.status != "open":
        raise RecordsError(f"contest {info.name!r} is closed")
    if kind != info.kind:
        raise RecordsError(f"contest {info.name!r} plays {info.kind} trials, not {kind}")
    busy = {t for t, _, status in info.sessions if status == "open"}
    if table is None:
        free = [t for t in range(1, info.tables + 1) if t not in busy]
        if not free:
            raise RecordsError(f"every table of contest {info.name!r} has an open session")
        return info.id, free[0]
    if not 1 <= table <= info.tables:
        raise RecordsError(f"contest {info.name!r} has tables 1 to {info.tables}, not {table}")
    if table in busy:
        session = next(s for t, s, status in info.sessions if t == table and status == "open")
        raise RecordsError(f"table {table} of contest {info.name!r} already plays session {session}")
    return info.id, table
