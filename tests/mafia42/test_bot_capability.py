"""Every マフィア42 bot holds only its seat's view: walked, nothing in reach is the table,
another seat's job card or private line, or the seed that deals the jobs
(`kikimimi/testkit/capability.py`).  The reasoning bots share one weighing of the
public facts (`Reasoning`): the walk reaches it from every seat, so it must hold
nothing private either."""
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
from kikimimi_games.mafia42 import bots
from kikimimi_games.mafia42.bots import Mafia42Simulation
from kikimimi_games.mafia42.options import parse_options

#: A seed no seat number or count equals: found in reach, it is the seed.
SEED = 6_602_718_359
PLAYERS = 8


def _dealt(seed: int, players: int) -> dict[int, str]:
    """The job cards `Mafia42Simulation` deals for this seed (its generator's first use)."""
    deck = list(parse_options(players, {})["jobs"])
    random.Random(seed).shuffle(deck)
    seen: dict[str, int] = {}
    out = {}
    for s, job in enumerate(deck, 1):
        seen[job] = seen.get(job, 0) + 1
        out[s] = f"mafia42:job-{job}-{seen[job]}"
    return out


def forbidden(table: Any, seat: int, log: list[Any]) -> list[Forbidden]:
    cards = table.world.cards if isinstance(table, EarTable) else _dealt(SEED, PLAYERS)
    deal = [table.rng] if isinstance(table, Mafia42Simulation) else []
    return [instances(Mafia42Simulation, EarTable, DealtCards, Table, Play, name="the table"),
            same_objects(*deal, name="the deal's generator"),
            deal_seed(SEED, random.Random(SEED)),
            cards_of_others(cards, seat),
            secret_events(log, seat)]


def test_the_dealt_cards_are_the_tables():
    from kikimimi.design.sim import play

    script, _ = play("mafia42", SEED, PLAYERS, {}, "plain", max_inputs=PLAYERS)
    scanned = {line["seat"]: line["tag"] for line in script[1:] if line.get("reader") == "hand"}
    assert scanned == _dealt(SEED, PLAYERS)


@pytest.mark.parametrize("bot", ["reason", "plain", "reason-core", "ear"])
def test_no_bot_can_reach_another_job_or_the_deal(bot):
    found, walks = audit("mafia42", SEED, PLAYERS, {}, bot, forbidden, every=60, max_inputs=300)
    assert walks >= 2 * PLAYERS
    assert found[:5] == []


def test_the_walk_catches_a_bot_that_keeps_the_table(monkeypatch):
    original = Mafia42Simulation.__init__

    def leaky(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.bots[2].later = [self.queue]  # the dealing queue: every seat's card, one line away

    monkeypatch.setattr(bots.Mafia42Simulation, "__init__", leaky)
    found, _ = audit("mafia42", SEED, PLAYERS, {}, "reason", forbidden, every=60, max_inputs=4)
    whys = {leak.why for leak in found}
    assert {leak.path.split(":")[0] for leak in found} == {"seat 2"}
    assert any(why.startswith("seat 1's card mafia42:job-") for why in whys)
