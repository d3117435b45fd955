"""鬼探し's bots play only from what their seat may know, and replay from their seeds
(kikimimi/testkit/knowledge.py): the same seed is dealt again with other cards in the
other hands (and another answer), the seat's own hand kept; its declarations and raises
must not change before anything it may know does."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.testkit.knowledge import SeatLeak, replays, seat_blind
from kikimimi_games.onisagashi import bots as oni
from kikimimi_games.onisagashi.cards import BY_CATEGORY, CATEGORIES

PLAYERS = 4
PREFIX = "oni:card-"


def _category(card: str) -> str:
    return next(cat for cat in CATEGORIES if card in BY_CATEGORY[cat])


def others_dealt_otherwise(sim: Any, seat: int, rng: random.Random) -> None:
    """Each round: the seat's own cards as dealt; every other card of the round (the
    other hands and the answer) shuffled within its category among the others and the answer."""
    deal = sim._deal

    def dealt() -> None:
        before = len(sim.queue)
        deal()
        lines = list(sim.queue)[before:]
        theirs = [ln for ln in lines if ln["seat"] != seat]
        held = {ln["tag"][len(PREFIX):] for ln in lines}
        for cat in CATEGORIES:
            mine = [ln for ln in theirs if _category(ln["tag"][len(PREFIX):]) == cat]
            cards = [ln["tag"][len(PREFIX):] for ln in mine]
            cards += [c for c in BY_CATEGORY[cat] if c not in held]  # the answer, face down
            rng.shuffle(cards)
            for ln, card in zip(mine, cards):
                ln["tag"] = PREFIX + card

    sim._deal = dealt


@pytest.mark.parametrize("bot", ["best", "random"])
def test_a_seat_declares_the_same_until_it_could_tell(bot):
    decided = 0
    for seed in range(4):
        seat = seed % PLAYERS + 1
        walk = seat_blind("onisagashi", seed, PLAYERS, {"rounds": 1, "first": seat}, bot, seat,
                          others_dealt_otherwise, vary_seed=seed)
        decided += walk.decided(lambda line: line.get("reader") == "field")
    assert decided >= 4 * 3  # each game, the seat's whole declaration (three tokens) was compared


def test_the_check_catches_a_bot_that_reads_another_hand(monkeypatch):
    class Peeker(oni.BotSeat):
        """Declares the first card of the next seat's hand: it looked."""

        sim: Any = None

        def declaration(self) -> tuple[str, str, str]:
            a, b, c = super().declaration()
            nxt = [ln["tag"][len(PREFIX):] for ln in self.sim.dealt if ln["seat"] == self.seat % PLAYERS + 1]
            return (nxt[0], b, c) if nxt and _category(nxt[0]) == CATEGORIES[0] else (a, b, c)

    original_init, original_deal = oni.OnisagashiSimulation.__init__, oni.OnisagashiSimulation._deal

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self.dealt = []
        for s, b in self.bots.items():
            self.bots[s] = Peeker(s, b.rules, b.players, b.style, b.rng)
            self.bots[s].sim = self

    def deal(self: Any) -> None:
        before = len(self.queue)
        original_deal(self)
        self.dealt = list(self.queue)[before:]

    monkeypatch.setattr(oni.OnisagashiSimulation, "__init__", init)
    monkeypatch.setattr(oni.OnisagashiSimulation, "_deal", deal)
    with pytest.raises(SeatLeak):
        for seed in range(6):
            seat_blind("onisagashi", seed, PLAYERS, {"rounds": 1, "first": 1}, "best", 1,
                       others_dealt_otherwise, vary_seed=seed)


@pytest.mark.parametrize("bot", ["best", "random"])
def test_decisions_replay_from_the_seed(bot):
    script, _ = replays("onisagashi", 3, PLAYERS, {"rounds": 1}, bot)
    assert len(script) > 20
