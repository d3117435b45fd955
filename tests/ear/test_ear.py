"""Ear-only bots: they hear only the speaker and their own earphone, and still finish every game."""
from __future__ import annotations

import random

import pytest

from kikimimi.cli import main
from kikimimi.bots.ear import EarBot, EarTable, Handles, game_figures
from kikimimi.contract.protocol import TABLE, seat_audience
from kikimimi.design.sim import compare, play
from kikimimi.testkit.ear_spy import heard_on_own_ears, spy_on_ear_bots, touched

GAMES = [("trident", 3, {}), ("trident", 2, {}), ("trident", 4, {"scoring": "competition"}),
         ("onisagashi", 5, {}), ("onisagashi", 4, {"rules": "advanced"}),
         ("mafia42", 8, {}), ("mafia42", 12, {"mode": "cult"}), ("witch", 8, {}), ("intrigue", 4, {})]


@pytest.mark.parametrize("game,players,options", GAMES[:1] + GAMES[3:4] + [("witch", 8, {}), ("mafia42", 8, {})])
def test_ear_bots_hear_only_say_lines_for_the_speaker_or_their_own_seat(monkeypatch, game, players, options):
    calls = spy_on_ear_bots(monkeypatch, game)
    _, log = play(game, 7, players, options, "ear")
    assert any(e["type"] == "game-over" for e in log)
    heard = heard_on_own_ears(calls)
    # what a bot touches is the world's view of its reach, never the log or the game
    assert {t.__name__ for t in touched(calls)} == {"Reach"}
    # and every say the log addressed to an ear reached that ear exactly once
    says = [e for e in log if e["type"] == "say"]
    for seat in {s for s, _ in heard if s}:
        mine = [e for e in says if e["to"] in (TABLE, seat_audience(seat))]
        assert len([h for s, h in heard if s == seat]) == len(mine)


@pytest.mark.parametrize("game,players,options", GAMES)
def test_ear_bots_finish_every_game(game, players, options):
    seeds = range(12) if game == "trident" else range(3)
    for seed in seeds:
        script, log = play(game, seed, players, options, "ear")
        figures = game_figures(script, log)
        assert figures["finished"] and not figures["internal"], (game, seed, figures)
        assert play(game, seed, players, options, "ear")[1] == log  # seeded: the same game again


def test_ear_trident_games_exercise_the_spoken_moments():
    keys = set()
    for seed in range(25):
        _, log = play("trident", seed, 3, {}, "ear")
        keys |= {e["key"] for e in log if e["type"] == "say"}
    assert {"draws", "takes", "debt-paid", "wrong-piece-draws", "still-turn", "passed",
            "choose-suit", "reset-draw", "rotate-right"} <= keys


class _Seat(EarBot):
    def __init__(self, seat, proposal):
        self.seat, self.proposal = seat, proposal

    def hear(self, heard):
        pass

    def act(self, reach):
        return self.proposal


class _World:
    over = False

    def follow(self, ev):
        pass

    def reach(self, seat):
        return None

    def tag_for(self, seat, handle):
        return "trident:heart-1" if (seat, handle) == (1, 5) else None

    def public_tag(self, tag):
        return tag.startswith("cmd:")


def test_a_line_a_seat_could_not_physically_make_is_dropped():
    impossible = [_Seat(2, {"reader": "hand", "piece": 5}),  # seat 1's piece, out of seat 2's reach
                  _Seat(1, {"reader": "hand", "tag": "trident:heart-2"}),  # a look-alike piece named, not touched
                  _Seat(None, {"reader": "hand", "tag": "cmd:pass"})]  # the referee has no hand reader
    assert EarTable("trident", _World(), impossible).next_input() is None
    table = EarTable("trident", _World(), impossible + [_Seat(1, {"reader": "hand", "piece": 5, "seat": 3})])
    assert table.next_input() == {"reader": "hand", "seat": 1, "tag": "trident:heart-1"}


def test_handles_say_nothing_about_the_piece():
    tags = [f"t:{i}" for i in range(54)]
    a, b = Handles(tags, random.Random(1)), Handles(tags, random.Random(2))
    assert sorted(a.of(t) for t in tags) == list(range(1, 55))
    assert [a.of(t) for t in tags] != [b.of(t) for t in tags] and a.tag(a.of("t:7")) == "t:7"


def test_the_ear_report_sits_beside_the_event_bots():
    text = compare("trident", 3, 1, 3, {})
    lines = text.splitlines()
    assert lines[1].split()[:4] == ["ear", "bots", "finished", "3/3"] and lines[2].split()[:2] == ["event", "bots"]
    assert all("refused inputs per game" in line and "game length" in line for line in lines[1:])


def test_sim_command_plays_ear_bots(capsys):
    assert main(["sim", "onisagashi", "--bot", "ear", "--games", "2", "--option", "rounds=1"]) == 0
    out = capsys.readouterr().out
    assert "ear bots" in out and "event bots" in out and "internal errors 0" in out
    assert main(["sim", "trident", "--bot", "ear", "--seed", "4"]) == 0
    assert '"game-over"' in capsys.readouterr().out


def test_seat_numbers_are_ascii_digits_in_range():
    from kikimimi.contract.hints import seat_number

    assert [seat_number(w, 4) for w in ("1", "4", "5", "0", "²", "３", "-1", "1" * 5000, "")] == \
        [1, 4, None, None, None, None, None, None, None]


def test_a_game_without_ear_bots_is_a_one_line_refusal(toy, capsys):
    assert main(["sim", toy.name, "--bot", "ear", "--games", "1"]) != 0
    out = capsys.readouterr()
    assert "has no ear bots" in out.err and out.err.count("\n") == 1 and "ear bots" not in out.out
