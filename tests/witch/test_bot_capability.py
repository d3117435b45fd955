"""Every 闇に笑う魔女 bot holds only its seat's view: walked, nothing in reach is the table,
another seat's card or private line, or the seed that deals the roles
(`kikimimi/testkit/capability.py`).  Before this, every `BotSeat` held that seed
(the whole deal rebuilt from it); a bot seated the old way is caught here."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.bots.ear import EarTable
from kikimimi.table.engine import Table
from kikimimi.contract.protocol import Play
from kikimimi.roles.ear import DealtCards
from kikimimi.testkit.capability import (
    Forbidden, audit, cards_of_others, deal_seed, instances, same_objects, secret_events)
from kikimimi_games.witch import bots
from kikimimi_games.witch.bots import WitchSimulation

#: A seed no seat number or count equals: found in reach, it is the seed.
SEED = 8_190_337_421
PLAYERS = 8


def forbidden(table: Any, seat: int, log: list[Any]) -> list[Forbidden]:
    cards = table.world.cards if isinstance(table, EarTable) else table.cards
    deal = [table.rng] if isinstance(table, WitchSimulation) else []
    return [instances(WitchSimulation, EarTable, DealtCards, Table, Play, name="the table"),
            same_objects(cards, *deal, name="the table's cards or generator"),
            deal_seed(SEED, random.Random(SEED)),
            cards_of_others(cards, seat),
            secret_events(log, seat)]


@pytest.mark.parametrize("bot", ["reason", "plain", "random", "ear"])
def test_no_bot_can_reach_another_role_or_the_deal(bot):
    found, walks = audit("witch", SEED, PLAYERS, {}, bot, forbidden, every=60, max_inputs=300)
    assert walks >= 2 * PLAYERS
    assert found[:5] == []


def test_the_walk_catches_a_bot_seated_the_old_way_with_the_seed(monkeypatch):
    """The old seating: every seat held the table's seed."""
    original = WitchSimulation.__init__

    def old_seating(self: Any, seed: int, *args: Any, **kwargs: Any) -> None:
        original(self, seed, *args, **kwargs)
        self.bots[3].seed = seed

    monkeypatch.setattr(bots.WitchSimulation, "__init__", old_seating)
    found, _ = audit("witch", SEED, PLAYERS, {}, "plain", forbidden, every=60, max_inputs=60)
    assert {(leak.path, leak.why) for leak in found} == {("seat 3: bot.seed", f"the deal's seed {SEED}")}


def test_the_walk_catches_a_bot_handed_the_table(monkeypatch):
    original = WitchSimulation.__init__

    def leaky(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.bots[5].mind.table = self  # one line from every card

    monkeypatch.setattr(bots.WitchSimulation, "__init__", leaky)
    found, _ = audit("witch", SEED, PLAYERS, {}, "reason", forbidden, every=60, max_inputs=60)
    whys = {leak.why for leak in found if leak.path.startswith("seat 5: bot.mind.table")}
    assert "the table (WitchSimulation)" in whys
    assert any(why.startswith("seat 1's card witch:role-") for why in whys)
    assert not any(leak.path.startswith("seat 4:") for leak in found)
