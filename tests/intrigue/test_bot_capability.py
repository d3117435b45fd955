"""Every イントリーゲ bot holds only its seat's view: walked, nothing in reach is the table,
another seat's private line (a hidden offer, its cash), another seat's generator (which
foretells its hidden offers), or the game's seed (`kikimimi/testkit/capability.py`)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.bots.ear import EarTable
from kikimimi.table.engine import Table
from kikimimi.contract.protocol import Play
from kikimimi.testkit.capability import (
    Forbidden, audit, bots_of, deal_seed, instances, same_objects, secret_events)
from kikimimi_games.intrigue import bots
from kikimimi_games.intrigue.bots import IntrigueSimulation

#: A seed no seat number, amount or count equals: found in reach, it is the seed.
SEED = 4_420_981_557
PLAYERS = 4
HIDDEN = {"bribes": "hidden"}


def forbidden(table: Any, seat: int, log: list[Any]) -> list[Forbidden]:
    others = [b.rng for s, b in bots_of(table).items() if s != seat and hasattr(b, "rng")]
    world = [table.world] if isinstance(table, EarTable) else []
    return [instances(IntrigueSimulation, EarTable, Table, Play, name="the table"),
            same_objects(*others, *world, name="another seat's generator or the table's pieces"),
            deal_seed(SEED, random.Random(SEED), *others),
            secret_events(log, seat)]


@pytest.mark.parametrize("bot", ["greedy", "random", "ev", "ev-table", "ear"])
def test_no_bot_can_reach_another_offer_or_generator(bot):
    found, walks = audit("intrigue", SEED, PLAYERS, HIDDEN, bot, forbidden, every=40, max_inputs=300)
    assert walks >= 3 * PLAYERS
    assert found[:5] == []


def test_the_walk_catches_a_bot_that_holds_its_neighbours_generator(monkeypatch):
    """Seat 2 keeps seat 3's generator (it would know seat 3's next hidden offer) and a
    copy of seat 4's in the same state."""
    original = IntrigueSimulation.__init__

    def leaky(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        spy = self.bots[1]
        spy.neighbour = self.bots[2].rng
        spy.twin = random.Random()
        spy.twin.setstate(self.bots[3].rng.getstate())

    monkeypatch.setattr(bots.IntrigueSimulation, "__init__", leaky)
    found, _ = audit("intrigue", SEED, PLAYERS, HIDDEN, "greedy", forbidden, every=40, max_inputs=2)
    said = {(leak.path, leak.why) for leak in found}
    assert ("seat 2: bot.neighbour", "another seat's generator or the table's pieces") in said
    assert ("seat 2: bot.twin", "a generator in the deal's state") in said
    assert {leak.path.split(":")[0] for leak in found} == {"seat 2"}
