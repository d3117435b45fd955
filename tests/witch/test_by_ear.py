"""Ear-only bots finish 闇に笑う魔女: everything a player needs is spoken (docs/ear.md)."""
from __future__ import annotations

import random

import pytest

from kikimimi.bots import ear
from kikimimi.roles.ear import DealtCards
from kikimimi.design.sim import play
from kikimimi.testkit.ear_spy import heard_on_own_ears, spy_on_ear_bots, touched
from kikimimi_games.witch import ear as witch_ear


@pytest.mark.parametrize("players", [5, 6, 8, 10, 12, 16])
def test_ear_bots_finish_every_game_without_a_refusal(players):
    for seed in range(3):
        script, log = play("witch", seed, players, {}, "ear")
        figures = ear.game_figures(script, log)
        assert figures["finished"] and not figures["internal"], (players, seed, figures)
        assert figures["refused"] == 0
        assert play("witch", seed, players, {}, "ear")[1] == log  # seeded: the same game again


def test_ear_bots_hear_only_the_speaker_and_their_own_earphone_as_spoken(monkeypatch):
    calls = spy_on_ear_bots(monkeypatch, "witch")
    _, log = play("witch", 4, 10, {}, "ear")
    assert any(e["type"] == "game-over" for e in log)
    heard_on_own_ears(calls)
    assert touched(calls) <= {witch_ear.Reach, type(None)}


def test_a_seat_can_scan_only_its_own_card():
    world = DealtCards("witch:role", ["witch", "human", "human", "human", "mirror"], random.Random(1))
    mine, other = world.reach(1).card, world.reach(2).card
    assert world.tag_for(1, mine) == world.cards[1] and world.tag_for(1, other) is None
    assert world.public_tag("seat:3") and world.public_tag("cmd:ok") and not world.public_tag(world.cards[1])
