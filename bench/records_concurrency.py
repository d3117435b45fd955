"""Games recorded per second by 1 and 4 tables at once, on SQLite and on PostgreSQL.

Each table is its own process with its own three players, playing half
trials back to back (every 5th game settles the session), all attached to one
contest.  The anchor, measured in the same run on the same database, is the
rate of the smallest durable write: one row inserted and committed, in a loop,
by one process.  A game is several rows in one transaction (the game, three
results, three ladders, at session ends three settlements), so games/s
divided by the anchor says how close recording comes to the database's own
commit rate.

Run: .venv/bin/python bench/records_concurrency.py [GAMES_PER_TABLE]
PostgreSQL: $KIKIMIMI_BENCH_POSTGRES (a maintenance database URL), else a
throwaway server with durable commits started with scripts/postgres (not the
tests' server, which runs without fsync); skipped with the reason if none can
be had.
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from kikimimi.records import Club
from kikimimi.records.contest import start_contest

ROOT = Path(__file__).resolve().parents[1]
TABLE_COUNTS = (1, 4)


def _ranking(k: int) -> dict:
    ranking = [{"seat": 1 + (k + i) % 3, "place": i + 1, "pieces": i, "points": 3 * i, "crash": False}
               for i in range(3)]
    return {"type": "game-over", "reason": "out", "ranking": ranking}


def _table(url: str, table: int, games: int, start: multiprocessing.Barrier, out: multiprocessing.Queue) -> None:
    seats = {i: f"T{table}P{i}" for i in (1, 2, 3)}
    with Club(url, create=False) as club:
        start.wait(timeout=120)
        sid = None
        for k in range(games):
            if k % 5 == 0:
                sid = club.start_session("half", seats, contest="Bench Cup").id
            club.record_game_over(sid, _ranking(k), seats, game_id=f"t{table}-{k}")
        out.put(getattr(club.db, "retries", 0))


def games_per_second(url: str, tables: int, games: int) -> tuple[float, int]:
    """Games/s with `tables` processes recording at once (wall time, from one start); and retries."""
    with Club(url, create=True) as club:
        for t in range(1, tables + 1):
            for i in (1, 2, 3):
                club.add_player(f"T{t}P{i}")
        start_contest(club, "Bench Cup", tables, "half")
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Barrier(tables + 1), ctx.Queue()
    procs = [ctx.Process(target=_table, args=(url, t, games, start, out)) for t in range(1, tables + 1)]
    for p in procs:
        p.start()
    start.wait(timeout=120)
    began = time.perf_counter()
    reports: list[int] = []
    while len(reports) < tables:  # each table reports when its last game is committed
        try:
            reports.append(out.get(timeout=0.2))
        except queue.Empty:
            failed = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
            if failed or time.perf_counter() - began > 600:
                for p in procs:
                    p.kill()
                raise SystemExit(f"bench: a table process failed (exit {failed[0] if failed else 'timeout'})") from None
    elapsed = time.perf_counter() - began
    for p in procs:
        p.join()
    return tables * games / elapsed, sum(reports)


def commit_rate(url: str, n: int) -> float:
    """The anchor: single-row durable commits per second on the same database."""
    with Club(url, create=True) as club:
        db = club.db
        db.execute("CREATE TABLE bench_anchor (x INTEGER)")
        began = time.perf_counter()
        for i in range(n):
            db.transaction(lambda: db.execute("INSERT INTO bench_anchor (x) VALUES (?)", (i,)))
        return n / (time.perf_counter() - began)


def _postgres_admin() -> tuple[str | None, str, object]:
    url = os.environ.get("KIKIMIMI_BENCH_POSTGRES")
    if url:
        return url, "", None
    folder = tempfile.mkdtemp(prefix="kikimimi-pg-bench-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "KIKIMIMI_PG_DIR": folder, "KIKIMIMI_PG_PORT": str(port), "KIKIMIMI_PG_FAST": "0"}
    proc = subprocess.run([str(ROOT / "scripts" / "postgres"), "start"], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        return None, (proc.stderr.strip().splitlines() or ["scripts/postgres start failed"])[-1], None
    return proc.stdout.strip(), "", (env, folder)


def _fresh_database(admin: str) -> str:
    import psycopg
    from psycopg import sql

    name = "kk_bench_" + uuid.uuid4().hex[:12]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return urlunsplit(urlsplit(admin)._replace(path="/" + name))


def _drop_database(admin: str, url: str) -> None:
    import psycopg
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def report(backend: str, fresh, anchor_n: int, games: int) -> None:
    anchor = commit_rate(fresh(), anchor_n)
    print(f"{backend}: anchor {anchor:.0f} single-row commits/s (1 process)")
    for tables in TABLE_COUNTS:
        rate, retries = games_per_second(fresh(), tables, games)
        print(f"{backend}: {tables} table(s) x {games} games: {rate:.0f} games/s "
              f"({rate / anchor:.2f} x anchor; {retries} transactions run again after a lost race)")


def main(games: int = 100) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(1000))
        report("sqlite", lambda: str(Path(tmp) / f"bench{next(counter)}.sqlite"), 300, games)
    admin, why, started = _postgres_admin()
    if admin is None:
        print(f"postgresql: skipped ({why})")
        return
    made: list[str] = []

    def fresh() -> str:
        made.append(_fresh_database(admin))
        return made[-1]

    try:
        report("postgresql", fresh, 300, games)
    finally:
        for url in made:
            _drop_database(admin, url)
        if started is not None:
            env, folder = started
            subprocess.run([str(ROOT / "scripts" / "postgres"), "destroy"], env=env, capture_output=True)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
