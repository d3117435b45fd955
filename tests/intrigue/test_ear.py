"""Ear-only bots finish Intrige from what they hear: names, never tags; their own earphone and the speaker."""
from __future__ import annotations

import pytest

from kikimimi.ear import Heard
from kikimimi.engine import Table
from kikimimi.protocol import TABLE, seat_audience
from kikimimi.script import Header
from kikimimi.sim import play
from kikimimi.testing.ear_spy import spy_on_ear_bots
from kikimimi_games.intrigue.ear import Reach


@pytest.mark.parametrize("players, options", [(4, {}), (5, {"edition": "amigo", "bribes": "hidden"})])
def test_ear_bots_finish_hearing_only_names_on_their_own_ears(monkeypatch, players, options):
    calls = spy_on_ear_bots(monkeypatch, "intrigue")
    script, log = play("intrigue", 9, players, options, "ear")
    over = [e for e in log if e["type"] == "game-over"]
    assert over and over[0]["reason"] == "end"
    heard = [(s, h) for s, h, what in calls if what == "hear"]
    assert heard and all(type(h) is Heard and h.to in (TABLE, seat_audience(s)) for s, h in heard)
    assert not [h for _, h in heard if any(":" in str(v) for v in h.params.values())]  # no tag is ever heard
    assert {type(r) for _, r, what in calls if what == "act"} == {Reach}
    # The recorded script replays to the same log.
    table = Table(Header.parse(script[0]))
    replayed = table.start()
    for n, line in enumerate(script[1:], start=2):
        replayed += table.feed(n, line)
    assert replayed == log


def test_a_seat_touches_only_its_hand_its_garden_and_its_sections():
    from kikimimi_games.intrigue.ear import ear_simulation

    table = ear_simulation(3, 4, {})
    world = table.world
    others = [h for s in (2, 3, 4) for h in world.reach(s).hand]
    assert others and all(world.tag_for(1, h) is None for h in others)
    assert all(world.tag_for(1, h) is not None for h in world.reach(1).hand)
    assert world.public_tag("intrigue:section-3") and world.public_tag("seat:2")
    assert not world.public_tag("intrigue:advisor-1-law-1")  # a piece is touched, never named
