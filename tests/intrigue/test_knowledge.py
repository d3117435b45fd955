"""イントリーゲ's bots play only from what their seat may know, and replay from their seeds
(kikimimi/testkit/knowledge.py).  With hidden bribes an offer is told only to the two seats
it concerns: the same seed is played again with every other seat offering other hidden
amounts (or, the second way, every other bot's generator reseeded), and the seat's taps,
placements and dispatches must not change before anything it may know does."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.testkit.knowledge import SeatLeak, reseed_others, replays, seat_blind
from kikimimi.design.tuning import focal_seat
from kikimimi_games.intrigue import bots as intrigue

PLAYERS = 4
HIDDEN = {"bribes": "hidden"}


def other_offers(sim: Any, seat: int, rng: random.Random) -> None:
    """Every other seat's hidden offers: another amount it can pay, its public acts as they were."""
    for bot in sim.bots:
        if bot.seat != seat:
            def taps(call: Any, bot: Any = bot) -> int:
                return rng.randint(0, bot.cash // bot.ed.step)
            bot._taps = taps


@pytest.mark.parametrize("vary", [other_offers, reseed_others], ids=lambda f: f.__name__)
@pytest.mark.parametrize("bot", ["greedy", "random", "ev", "ev-table"])
def test_a_seat_acts_the_same_until_it_could_tell(bot, vary):
    decided, changed = 0, 0
    for seed in range(4):
        seat = focal_seat(seed, PLAYERS)  # the EV bot's seat; any seat for the others
        walk = seat_blind("intrigue", seed, PLAYERS, {**HIDDEN, "first": seat}, bot, seat, vary,
                          vary_seed=seed, max_inputs=400)
        decided += walk.decided(lambda line: line.get("tag", "").startswith("cmd:tap")
                                or "section" in line.get("tag", "") or "advisor" in line.get("tag", ""))
        changed += walk.diverged
    assert decided >= 8 and changed >= 2  # real decisions compared; the change did show, in time


def test_the_check_catches_a_bot_that_reads_another_seats_mind(monkeypatch):
    class Peeker(intrigue.Bot):
        """Sends its advisors where a rival's next private choice (its generator) favours:
        it reads another seat's mind, which no ear could."""

        table: Any = None

        def _prospect(self, target: int, role: str) -> float:
            peek = random.Random()
            peek.setstate(self.table.bots[target - 1].rng.getstate())
            return super()._prospect(target, role) + peek.random() * 1e9

    original = intrigue.IntrigueSimulation.__init__

    def init(self: Any, seed: int, players: int, options: Any, bot: Any = None) -> None:
        original(self, seed, players, options, bot)
        spy = Peeker(1, players, options, "greedy", self.bots[0].rng)
        spy.table = self
        self.bots[0] = spy

    monkeypatch.setattr(intrigue.IntrigueSimulation, "__init__", init)
    with pytest.raises(SeatLeak):
        for seed in range(4):
            seat_blind("intrigue", seed, PLAYERS, {**HIDDEN, "first": 1}, "greedy", 1, reseed_others,
                       vary_seed=seed, max_inputs=400)


@pytest.mark.parametrize("bot", ["greedy", "ev"])
def test_decisions_replay_from_the_seed(bot):
    script, _ = replays("intrigue", 2, PLAYERS, HIDDEN, bot)
    assert len(script) > 50
