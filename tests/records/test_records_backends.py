"""What both databases must do alike: refuse what is not ours untouched,
migrate what is, refuse a database that does not exist to read commands,
and refuse a game recorded twice."""
import sqlite3
from pathlib import Path

import pytest
from records_helpers import game_over, new_club_players

from kikimimi.records import AlreadyRecorded, Club, RecordsError, game_identity, record_game_over, schema
from kikimimi.records.backend import connect


def _pg_snapshot(url):
    """Every table of the URL's schema with its rows: what 'untouched' means on a server."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")]
        return {t: sorted(map(repr, conn.execute(f'SELECT * FROM "{t}"').fetchall())) for t in tables}


def _pg_run(url, *statements):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for s in statements:
            conn.execute(s)


@pytest.mark.parametrize("kind", ["other-tables", "other-application", "newer"])
def test_a_foreign_or_newer_postgres_database_is_refused_untouched(postgres_url, kind):
    statements = ["CREATE TABLE notes (x TEXT)", "INSERT INTO notes VALUES ('keep me')"]
    if kind != "other-tables":
        app = "someone-else" if kind == "other-application" else schema.APPLICATION
        statements += [
            "CREATE TABLE kikimimi_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            f"INSERT INTO kikimimi_meta VALUES ('application', '{app}'), "
            f"('schema_version', '{schema.latest_version() + 1}')",
        ]
    _pg_run(postgres_url, *statements)
    before = _pg_snapshot(postgres_url)
    with pytest.raises(RecordsError) as err:
        Club(postgres_url)
    message = str(err.value)
    assert "\n" not in message and "postgresql://postgres@127.0.0.1" in message
    assert ("newer" in message) == (kind == "newer")
    assert _pg_snapshot(postgres_url) == before


def test_a_postgres_club_is_marked_and_versioned(postgres_url):
    with Club(postgres_url) as club:
        new_club_players(club)
        assert schema.version_of(club.db) == schema.latest_version()
        assert club.db.kind == "postgresql"
    import psycopg

    with psycopg.connect(postgres_url) as conn:
        meta = dict(conn.execute("SELECT key, value FROM kikimimi_meta").fetchall())
    assert meta == {"application": schema.APPLICATION, "schema_version": str(schema.latest_version())}


def test_migration_upgrades_and_a_failing_one_changes_nothing(db_url, monkeypatch):
    with Club(db_url) as club:
        new_club_players(club)
        kind = club.db.kind
    broken = ("CREATE TABLE extra (x TEXT)", "ALTER TABLE nowhere ADD COLUMN y TEXT")
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, broken])
    with pytest.raises(RecordsError) as err:
        Club(db_url)
    assert "\n" not in str(err.value)
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:-1])
    with Club(db_url) as club:
        assert schema.version_of(club.db) == len(schema.MIGRATIONS)
        assert club.db.value("SELECT count(*) FROM players") == 3
        extra = ("SELECT count(*) FROM sqlite_master WHERE name = 'extra'" if kind == "sqlite" else
                 "SELECT count(*) FROM information_schema.tables WHERE table_name = 'extra' "
                 "AND table_schema = current_schema()")
        assert club.db.value(extra) == 0
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, ("ALTER TABLE players ADD COLUMN email TEXT",)])
    with Club(db_url) as club:
        assert schema.version_of(club.db) == len(schema.MIGRATIONS)
        assert [p.name for p in club.players()] == ["A", "B", "C"]
        assert club.db.value("SELECT count(*) FROM players WHERE email IS NULL") == 3


def test_a_version_1_sqlite_file_gains_contests_and_game_identity(tmp_path):
    """A club file of schema 1 (before contests across tables) opens, migrates and plays on."""
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    for statement in schema.MIGRATIONS[0]:
        conn.execute(schema.render(statement, "sqlite"))
    conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    for n in "ABC":
        conn.execute("INSERT INTO players (name, kana, form, created_at) VALUES (?, ?, 'king', 'then')", (n, n))
    conn.execute("INSERT INTO sessions (kind, planned, started_at) VALUES ('half', 5, 'then')")
    conn.executemany("INSERT INTO session_players (session_id, seat, player_id) VALUES (1, ?, ?)", [(1, 1), (2, 2), (3, 3)])
    conn.commit()
    conn.close()
    with Club(path, create=False) as club:
        assert schema.version_of(club.db) == schema.latest_version()
        info = club.session(1)
        assert (info.games, info.contest_id, info.seats) == (0, None, {1: 1, 2: 2, 3: 3})
        rec = club.record_game_over(1, game_over(2), {1: "A", 2: "B", 3: "C"}, game_id="g1")
        assert (rec.number, club.player("B").ladder.wins) == (1, 1)


def test_read_commands_refuse_a_missing_sqlite_file_and_create_nothing(tmp_path):
    path = tmp_path / "typo" / "club.sqlite"
    with pytest.raises(RecordsError, match="no records database here") as err:
        Club(path, create=False)
    assert "\n" not in str(err.value)
    assert not path.parent.exists()


def test_read_commands_refuse_a_missing_or_empty_postgres_database(postgres_database, postgres_url):
    with pytest.raises(RecordsError, match="no such database"):
        Club(postgres_database, create=False)
    with pytest.raises(RecordsError, match="no records in this database yet"):
        Club(postgres_url, create=False)
    assert _pg_snapshot(postgres_url) == {}
    with Club(postgres_database, create=True) as club:  # players add: the database is created
        club.add_player("A", "a")
    with Club(postgres_database, create=False) as club:
        assert [p.name for p in club.players()] == ["A"]


def test_a_bad_url_or_a_dead_server_is_one_line(tmp_path):
    for url in ("postgresql://nobody@127.0.0.1:1/club", "postgresql://x@[bad"):
        with pytest.raises(RecordsError) as err:
            connect(url, create=False)
        assert "\n" not in str(err.value) and "postgresql://" in str(err.value)


def _counts(club):
    return tuple(club.db.value(f"SELECT count(*) FROM {t}") for t in ("games", "game_results", "settlements"))


def test_the_same_game_recorded_twice_is_refused(club):
    new_club_players(club)
    seats = {1: "A", 2: "B", 3: "C"}
    sid = club.start_session("half", seats).id
    key = game_identity(b'{"seq": 1}\n{"type": "game-over"}\n')
    assert key.startswith("sha256:") and key == game_identity(b'{"seq": 1}\n{"type": "game-over"}\n')
    club.record_game_over(sid, game_over(1), seats, game_id=key)
    before, ladder = _counts(club), club.player("A").ladder
    with pytest.raises(AlreadyRecorded, match=r"already recorded \(session 1, game 1\)"):
        club.record_game_over(sid, game_over(1), seats, game_id=key)
    assert _counts(club) == before and club.player("A").ladder == ladder
    # another game goes on, and games without an identity are still accepted (the old hook)
    club.record_game_over(sid, game_over(2), seats, game_id=game_identity(b"another"))
    club.record_game_over(sid, game_over(3), seats)
    assert club.session(sid).games == 3


def test_the_daemon_hook_takes_the_identity_and_refuses_a_missing_database(db_url, tmp_path):
    with Club(db_url) as club:
        new_club_players(club)
        sid = club.start_session("half", {1: "A", 2: "B", 3: "C"}).id
    rec = record_game_over(sid, game_over(1), {1: 1, 2: 2, 3: 3}, db=db_url, game_id="journal-1")
    assert (rec.number, rec.game_key) == (1, "journal-1")
    with pytest.raises(AlreadyRecorded):  # a table restarting after game-over records it again
        record_game_over(sid, game_over(1), {1: 1, 2: 2, 3: 3}, db=db_url, game_id="journal-1")
    with pytest.raises(RecordsError, match="no records database"):
        record_game_over(sid, game_over(1), {1: 1, 2: 2, 3: 3}, db=tmp_path / "missing.sqlite")
    assert not (tmp_path / "missing.sqlite").exists()


@pytest.mark.parametrize("bad", ["", "x" * 201, "line\nbreak", 42])
def test_a_malformed_game_identity_is_refused(club, bad):
    new_club_players(club)
    seats = {1: "A", 2: "B", 3: "C"}
    sid = club.start_session("half", seats).id
    with pytest.raises(RecordsError, match="identity"):
        club.record_game_over(sid, game_over(1), seats, game_id=bad)
    assert _counts(club) == (0, 0, 0)


def test_sqlite_marker_is_unchanged_for_old_readers(tmp_path):
    with Club(tmp_path / "c.sqlite"):
        pass
    conn = sqlite3.connect(tmp_path / "c.sqlite")
    assert conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    assert Path(tmp_path / "c.sqlite").stat().st_size > 0


@pytest.mark.parametrize("entry, message", [
    ({"points": 10**20}, "points must be a whole number"),
    ({"pieces": "many"}, "pieces must be a whole number"),
    ({"points": True}, "points must be a whole number"),
])
def test_out_of_range_scores_are_one_line_on_both_databases(club, entry, message):
    new_club_players(club)
    seats = {1: "A", 2: "B", 3: "C"}
    sid = club.start_session("half", seats).id
    event = game_over(1)
    event["ranking"][0].update(entry)
    with pytest.raises(RecordsError, match=message):
        club.record_game_over(sid, event, seats)
    with pytest.raises(RecordsError, match="printable"):
        club.add_player("nul\x00name", "x")
    assert _counts(club) == (0, 0, 0)


def test_a_journal_identity_ignores_what_was_journaled_after_the_game_ended():
    header = b'{"game": "trident", "players": 3, "lang": "en"}'
    inputs = [b'{"t": 1.0, "reader": "hand-1", "tag": "heart-3"}', b'{"t": 2.5, "reader": "field", "tag": "heart-3"}']
    journal = b"\n".join([header, *inputs]) + b"\n"
    later = journal + b'{"t": 9.0, "reader": "hand-2", "tag": "spade-1"}\n'  # refused: the game is over
    assert game_identity(journal, 3) == game_identity(later, 3) == game_identity(b"\n".join([header, *inputs]))
    assert game_identity(journal, 2) != game_identity(journal, 3)
    assert game_identity(journal) != game_identity(later)
    with pytest.raises(RecordsError, match="counts from 1"):
        game_identity(journal, 0)


def test_kikimimi_db_selects_the_database(db_url, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("KIKIMIMI_DB", db_url)
    with Club() as club:
        club.add_player("Env", "えんゔ")
        assert club.db.kind == ("postgresql" if db_url.startswith("postgresql://") else "sqlite")
    import argparse

    from kikimimi.cli.records import add_parser

    parser = argparse.ArgumentParser(prog="kikimimi")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["players", "list"])
    assert args.func(args) == 0
    assert "\tEnv\t" in capsys.readouterr().out


def test_a_lost_race_is_run_again_and_the_retries_are_bounded(postgres_url, monkeypatch):
    import psycopg

    from kikimimi.records import backend

    monkeypatch.setattr(backend.time, "sleep", lambda s: None)
    with Club(postgres_url) as club:
        db = club.db
        tries = []

        def flaky():
            tries.append(1)
            db.execute("INSERT INTO players (name, kana, form, created_at) VALUES (?, '', 'king', 'now')",
                       (f"P{len(tries)}",))
            if len(tries) < 3:
                raise psycopg.errors.SerializationFailure("could not serialize access")
            return len(tries)

        assert db.transaction(flaky) == 3 and db.retries == 2
        assert [p.name for p in club.players()] == ["P3"]  # the lost attempts wrote nothing

        def hopeless():
            raise psycopg.errors.SerializationFailure("could not serialize access")

        with pytest.raises(RecordsError, match=f"gave up after {backend.MAX_ATTEMPTS} tries") as err:
            db.transaction(hopeless)
        assert "\n" not in str(err.value)


def test_a_table_that_holds_the_records_too_long_is_one_line_for_the_next(postgres_url, monkeypatch):
    import psycopg

    from kikimimi.records import backend

    with Club(postgres_url) as club:
        club.add_player("A", "a")
    with psycopg.connect(postgres_url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (backend.CLUB_LOCK,))  # a table stuck mid-write
        with Club(postgres_url, create=False) as club:
            club.db.conn.execute("SET lock_timeout = '200ms'")
            with pytest.raises(RecordsError, match="stayed busy") as err:
                club.add_player("B", "b")
            assert "\n" not in str(err.value)
        holder.execute("SELECT pg_advisory_unlock(%s)", (backend.CLUB_LOCK,))
    with Club(postgres_url, create=False) as club:
        club.add_player("B", "b")
        assert [p.name for p in club.players()] == ["A", "B"]
