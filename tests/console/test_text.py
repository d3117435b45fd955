"""The console's grammar, its text rendering and its command line (no table needed)."""
from __future__ import annotations

import pytest

from kikimimi.cli import CliError, build_parser
from kikimimi.cli.console import socket_from_args
from kikimimi.console.commands import CommandError, parse_command
from kikimimi.console.render import event_line, input_text, table_text


def test_commands_are_table_script_lines():
    assert parse_command("  declare   trident 2 ", 3).line == {"console": "declare trident 2"}
    assert parse_command("session start", 3).line == {"console": "session start"}
    assert parse_command("lost 2", 3).line == {"reader": "hand", "seat": 2, "lost": True}
    assert parse_command("back f", 3).line == {"reader": "field", "back": True}
    assert parse_command("undo", 3).kind == "undo" and parse_command("undo", 3).line is None
    assert parse_command("", 3) is None
    for bad, why in (("lost 4", "seat number"), ("lost", "one reader"), ("undo 3", "nothing after")):
        with pytest.raises(CommandError, match=why):
            parse_command(bad, 3)


def test_an_unknown_game_snapshot_is_shown_as_key_value_text():
    header = {"game": "witch", "players": 2, "lang": "en"}
    text = table_text(header, {"over": False, "game": {"turn": 2, "moon": "full", "cauldron": [1, 2],
                                                      "result": None, "history": []}})
    assert "seat 2: <- turn" in text and "moon: full" in text and "cauldron: 1, 2" in text
    assert "result" not in text and "history" not in text and "null" not in text
    assert "seat 1:" in text and "seat 1: <- turn" not in text


def test_hands_field_and_basket_of_a_trident_like_snapshot():
    snapshot = {"over": False, "game": {
        "phase": "turn", "turn": 1, "suit": "heart", "pending": 4,
        "hands": {"1": ["trident:heart-3"], "2": ["trident:spade-1", "trident:draw-2-1"]},
        "field": ["trident:heart-1", "trident:heart-2"], "basket": ["trident:clover-1"] * 7,
        "declared": {"1": True, "2": False}, "owed": {"1": 0, "2": 2}}}
    text = table_text({"game": "trident", "players": 2}, snapshot)
    assert "seat 1: 1 piece (heart-3) <- turn declared trident" in text
    assert "seat 2: 2 pieces (spade-1, draw-2-1) owes 2" in text
    assert "field: 2 pieces, top heart-2" in text and "basket: 7 pieces" in text
    assert "pending attack: 4" in text and "suit: heart" in text


def test_log_lines_say_who_hears_what():
    assert event_line({"type": "say", "to": "seat:2", "text": "heart 3"}) == "[seat 2 ear] heart 3"
    assert event_line({"type": "say", "to": "table", "text": "turn 1"}) == "[speaker] turn 1"
    assert event_line({"type": "draw", "seat": 1, "tag": "trident:heart-3", "private": "seat:1"}) \
        == "- draw seat=1 tag=heart-3 (private)"
    assert event_line({"type": "timer-set", "name": "idle", "at": 3}) is None
    assert input_text({"reader": "field", "tag": "toy:stone-1", "removed": True}) \
        == "stone-1 taken off the field reader"


def test_console_finds_the_table_from_its_config(tmp_path):
    (tmp_path / "t.toml").write_text('[table]\ngame = "trident"\nplayers = 2\njournal = "var/x.jsonl"\n'
                                     '[readers.a]\nrole = "hand"\nseat = 1\ndriver = "sim"\n'
                                     '[readers.b]\nrole = "hand"\nseat = 2\ndriver = "sim"\n')
    parser = build_parser()
    args = parser.parse_args(["console", str(tmp_path / "t.toml")])
    assert socket_from_args(args) == tmp_path / "var" / "x.jsonl.sock"
    args = parser.parse_args(["console", str(tmp_path / "t.toml"), "--spectator"])
    assert socket_from_args(args) == tmp_path / "var" / "x.jsonl.public.sock"
    with pytest.raises(CliError, match="no table is being served"):
        args = parser.parse_args(["console", str(tmp_path / "t.toml")])
        args.func(args)
    with pytest.raises(CliError, match="which table"):
        socket_from_args(parser.parse_args(["console"]))


def test_the_session_pane_says_game_k_of_n_the_scores_and_who_is_ready():
    from kikimimi.console.render import session_text

    snapshot = {"session": {"id": 4, "game": 3, "of": 5, "closed": False, "waiting": True, "ready": [1, 3],
                            "scores": [{"seat": 1, "name": "Ann", "firsts": 1, "points": 12},
                                       {"seat": 2, "name": "Bob", "firsts": 2, "points": 30}]}}
    assert session_text(snapshot).splitlines() == [
        "Session 4: game 3 of 5", "  seat 1 Ann: 1 win, 12 points", "  seat 2 Bob: 2 wins, 30 points",
        "Between games: ready: 1, 3 (AGREE on each hand reader, or: new)"]
    assert session_text({"session": None}) == "Session: none (a single game)"
    assert session_text({"session": {"waiting": True, "ready": []}}).endswith("ready: nobody yet (AGREE on each hand reader, or: new)")


def test_every_listed_command_is_one_the_served_game_accepts():
    """No game offers a command it then refuses as unknown (the old `session start`)."""
    from kikimimi.console.commands import game_commands
    from kikimimi.table.engine import Table
    from importlib.metadata import entry_points

    from kikimimi.contract.registry import declaration
    from kikimimi.contract.script import Header

    for name in sorted(ep.name for ep in entry_points(group="kikimimi.games")):  # the shipped games
        decl = declaration(name)
        table = Table(Header(name, decl.default_players, {}, "en"))
        table.start()
        for syntax, _ in game_commands(name):
            first = syntax.split(" | ")[0]  # "yes SEAT | no SEAT": alternatives; "pass|agree": choices
            line = " ".join("2" if w.isupper() else w.split("|")[0] for w in first.split())
            if line.split()[0] == "stop":
                continue
            events = table.feed(2, {"t": 1.0, "console": line})
            unknown = [ev["message"] for ev in events if ev["type"] == "error"
                       and ("unknown command" in ev["message"] or "unknown console command" in ev["message"])]
            assert not unknown, (name, syntax, unknown)
