"""The records suite runs against both places a club's records can live.

`db_url` is parametrised over sqlite (a fresh file) and postgresql (a fresh
database on a loopback server).  The server is $KIKIMIMI_TEST_POSTGRES (the
URL of a maintenance database, as `scripts/postgres start` prints; .ci/run
exports it), else one this session starts with scripts/postgres in a
temporary folder.  When none can be had the postgresql cases skip with the
reason — except under CI=true, where they fail: CI must test both.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ["sqlite", "postgresql"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required in CI: {reason}")
    pytest.skip(f"no PostgreSQL server: {reason}")


@pytest.fixture(scope="session")
def postgres_admin():
    """The URL of a PostgreSQL maintenance database where tests may create databases."""
    try:
        import psycopg
    except ImportError:  # the `postgres` extra, which .ci/run installs
        _unavailable("the 'postgres' extra (psycopg) is not installed: KIKIMIMI_EXTRAS=postgres scripts/test")
    url = os.environ.get("KIKIMIMI_TEST_POSTGRES")
    started = None
    if not url:
        folder = tempfile.mkdtemp(prefix="kikimimi-pg-")
        env = {**os.environ, "KIKIMIMI_PG_DIR": folder, "KIKIMIMI_PG_PORT": str(_free_port()), "KIKIMIMI_PG_FAST": "1"}
        proc = subprocess.run([str(ROOT / "scripts" / "postgres"), "start"], env=env,
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            _unavailable((proc.stderr.strip().splitlines() or ["scripts/postgres start failed"])[-1])
        url, started = proc.stdout.strip(), (env, folder)
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as exc:
        _unavailable(f"{url}: {str(exc).strip().splitlines()[0]}")
    yield url
    if started is not None:
        env, folder = started
        subprocess.run([str(ROOT / "scripts" / "postgres"), "destroy"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_admin):
    """A fresh, empty schema on the test server, named as the URL's search_path
    (much cheaper than a database per test); dropped afterwards."""
    import psycopg
    from psycopg import sql

    name = "kk_" + uuid.uuid4().hex[:16]
    with psycopg.connect(postgres_admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    parts = urlsplit(postgres_admin)
    query = "&".join(q for q in (parts.query, f"options=-csearch_path%3D{name}") if q)
    yield urlunsplit(parts._replace(query=query))
    with psycopg.connect(postgres_admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


@pytest.fixture
def postgres_database(postgres_admin):
    """The URL of a database that does not exist yet on the test server; dropped afterwards."""
    import psycopg
    from psycopg import sql

    name = "kk_" + uuid.uuid4().hex[:16]
    yield urlunsplit(urlsplit(postgres_admin)._replace(path="/" + name))
    with psycopg.connect(postgres_admin, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(params=BACKENDS)
def db_url(request, tmp_path):
    """Where a test's club lives: an SQLite file path, or a postgresql:// URL."""
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def club(db_url):
    from kikimimi.records import Club

    with Club(db_url, create=True) as c:
        yield c
