"""Seating order, spoken lines, and the records commands run through argparse."""
import argparse
import csv
import io
import json

import pytest
from records_helpers import game_over, new_club_players, play

from kikimimi.cli.records import add_parser
from kikimimi.records import Rank
from kikimimi.records.seating import seating_line, seating_order


def names(players):
    return [p.name for p in players]


def test_all_first_time_choose_in_order_of_arrival(club):
    new_club_players(club)
    arrivals = [club.player(n) for n in "CAB"]
    assert names(seating_order(arrivals)) == ["C", "A", "B"]
    assert seating_line(arrivals, "ja") == "全員はじめてなので、来た順に座席を選びます。cかな、aかな、bかな。"


def test_lowest_then_highest_then_middle(club):
    new_club_players(club, names=("A", "B", "C", "D"))
    play(club, "AAAAAAAAAA")  # A Bishop (Viscount), B and C Apprentices
    arrivals = [club.player(n) for n in ("B", "A", "D")]  # D is new: lowest
    assert names(seating_order(arrivals)) == ["D", "A", "B"]
    assert seating_line(arrivals, "en") == "Seats are chosen in this order: D, A, B."


def test_apprentices_are_equal_whatever_their_peerage(club):
    new_club_players(club)
    play(club, "CCCCA")  # all Apprentices; C is a Baron
    assert club.player("C").peerage == 1 and club.player("C").rank is Rank.APPRENTICE
    arrivals = [club.player(n) for n in "CAB"]
    assert names(seating_order(arrivals)) == ["C", "A", "B"]  # arrival order, peerage ignored


def test_rank_then_peerage_then_who_reached_the_rank_first(club):
    new_club_players(club, names=("A", "B", "C", "D", "E"))
    play(club, "ABABABABAB", names=("A", "B", "C"))
    play(club, "ABABABABAB", names=("A", "B", "C"))  # A and B reach Bishop together...
    play(club, "DDDDDDDDDD", names=("D", "C", "E"))  # D reaches Bishop later, with a peerage
    a, b, d = (club.player(n) for n in "ABD")
    assert {a.rank, b.rank, d.rank} == {Rank.BISHOP} and d.peerage == 2 and a.peerage == 0
    # peerage beats an earlier arrival at the rank
    assert names(seating_order([a, d, club.player("C")])) == ["C", "D", "A"]
    # same rank and peerage: who reached it earlier (A settled before B, same session)
    assert a.rank_since < b.rank_since
    assert names(seating_order([b, a, club.player("C")])) == ["C", "A", "B"]


def run(db, capsys, *argv):
    """One records command through argparse against `db` (a file or a URL)."""
    parser = argparse.ArgumentParser(prog="kikimimi")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([*argv, "--db", str(db)])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_session_from_event_logs_to_settlement_and_export(db_url, tmp_path, capsys):
    for name, kana, form in (("Taro", "たろう", "king"), ("Hanako", "はなこ", "queen"), ("Jiro", "じろう", "king")):
        assert run(db_url, capsys, "players", "add", name, "--kana", kana, "--form", form)[0] == 0
    code, out, _ = run(db_url, capsys, "session", "start", "--kind", "half", "Taro", "Hanako", "Jiro")
    assert (code, out.strip()) == (0, "session 1 open: half trial, 5 games")
    for k in range(1, 6):
        log = tmp_path / f"game{k}.jsonl"
        log.write_text("\n".join(json.dumps(e) for e in (
            {"seq": 1, "t": 0.0, "type": "turn", "seat": 1, "in": 2},
            {"seq": 2, "t": 9.0 + k, "in": 7, **game_over(2)},
        )) + "\n")
        code, out, err = run(db_url, capsys, "session", "record-log", "1", str(log), "--seats", "Taro,Hanako,Jiro")
        assert code == 0, err
        assert out.startswith(f"session 1 game {k} of 5: 1st Hanako")
    assert "Hanako: " in out and "Baroness Apprentice" in out  # settled after game 5
    code, out, _ = run(db_url, capsys, "players", "show", "Hanako")
    assert "4-win streaks 1" in out and "first-session:apprentice" in out
    code, out, _ = run(db_url, capsys, "seating", "Hanako", "Taro", "Jiro", "--lang", "ja")
    assert out.splitlines()[-1] == "座席を選ぶ順番は、はなこ、たろう、じろうです。"  # Apprentices: arrival
    code, out, _ = run(db_url, capsys, "export", "--what", "players")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["name"], r["rank"], r["peerage"], r["wins"]) for r in rows] == [
        ("Taro", "apprentice", "", "0"), ("Hanako", "apprentice", "baroness", "5"), ("Jiro", "apprentice", "", "0")]
    code, out, _ = run(db_url, capsys, "export", "--what", "games")
    assert len(list(csv.DictReader(io.StringIO(out)))) == 15


@pytest.mark.parametrize("argv, message", [
    (("session", "end", "7"), "no session 7"),
    (("players", "show", "Nobody"), "no player 'Nobody'"),
    (("contest", "record", "Nobody", "--name", "Cup"), "no player 'Nobody'"),
])
def test_cli_refusals_are_one_line_with_status_2(db_url, capsys, argv, message):
    run(db_url, capsys, "players", "add", "A", "--kana", "a")
    code, out, err = run(db_url, capsys, *argv)
    assert code == 2 and err == f"kikimimi: {message}\n"


def test_cli_record_log_without_game_over_and_abandon(db_url, tmp_path, capsys):
    for n in "ABC":
        run(db_url, capsys, "players", "add", n, "--kana", n.lower())
    run(db_url, capsys, "session", "start", "A", "B", "C")
    log = tmp_path / "partial.jsonl"
    log.write_text('{"seq": 1, "type": "turn", "seat": 1}\n')
    code, _, err = run(db_url, capsys, "session", "record-log", "1", str(log), "--seats", "A,B,C")
    assert code == 2 and "no game-over event" in err and err.count("\n") == 1
    code, _, err = run(db_url, capsys, "session", "end", "1")
    assert code == 2 and "0 of 10 games" in err
    code, out, _ = run(db_url, capsys, "session", "end", "1", "--abandon")
    assert code == 0 and "abandoned" in out
    code, out, _ = run(db_url, capsys, "session", "status", "1")
    assert "abandoned: 0 of 10 games" in out


def test_cli_refuses_a_foreign_file(tmp_path, capsys):
    (tmp_path / "club.sqlite").write_bytes(b"\x00not a database" * 100)
    code, _, err = run(tmp_path / "club.sqlite", capsys, "players", "list")
    assert code == 2 and "not a kikimimi records database" in err
