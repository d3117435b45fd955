"""The flow between games on one daemon, and the session's refusals."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.table.daemon import Daemon
from kikimimi.table.evening import ClubSession, Evening, SessionRefused, SessionState, check_session_table
from kikimimi.records import Club
from kikimimi.contract.script import Header, read_script
from kikimimi.design.sim import play

COMPETITION = {"scoring": "competition"}


def _club(tmp: Path) -> Path:
    db = tmp / "club.sqlite"
    with Club(db) as club:
        for name in ("Ann", "Bob", "Cy"):
            club.add_player(name, name.lower())
        club.start_session("half", {1: "Ann", 2: "Bob", 3: "Cy"})
    return db


def _table(tmp: Path, club: ClubSession | None = None, lang: str = "en", players: int = 3):
    extra = {"session": Evening.header_session(club)} if club else {}
    daemon = Daemon(Header("trident", players, dict(COMPETITION), lang, extra), tmp / "j.jsonl")
    daemon.open()
    heard: list[dict] = []
    daemon.subscribe(lambda line, events: heard.extend(events))
    complaints: list[str] = []
    Evening(daemon, club, complain=complaints.append).begin()
    return daemon, heard, complaints


def _finish(daemon: Daemon, seed: int = 1) -> dict:
    script, log = play("trident", seed, daemon.header.players, COMPETITION)
    for line in script[1:]:
        daemon.submit({k: v for k, v in line.items() if k != "t"})
    assert daemon.table.game.over
    return next(ev for ev in log if ev["type"] == "game-over")


def _speaker(heard: list[dict]) -> list[str]:
    return [ev["text"] for ev in heard if ev["type"] == "say" and ev["to"] == "table"]


def test_a_plain_table_waits_after_game_over_and_every_agree_starts_the_next(tmp_path):
    daemon, heard, _ = _table(tmp_path)
    _finish(daemon)
    assert _speaker(heard)[-1] == "The game is over. For the next game, everyone scans AGREE on their hand reader."
    daemon.submit({"reader": "hand", "seat": 1, "tag": "cmd:agree"})
    daemon.submit({"reader": "hand", "seat": 1, "tag": "cmd:agree", "removed": True})  # lifted: nothing said
    for odd in ({"reader": "hand", "seat": True, "tag": "cmd:agree"}, {"reader": "hand", "seat": "2", "tag": "cmd:agree"},
                {"reader": "hand", "seat": 9, "tag": "cmd:agree"}, {"reader": "field", "tag": "cmd:agree"},
                {"reader": "hand", "seat": 2, "uid": 7}, {"console": ["new"]}):
        events = daemon.submit(odd)  # the engine answers each in its own words; nobody is ready
        assert events and events[0]["type"] == "error"
    before = len(read_script(daemon.journal_path).lines)
    daemon.submit({"reader": "hand", "seat": 2, "tag": "cmd:agree"})
    assert daemon.snapshot()["session"] == {"waiting": True, "ready": [1, 2]}
    assert len(read_script(daemon.journal_path).lines) == before  # between games nothing is journaled
    assert _speaker(heard)[-1] == "Seat 2 is ready: 2 of 3."
    assert _speaker(heard).count("Seat 1 is ready: 1 of 3.") == 1 and "Seat 1 is ready: 2 of 3." not in _speaker(heard)
    events = daemon.submit({"reader": "hand", "seat": 3, "tag": "cmd:agree"})
    assert not daemon.table.game.over and daemon.table.inputs == 0
    assert any(ev["type"] == "turn" or ev["type"] == "say" for ev in events)
    assert (tmp_path / "j.game1.jsonl").exists()
    assert daemon.snapshot()["session"] is None


def test_agree_during_a_game_is_the_games_own(tmp_path):
    daemon, heard, _ = _table(tmp_path)
    events = daemon.submit({"reader": "hand", "seat": 1, "tag": "cmd:agree"})
    assert not any(ev.get("evening") for ev in events)  # the Trident answers it (not now, in the deal)
    assert read_script(daemon.journal_path).lines[-1][1]["tag"] == "cmd:agree"


def test_a_session_game_is_recorded_once_even_after_an_undo_and_a_restart(tmp_path):
    db = _club(tmp_path)
    club = ClubSession(1, db, "en")
    daemon, heard, complaints = _table(tmp_path, club)
    assert _speaker(heard)[0] == "Game 1 of 5."
    result = _finish(daemon)
    assert club.recorded() == 1
    daemon.submit({"console": "undo"})  # the game-ending input taken back ...
    last = read_script(daemon.journal_path).lines[-2][1]
    daemon.submit({k: v for k, v in last.items() if k != "t"})  # ... and played again
    assert club.recorded() == 1 and any("already recorded" in c for c in complaints)
    daemon.close()
    # a restart on the finished game: the records are not touched, the table waits for game 2
    again = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    again.open()
    heard2: list[dict] = []
    again.subscribe(lambda line, events: heard2.extend(events))
    Evening(again, ClubSession(1, db, "en"), complain=complaints.append).begin()
    assert club.recorded() == 1
    assert _speaker(heard2)[0].startswith("Game 1 of 5 is over. First, ")  # said again, not recorded again
    assert _speaker(heard2)[1:] == ["For game 2, everyone scans AGREE on their hand reader."]
    firsts = again.snapshot()["session"]["scores"]
    winner = result["ranking"][0]["seat"]
    assert [s["firsts"] for s in firsts] == [int(s["seat"] == winner) for s in firsts]
    again.submit({"console": "new"})
    assert again.snapshot()["session"]["game"] == 2
    assert read_script(again.journal_path).header.extra["session"]["game"] == 2


def test_records_out_of_reach_at_game_over_are_said_and_the_table_plays_on(tmp_path):
    db = _club(tmp_path)
    daemon, heard, complaints = _table(tmp_path, ClubSession(1, db, "en"))
    db.rename(tmp_path / "club.away")
    db.mkdir()  # the records file is gone (a database server down would do the same)
    n = len(heard)
    _finish(daemon)
    assert "This game could not be recorded. The referee has the reason." in _speaker(heard[n:])
    assert any("record-log 1" in c for c in complaints)
    daemon.submit({"console": "new"})  # the next game starts all the same
    assert not daemon.table.game.over and daemon.table.inputs == 0


def test_a_game_over_before_the_recording_is_recorded_on_restart(tmp_path):
    db = _club(tmp_path)
    daemon = Daemon(Header("trident", 3, dict(COMPETITION), "en",
                           {"session": Evening.header_session(ClubSession(1, db, "en"))}), tmp_path / "j.jsonl")
    daemon.open()
    _finish(daemon, seed=2)  # no evening attached: as if killed before the records were written
    daemon.close()
    again = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    again.open()
    heard: list[dict] = []
    again.subscribe(lambda line, events: heard.extend(events))
    club = ClubSession(1, db, "en")
    Evening(again, club, complain=lambda m: None).begin()
    assert club.recorded() == 1
    assert _speaker(heard)[0].startswith("Game 1 of 5 is over. First, ")


def test_session_lines_in_japanese_use_kanji_and_the_spoken_names(tmp_path):
    db = _club(tmp_path)
    daemon, heard, _ = _table(tmp_path, ClubSession(1, db, "ja"), lang="ja")
    _finish(daemon)
    spoken = _speaker(heard)
    assert spoken[0] == "公式練習会、全5回戦のうち第1回戦です。"
    assert spoken[-2].startswith("第1回戦が終わりました。1位、") and "ann" in spoken[-2]  # the spoken name
    assert spoken[-1] == "第2回戦に進みます。全員、手元のリーダーに合意のタグをかざしてください。"


@pytest.mark.parametrize("game, players, options, why", [
    ("trident", 3, {"scoring": "normal"}, "competition scoring"),
    ("trident", 3, {}, "competition scoring"),
    ("trident", 4, COMPETITION, "exactly 3 players"),
    ("onisagashi", 3, {}, "Trident games"),
])
def test_a_session_refuses_a_table_set_otherwise(game, players, options, why):
    with pytest.raises(SessionRefused, match=why):
        check_session_table(game, players, options)


@pytest.mark.parametrize("session", ["x", {"id": 1, "game": 0, "of": 5}, {"id": True, "game": 1, "of": 5},
                                     {"id": 1, "game": 1, "of": 10**9}])
def test_a_malformed_session_in_a_journal_header_is_one_line(session):
    with pytest.raises(SessionRefused, match="journal header"):
        SessionState.from_header(Header("trident", 3, {}, "en", {"session": session}))


def test_serve_refuses_normal_scoring_in_a_session_before_anything_starts(tmp_path):
    _club(tmp_path)
    table = Path(__file__).parents[2] / "games" / "trident" / "sim.toml"
    text = table.read_text().replace("var/trident-sim.jsonl", "var/j.jsonl")
    (tmp_path / "table.toml").write_text(text.replace('"competition"', '"normal"'))
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--session", "1",
                           "--db", "club.sqlite", "--voice", "text"], cwd=tmp_path, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode != 0
    assert proc.stderr.count("\n") == 1 and "competition scoring" in proc.stderr
    assert not (tmp_path / "var").exists()  # nothing was created


def test_serve_refuses_a_session_that_is_not_open(tmp_path):
    db = _club(tmp_path)
    with Club(db) as club:
        club.end_session(1, abandon=True)
    table = Path(__file__).parents[2] / "games" / "trident" / "sim.toml"
    text = table.read_text().replace("var/trident-sim.jsonl", "var/j.jsonl")
    (tmp_path / "table.toml").write_text(text)
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--session", "1",
                           "--db", "club.sqlite", "--voice", "text"], cwd=tmp_path, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode != 0 and "abandoned, not open" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_restart_mid_game_resumes_the_session_and_says_so(tmp_path):
    db = _club(tmp_path)
    daemon, heard, _ = _table(tmp_path, ClubSession(1, db, "en"))
    script, _ = play("trident", 1, 3, COMPETITION)
    for line in script[1:11]:
        daemon.submit({k: v for k, v in line.items() if k != "t"})
    daemon.close()
    again = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    again.open()
    assert again.resumed == 10
    said: list[dict] = []
    again.subscribe(lambda line, events: said.extend(events))
    Evening(again, ClubSession(1, db, "en")).begin()
    assert _speaker(said) == ["Game 1 of 5 continues."]
    assert again.snapshot()["session"]["game"] == 1 and "waiting" not in again.snapshot()["session"]


def test_a_journal_of_another_unfinished_game_is_refused_for_a_session(tmp_path):
    db = _club(tmp_path)
    daemon = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    daemon.open()
    daemon.submit({"reader": "hand", "seat": 1, "tag": "trident:heart-1"})
    daemon.close()
    again = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    again.open()
    with pytest.raises(SessionRefused, match="unfinished game that is not of session 1"):
        Evening(again, ClubSession(1, db, "en")).begin()


def test_a_plain_restart_of_a_session_journal_resumes_the_session(tmp_path, capsys):
    from kikimimi.cli.serve import _evening
    from kikimimi.table.config import load_table_config

    db = _club(tmp_path)
    table = Path(__file__).parents[2] / "games" / "trident" / "sim.toml"
    (tmp_path / "t.toml").write_text(table.read_text().replace("var/trident-sim.jsonl", "j.jsonl"))
    config = load_table_config(tmp_path / "t.toml")
    daemon, _, _ = _table(tmp_path, ClubSession(1, db, "en"))
    daemon.submit({"reader": "hand", "seat": 1, "tag": "trident:heart-1"})
    daemon.close()
    again = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    again.open()
    evening = _evening(again, None, db, config)  # `serve t.toml` without --session
    evening.begin()
    assert evening.session is not None and evening.session.id == 1
    assert again.snapshot()["session"]["game"] == 1
    again.close()
    with Club(db) as club:  # a session that is no longer open is not resumed: the table plays on
        club.end_session(1, abandon=True)
    third = Daemon(Header("trident", 3, dict(COMPETITION), "en"), tmp_path / "j.jsonl")
    third.open()
    evening = _evening(third, None, db, config)
    evening.begin()
    assert evening.session is None
    assert "was a game of session 1, not resumed: session 1 is abandoned" in capsys.readouterr().err
