"""The club file: refusing foreign files untouched, migrations, atomic games, kill -9."""
import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from records_helpers import game_over, new_club_players

from kikimimi.records import Club, NotCounted, RecordsError, schema


def fingerprint(path: Path):
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_size, st.st_mtime_ns


def test_new_file_gets_marker_version_wal_and_foreign_keys(tmp_path):
    with Club(tmp_path / "c.sqlite") as club:
        c = club.conn
        assert c.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
        assert c.execute("PRAGMA user_version").fetchone()[0] == schema.latest_version()
        assert c.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert c.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        with pytest.raises(sqlite3.IntegrityError):
            c.execute("INSERT INTO session_players (session_id, seat, player_id) VALUES (99, 1, 99)")


@pytest.mark.parametrize("kind", ["text", "other-sqlite", "newer"])
def test_foreign_or_newer_files_are_refused_and_left_untouched(tmp_path, kind):
    path = tmp_path / "club.sqlite"
    if kind == "text":
        path.write_text("name,wins\nann,3\n" * 50)
    else:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE notes (x TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
        if kind == "newer":
            conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {schema.latest_version() + 1}")
        conn.commit()
        conn.close()
    before = fingerprint(path)
    with pytest.raises(RecordsError) as err:
        Club(path)
    assert "\n" not in str(err.value)
    assert ("newer" in str(err.value).split(": ", 1)[1]) == (kind == "newer")
    assert fingerprint(path) == before
    assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0


def test_migration_upgrades_an_old_file_and_keeps_its_data(tmp_path, monkeypatch):
    path = tmp_path / "club.sqlite"
    with Club(path) as club:
        new_club_players(club)
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, ("ALTER TABLE players ADD COLUMN email TEXT",)])
    with Club(path) as club:
        assert club.conn.execute("PRAGMA user_version").fetchone()[0] == len(schema.MIGRATIONS)
        assert [p.name for p in club.players()] == ["A", "B", "C"]
        assert "email" in [r[1] for r in club.conn.execute("PRAGMA table_info(players)")]


def test_a_failing_migration_leaves_the_file_at_its_old_version(tmp_path, monkeypatch):
    path = tmp_path / "club.sqlite"
    with Club(path) as club:
        new_club_players(club)
    monkeypatch.setattr(
        schema, "MIGRATIONS",
        [*schema.MIGRATIONS, ("CREATE TABLE extra (x)", "ALTER TABLE nowhere ADD COLUMN y")],
    )
    with pytest.raises(RecordsError):
        Club(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(schema.MIGRATIONS) - 1
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'").fetchone()[0] == 0


def _counts(club):
    return [club.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("games", "game_results", "settlements")] + [club.player("A").ladder.games]


@pytest.mark.parametrize("event, error", [
    ({"type": "game-over", "reason": "out", "ranking": [
        {"seat": s, "place": s, "crash": False} for s in (1, 2, 3, 4)]}, NotCounted),
    ({**game_over(1), "reason": "stopped"}, NotCounted),
    ({"type": "game-over", "reason": "out", "ranking": [
        {"seat": 1, "place": 1}, {"seat": 2, "place": 1}, {"seat": 3, "place": 3}]}, RecordsError),
    (game_over(1, crash=2) | {"reason": "out"}, RecordsError),
    ({"type": "turn", "seat": 1}, RecordsError),
])
def test_refused_games_write_nothing(club, event, error):
    new_club_players(club)
    seats = {1: "A", 2: "B", 3: "C"}
    info = club.start_session("half", seats)
    club.record_game_over(info.id, game_over(1), seats)
    before = _counts(club)
    with pytest.raises(error):
        club.record_game_over(info.id, event, seats)
    assert _counts(club) == before


def test_wrong_players_or_closed_session_refused(club):
    new_club_players(club, names=("A", "B", "C", "D"))
    seats = {1: "A", 2: "B", 3: "C"}
    info = club.start_session("half", seats)
    with pytest.raises(RecordsError, match="not the players"):
        club.record_game_over(info.id, game_over(1), {1: "A", 2: "B", 3: "D"})
    club.end_session(info.id, abandon=True)
    with pytest.raises(RecordsError, match="abandoned"):
        club.record_game_over(info.id, game_over(1), seats)
    assert club.session(info.id).games == 0


CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[2])
    from records_helpers import game_over
    from kikimimi.records import Club
    club = Club(sys.argv[1])
    seats = {1: "A", 2: "B", 3: "C"}
    n = 0
    while True:
        open_ = club.sessions("open")
        sid = open_[0].id if open_ else club.start_session("full", seats).id
        n += 1
        club.record_game_over(sid, game_over(1 + n % 3, crash=(1 + (n + 1) % 3) if n % 4 == 0 else None), seats)
        print(n, flush=True)
""")


def _check_consistent(path):
    """Integrity of the records after a kill: every game whole, every session settled or open."""
    if not str(path).startswith("postgresql://"):
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.close()
    with Club(path, create=False) as club:
        db = club.db
        games = db.value("SELECT count(*) FROM games")
        assert db.value("SELECT count(*) FROM game_results") == 3 * games
        assert (sum(p.ladder.games for p in club.players()), sum(p.ladder.firsts for p in club.players())) == (
            3 * games, games)
        for sid, status, planned, played in db.all(
            "SELECT s.id, s.status, s.planned, count(g.id) FROM sessions s LEFT JOIN games g ON g.session_id = s.id "
            "GROUP BY s.id, s.status, s.planned"
        ):
            settled = db.value("SELECT count(*) FROM settlements WHERE session_id = ?", (sid,))
            if status == "completed":
                assert (played, settled) == (planned, 3)
            else:
                assert status == "open" and played < planned and settled == 0
    return games


def test_sigkill_mid_session_leaves_the_records_intact_and_the_session_resumable(db_url):
    path = db_url
    with Club(path) as club:
        new_club_players(club)
    helpers = str(Path(__file__).parent)
    previous = 0
    for round_ in range(3):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), helpers], stdout=subprocess.PIPE, text=True
        )
        acknowledged = 0
        target = 13 + round_ * 7  # lands inside a session most of the time
        for line in child.stdout:
            acknowledged = int(line)
            if acknowledged >= target:
                break
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        assert child.returncode == -signal.SIGKILL
        games = _check_consistent(path)
        # Every game the child reported as committed survived; at most the one in flight is extra.
        assert previous + acknowledged <= games <= previous + acknowledged + 1
        previous = games
    # Resume: the open session (if the kill fell inside one) continues where it stopped.
    with Club(path) as club:
        open_ = club.sessions("open")
        seats = {1: "A", 2: "B", 3: "C"}
        info = open_[0] if open_ else club.start_session("full", seats)
        done_before = info.games
        rec = None
        for k in range(info.planned - info.games):
            rec = club.record_game_over(info.id, game_over(1 + k % 3), seats)
            assert rec.number == done_before + k + 1
        assert club.session(info.id).status == "completed" and len(rec.settlements) == 3
    total = _check_consistent(path)
    assert total % 10 == 0  # every session is now complete
