"""Ear-only bots finish Intrige from what they hear: names, never tags; their own earphone and the speaker."""
from __future__ import annotations

import pytest

from kikimimi.table.engine import run_script
from kikimimi.design.sim import play
from kikimimi.testkit.ear_spy import heard_on_own_ears, spy_on_ear_bots, touched
from kikimimi_games.intrigue.ear import Reach


@pytest.mark.parametrize("players, options", [(4, {}), (5, {"edition": "amigo", "bribes": "hidden"})])
def test_ear_bots_finish_hearing_only_names_on_their_own_ears(monkeypatch, players, options):
    calls = spy_on_ear_bots(monkeypatch, "intrigue")
    script, log = play("intrigue", 9, players, options, "ear")
    over = [e for e in log if e["type"] == "game-over"]
    assert over and over[0]["reason"] == "end"
    heard_on_own_ears(calls)
    assert touched(calls) == {Reach}
    assert run_script(script) == log  # the recorded script replays to the same log


def test_a_seat_touches_only_its_hand_its_garden_and_its_sections():
    from kikimimi_games.intrigue.ear import ear_simulation

    table = ear_simulation(3, 4, {})
    world = table.world
    others = [h for s in (2, 3, 4) for h in world.reach(s).hand]
    assert others and all(world.tag_for(1, h) is None for h in others)
    assert all(world.tag_for(1, h) is not None for h in world.reach(1).hand)
    assert world.public_tag("intrigue:section-3") and world.public_tag("seat:2")
    assert not world.public_tag("intrigue:advisor-1-law-1")  # a piece is touched, never named
