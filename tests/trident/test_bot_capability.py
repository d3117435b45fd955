"""Every Trident bot holds only its seat's view: walked, nothing in reach is the table,
another hand, the basket, or the deal's seed or generator (`kikimimi/testkit/capability.py`).

The behaviour test (`test_knowledge.py`) shows the bots do not read the other
hands; this one shows they cannot: a deliberately leaky bot is caught."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.table.engine import Table
from kikimimi.contract.protocol import Play
from kikimimi.testkit.capability import (
    Forbidden, audit, containers_equal, deal_seed, instances, leaks, same_objects)
from kikimimi_games.trident import simulation
from kikimimi_games.trident.ear import TridentWorld
from kikimimi_games.trident.simulation import Bot, TridentSimulation, World

#: A seed no seat number, count or piece index equals: found in reach, it is the seed.
SEED = 7_305_226_913
PLAYERS = 3


def _deal_generators(seed: int) -> list[random.Random]:
    """The generators that deal a table of this seed, as they stood before the deal
    (`TridentSimulation` and the ear table both draw the world's generator first)."""
    master = random.Random(seed)
    return [random.Random(seed), random.Random(master.random())]


def forbidden(table: Any, seat: int, log: list[Any]) -> list[Forbidden]:
    world = table.world.table if isinstance(table.world, TridentWorld) else table.world
    secrets = {f"seat {s}'s hand": list(h) for s, h in world.hands.items() if s != seat}
    secrets["the basket"] = list(world.basket)
    return [instances(World, TridentSimulation, TridentWorld, Table, Play, name="the table"),
            # every hand's list, the seat's own too: the table's list of a hand moves to the
            # next seat when the hands rotate, so a bot holding it would follow another hand
            same_objects(world.rng, world.basket, world.hands, *world.hands.values(),
                         name="the table's own pieces or generator"),
            deal_seed(SEED, *_deal_generators(SEED)),
            containers_equal(secrets)]


@pytest.mark.parametrize("bot", ["human", "random", "search", "ear"])
def test_no_bot_can_reach_another_hand_the_basket_or_the_deal(bot):
    found, walks = audit("trident", SEED, PLAYERS, {}, bot, forbidden, max_inputs=400)
    assert walks >= 3 * PLAYERS
    assert found == []


class Holder(Bot):
    """A leaky bot: it keeps the table it was never meant to have (one line could read it)."""

    table: World


def test_the_walk_catches_a_bot_that_holds_the_table(monkeypatch):
    original = TridentSimulation.__init__

    def seat_a_holder(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        old = self.bots[2]
        holder = Holder(2, old.players, old.temper, old.rng)
        holder.table = self.world
        self.replace(2, holder)

    monkeypatch.setattr(simulation.TridentSimulation, "__init__", seat_a_holder)
    found, _ = audit("trident", SEED, PLAYERS, {}, "random", forbidden, max_inputs=60)
    whys = {leak.why for leak in found if leak.path.startswith("seat 2:")}
    assert "the table (World)" in whys
    assert any("seat 1's hand" in why or "the table's own" in why for why in whys)
    assert not any(leak.path.startswith(("seat 1:", "seat 3:")) for leak in found)


def test_the_walk_catches_a_closure_over_the_seed_and_a_copied_hand():
    world = World(PLAYERS, random.Random(5))
    world.hands[1] = ["trident:heart-1", "trident:spade-2"]
    bot = Bot(2, PLAYERS, simulation.Temper(), random.Random(1))
    seed = SEED
    bot.peek = lambda: seed  # type: ignore[attr-defined]  # a closure's cell holds the seed
    bot.notes = {"later": tuple(reversed(world.hands[1]))}  # type: ignore[attr-defined]
    bot.again = random.Random(SEED)  # type: ignore[attr-defined]  # replays the deal
    found = leaks(bot, deal_seed(SEED, *_deal_generators(SEED)),
                  containers_equal({"seat 1's hand": world.hands[1]}))
    paths = {leak.path: leak.why for leak in found}
    assert paths["bot.peek <cell seed>"] == f"the deal's seed {SEED}"
    assert paths["bot.notes['later']"] == "seat 1's hand"
    assert paths["bot.again"] == "a generator in the deal's state"
