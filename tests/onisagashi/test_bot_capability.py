"""Every 鬼探し bot holds only its seat's view: walked, nothing in reach is the table,
another seat's hand, its private lines, or the seed that deals
(`kikimimi/testkit/capability.py`)."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.bots.ear import EarTable
from kikimimi.table.engine import Table
from kikimimi.contract.protocol import Play
from kikimimi.testkit.capability import (
    Forbidden, audit, containers_equal, deal_seed, instances, public_collections, same_objects, secret_events)
from kikimimi_games.onisagashi import bots
from kikimimi_games.onisagashi.bots import OnisagashiSimulation
from kikimimi_games.onisagashi.cards import CARD_PREFIX
from kikimimi_games.onisagashi.ear import OnisagashiWorld

#: A seed no seat number, count or card index equals: found in reach, it is the seed.
SEED = 5_517_093_281
PLAYERS = 4


def hands_heard(log: list[Any]) -> dict[int, list[str]]:
    """This round's hands as each seat's earphone named them (the cards, without their prefix)."""
    hands: dict[int, list[str]] = {}
    for ev in log:
        if ev.get("type") == "round":
            hands = {}
        elif ev.get("type") == "say" and ev.get("key") == "hand-card" and str(ev.get("to")).startswith("seat:"):
            seat = int(str(ev["to"])[5:])
            hands.setdefault(seat, []).append(str(ev["params"]["card"])[len(CARD_PREFIX):])
    return hands


def forbidden(table: Any, seat: int, log: list[Any]) -> list[Forbidden]:
    others = {s: h for s, h in hands_heard(log).items() if s != seat}
    secrets = {f"seat {s}'s hand": h for s, h in others.items()}
    secrets.update({f"seat {s}'s hand (tags)": [CARD_PREFIX + c for c in h] for s, h in others.items()})
    world = table.world if isinstance(table, EarTable) else None
    owned = [world.rng, world.hands, *world.hands.values()] if isinstance(world, OnisagashiWorld) else [table.rng]
    return [instances(OnisagashiSimulation, EarTable, OnisagashiWorld, Table, Play, name="the table"),
            same_objects(*owned, name="the table's deal or generator"),
            deal_seed(SEED, random.Random(SEED)),
            containers_equal(secrets, public_collections(log)),
            secret_events(log, seat)]


@pytest.mark.parametrize("bot", ["best", "random", "ear"])
def test_no_bot_can_reach_another_hand_or_the_deal(bot):
    found, walks = audit("onisagashi", SEED, PLAYERS, {}, bot, forbidden, every=30, max_inputs=200)
    assert walks >= 3 * PLAYERS
    assert found[:5] == []


def test_the_walk_catches_a_bot_that_keeps_the_deal(monkeypatch):
    """Seat 3 is handed what the table dealt (as a careless refactor might) and the
    table's own generator: both are found, at seat 3 only."""
    original, dealt = OnisagashiSimulation.__init__, bots.deal

    def leaky(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.bots[3].rng = self.rng

        def keep(*a: Any, **k: Any) -> dict[int, list[str]]:
            hands = dealt(*a, **k)
            self.bots[3].dealt = hands
            return hands
        monkeypatch.setattr(bots, "deal", keep)

    monkeypatch.setattr(bots.OnisagashiSimulation, "__init__", leaky)
    found, _ = audit("onisagashi", SEED, PLAYERS, {}, "best", forbidden, every=30, max_inputs=60)
    assert {leak.path.split(":")[0] for leak in found} == {"seat 3"}
    paths = {leak.path: leak.why for leak in found}
    assert paths["seat 3: bot.rng"] == "the table's deal or generator"
    assert paths["seat 3: bot.dealt[1]"] == "seat 1's hand"
