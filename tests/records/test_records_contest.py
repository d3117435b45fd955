"""A contest across tables, through the commands a referee types; and the
records commands' refusals of docs/records.md (missing database, empty results,
kana only at Japanese tables, a log recorded twice)."""
import json
from pathlib import Path

import pytest
from records_helpers import game_over
from test_records_seating_cli import run

from kikimimi.records import Club, Rank


def _log(tmp_path, name, event):
    path = tmp_path / f"{name}.jsonl"
    path.write_text(json.dumps({"seq": 1, "type": "turn", "seat": 1, "table": name}) + "\n" + json.dumps(event) + "\n")
    return path


def _players(db, capsys, names):
    for n in names:
        code, _, err = run(db, capsys, "players", "add", n, "--lang", "en")
        assert code == 0, err


def _play(db, capsys, tmp_path, session, seats, winners, tag):
    """Record one game per winner (a seat number) at a table, from event logs."""
    for k, w in enumerate(winners):
        log = _log(tmp_path, f"{tag}-{session}-{k}", game_over(w))
        code, _, err = run(db, capsys, "session", "record-log", str(session), str(log), "--seats", ",".join(seats))
        assert code == 0, err


def test_a_contest_across_two_tables_from_start_to_close(db_url, tmp_path, capsys):
    _players(db_url, capsys, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"])
    code, out, _ = run(db_url, capsys, "contest", "start", "Spring Cup", "--tables", "2")
    assert code == 0 and "2 tables, each a half trial" in out
    code, out, _ = run(db_url, capsys, "contest", "standings", "--lang", "en")
    assert code == 0 and "no games recorded yet" in out
    assert out.splitlines()[-1] == "No games are recorded yet in Spring Cup."
    code, out, _ = run(db_url, capsys, "session", "start", "--contest", "Spring Cup", "Ann", "Ben", "Cy")
    assert (code, out.strip()) == (0, "session 1 open at table 1 of contest 'Spring Cup': half trial, 5 games")
    code, out, _ = run(db_url, capsys, "session", "start", "--contest", "Spring Cup", "Dee", "Eve", "Fay")
    assert "table 2" in out
    # A third table, or a table whose session is still playing, is refused.
    for argv, message in (
        (("--contest", "Spring Cup"), "every table of contest 'Spring Cup' has an open session"),
        (("--contest", "Spring Cup", "--table", "3"), "has tables 1 to 2, not 3"),
        (("--contest", "Spring Cup", "--kind", "full"), "plays half trials, not full"),
        (("--contest", "Autumn Cup"), "no contest 'Autumn Cup'"),
    ):
        code, _, err = run(db_url, capsys, "session", "start", *argv, "Gus", "Hal", "Ivy")
        assert code == 2 and message in err and err.count("\n") == 1, (argv, err)

    code, out, _ = run(db_url, capsys, "session", "status")
    assert out.splitlines()[1].startswith("session 2 (half trial, table 2 of contest 'Spring Cup') open: 0 of 5")
    _play(db_url, capsys, tmp_path, 1, ["Ann", "Ben", "Cy"], [1, 1, 2, 1], "t1")  # Ann 3 wins
    _play(db_url, capsys, tmp_path, 2, ["Dee", "Eve", "Fay"], [2, 2, 2, 1, 3], "t2")  # Eve 3 wins, table done
    code, _, err = run(db_url, capsys, "contest", "close", "Spring Cup")
    assert code == 2 and err == "kikimimi: table 1 of contest 'Spring Cup' is still playing session 1; end it first\n"

    _play(db_url, capsys, tmp_path, 1, ["Ann", "Ben", "Cy"], [3], "t1b")
    code, out, _ = run(db_url, capsys, "contest", "standings", "Spring Cup", "--lang", "en")
    lines = out.splitlines()
    assert lines[0] == "contest 'Spring Cup' (open): 2 of 2 tables started, 10 games"
    # 3 wins each for Ann and Eve: fewer points left in hand (6 against 9) puts Ann first;
    # Cy and Fay are equal on wins and points, and share 5th place.
    assert [tuple(line.split("\t")[:4]) for line in lines[1:7]] == [
        ("1.", "Ann", "wins 3", "points 6"), ("2.", "Eve", "wins 3", "points 9"),
        ("3.", "Dee", "wins 1", "points 12"), ("4.", "Ben", "wins 1", "points 15"),
        ("5.", "Cy", "wins 1", "points 24"), ("5.", "Fay", "wins 1", "points 24")]
    assert lines[7] == ("Standings of Spring Cup: 1. Ann, won 3, 2. Eve, won 3, 3. Dee, won 1, "
                        "4. Ben, won 1, 5. Cy, won 1, 5. Fay, won 1.")
    code, out, _ = run(db_url, capsys, "contest", "standings", "Spring Cup", "--lang", "ja")
    assert out.splitlines()[-1].startswith("Spring Cupの順位です。1位はAnn、3勝、2位はEve、3勝")

    code, _, err = run(db_url, capsys, "contest", "close", "Spring Cup", "--winner", "Eve")
    assert code == 2 and "Eve is not at the top" in err
    champion = "Ann"
    code, out, err = run(db_url, capsys, "contest", "close", "Spring Cup", "--winner", champion, "--lang", "en")
    assert code == 0, err
    assert out.splitlines()[0] == f"contest 'Spring Cup' closed: won by {champion}"
    assert f"{champion} wins Spring Cup." in out and f"{champion} becomes Baron." in out
    with Club(db_url) as club:
        p = club.player(champion)
        assert (p.peerage, p.rank, p.ladder.contests) == (1, Rank.BISHOP, 1)  # Apprentice -> Bishop, Baron
        assert club.history(champion)[-1].reasons[0] == "contest"
    code, _, err = run(db_url, capsys, "contest", "close", "Spring Cup")
    assert code == 2 and "already closed" in err
    code, out, _ = run(db_url, capsys, "contest", "list")
    assert f"closed\t2 tables, half trials, 2 sessions, won by {champion}" in out
    code, _, err = run(db_url, capsys, "session", "start", "--contest", "Spring Cup", "Ann", "Ben", "Cy")
    assert code == 2 and "is closed" in err


def test_standings_rank_wins_then_points_and_share_a_place(club):
    from kikimimi.records.contest import close_contest, standings, start_contest

    for n in ("A", "B", "C", "D", "E", "F"):
        club.add_player(n)
    start_contest(club, "Cup", 2, "half")
    t1 = club.start_session("half", {1: "A", 2: "B", 3: "C"}, contest="Cup")
    t2 = club.start_session("half", {1: "D", 2: "E", 3: "F"}, contest="Cup", table=2)
    assert (t1.table, t2.table, t1.contest_id) == (1, 2, 1)
    for w in (1, 1, 2, 3, 1):
        club.record_game_over(t1.id, game_over(w), {1: "A", 2: "B", 3: "C"})
    for w in (1, 1, 2, 3, 1):
        club.record_game_over(t2.id, game_over(w), {1: "D", 2: "E", 3: "F"})
    _, table = standings(club, "Cup")
    assert [(s.place, s.player.name, s.wins) for s in table][:2] == [(1, "A", 3), (1, "D", 3)]
    assert table[0].points == table[1].points and table[0].tables == (1,) and table[1].tables == (2,)
    assert [s.place for s in table] == [1, 1, 3, 3, 5, 5]
    from kikimimi.records import RecordsError

    with pytest.raises(RecordsError, match="tied at the top: A, D"):
        close_contest(club, "Cup")
    info, settlement = close_contest(club, "Cup", winner="D")
    assert info.status == "closed" and info.winner_id == club.player("D").id
    assert (settlement.peerage_before, settlement.peerage_after) == (0, 1)
    assert club.player("A").peerage == 0


def test_records_commands_refusals_and_empty_results(tmp_path, capsys):
    db = tmp_path / "club" / "records.sqlite"
    for argv in (("players", "list"), ("session", "status"), ("contest", "standings"), ("export",)):
        code, out, err = run(db, capsys, *argv)
        assert code == 2 and out == "" and "no records database here" in err and err.count("\n") == 1, argv
    assert not db.parent.exists()  # a typo creates neither a file nor its folders
    code, out, _ = run(db, capsys, "players", "list", "--create")
    assert code == 0 and out.startswith("no players in ") and db.exists()
    code, out, err = run(db, capsys, "export", "--what", "games")
    assert code == 0 and out.startswith("session,game") and "no games recorded yet" in err
    code, _, err = run(db, capsys, "players", "add", "太郎")  # a Japanese table needs the reading
    assert code == 2 and "--kana" in err and err.count("\n") == 1
    assert run(db, capsys, "players", "add", "Tom", "--lang", "en")[0] == 0
    shipped = Path(__file__).resolve().parents[2] / "games" / "trident" / "sim.toml"  # an English table
    assert run(db, capsys, "players", "add", "Sue", "--table", str(shipped))[0] == 0
    japanese = tmp_path / "ja.toml"
    japanese.write_text(shipped.read_text().replace('lang = "en"', 'lang = "ja"'))
    code, _, err = run(db, capsys, "players", "add", "花子", "--table", str(japanese))
    assert code == 2 and "--kana" in err
    code, _, err = run(db, capsys, "players", "add", "Al", "--table", str(tmp_path / "none.toml"))
    assert code == 2 and "none.toml" in err and err.count("\n") == 1
    code, out, _ = run(db, capsys, "players", "show", "Tom")
    assert "no settlements yet" in out
    code, out, _ = run(db, capsys, "contest", "list")
    assert out.startswith("no contests yet")
    code, _, err = run(db, capsys, "contest", "standings")
    assert code == 2 and "no open contest" in err


def test_a_log_recorded_twice_is_refused_with_one_line(db_url, tmp_path, capsys):
    _players(db_url, capsys, ["A", "B", "C"])
    run(db_url, capsys, "session", "start", "--kind", "half", "A", "B", "C")
    log = _log(tmp_path, "g", game_over(1))
    assert run(db_url, capsys, "session", "record-log", "1", str(log), "--seats", "A,B,C")[0] == 0
    code, out, err = run(db_url, capsys, "session", "record-log", "1", str(log), "--seats", "A,B,C")
    assert (code, out) == (2, "")
    assert err == "kikimimi: this game is already recorded (session 1, game 1); not recorded again\n"
    code, out, _ = run(db_url, capsys, "session", "status", "1")
    assert "1 of 5 games" in out
    with Club(db_url) as club:
        assert club.player("A").ladder.run == 1  # no false streak


def test_standings_are_spoken_on_the_sound_device(tmp_path):
    """`contest standings --voice audio` says the line on the default device's speaker
    (here an ALSA device recorded to a file) as well as printing it."""
    import subprocess
    import sys

    import numpy as np

    from support.virtual_sound import AlsaFileDevices, missing_tools

    missing = missing_tools("espeak-ng")
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    db = tmp_path / "club.sqlite"
    with Club(db) as club:
        for n in ("Ann", "Ben", "Cy"):
            club.add_player(n)
        from kikimimi.records.contest import start_contest

        start_contest(club, "Cup", 1)
        sid = club.start_session("half", {1: "Ann", 2: "Ben", 3: "Cy"}, contest="Cup").id
        club.record_game_over(sid, game_over(2), {1: "Ann", 2: "Ben", 3: "Cy"})
    devices = AlsaFileDevices(tmp_path / "alsa", {"kkclub": 2})
    devices.conf.write_text(devices.conf.read_text() + 'pcm.!default "kkclub"\n')
    env = {**devices.env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-m", "kikimimi.cli", "contest", "standings", "Cup", "--db", str(db),
                             "--lang", "en", "--voice", "audio"], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("Standings of Cup: 1. Ben, won 1")
    heard = devices.read("kkclub")
    assert heard.shape[0] > 48000 * 1  # a spoken sentence, not a click
    assert np.abs(heard).max() > 0.05
