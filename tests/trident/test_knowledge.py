"""Every Trident bot kind plays only from what its seat may know, and replays from its seed
(kikimimi/testkit/knowledge.py): the same seed is played again with other pieces in the
other hands, or the hidden basket in another order, and the seat's own inputs must not
change before it could tell the two games apart."""
from __future__ import annotations

import random
from typing import Any

import pytest

from kikimimi.testkit.knowledge import SeatLeak, replays, seat_blind
from kikimimi.design.tuning import focal_seat
from kikimimi_games.trident.pieces import HAND_SIZE, TAGS
from kikimimi_games.trident.simulation import Bot, World

PLAYERS = 3
#: The look-alike pieces: one the seat has not heard (the basket's top) is any piece to it.
PIECE = frozenset(TAGS).__contains__


def _positions(world: World, seat: int) -> tuple[list[int], list[int], int]:
    """Basket positions dealt to the other seats, to `seat`, and the opening piece's
    (the deal takes the top, seat 1's five first: the top is the list's end)."""
    n = len(world.basket)
    dealt = {s: [n - 1 - (s - 1) * HAND_SIZE - k for k in range(HAND_SIZE)] for s in range(1, world.players + 1)}
    others = [i for s, ix in dealt.items() if s != seat for i in ix]
    return others, dealt[seat], n - 1 - world.players * HAND_SIZE


def other_hands(sim: Any, seat: int, rng: random.Random) -> None:
    """Deal the other seats other pieces: theirs shuffled among them, some swapped with the basket's."""
    basket = sim.world.basket
    others, _, opening = _positions(sim.world, seat)
    pool = others + list(range(0, opening))
    pieces = [basket[i] for i in pool]
    rng.shuffle(pieces)
    for i, tag in zip(pool, pieces):
        basket[i] = tag


def hidden_basket(sim: Any, seat: int, rng: random.Random) -> None:
    """The basket below the opening piece in another order: every hand dealt the same."""
    basket = sim.world.basket
    _, _, opening = _positions(sim.world, seat)
    deep = basket[:opening]
    rng.shuffle(deep)
    basket[:opening] = deep


CASES = [(bot, vary) for bot in ("human", "random", "search") for vary in (other_hands, hidden_basket)]


#: Script lines up to the opening piece: the header, the deal (the table's, not a bot's), the opening.
DEAL_LINES = 1 + PLAYERS * HAND_SIZE + 1


@pytest.mark.parametrize(("bot", "vary"), CASES, ids=lambda x: getattr(x, "__name__", x))
def test_a_seat_decides_the_same_until_it_could_tell(bot, vary):
    decided = 0
    for seed in range(6):
        seat = focal_seat(seed, PLAYERS)  # the search bot's seat; any seat for today's bots
        # the seat plays first, so its first turn is decided while the other hands differ
        walk = seat_blind("trident", seed, PLAYERS, {"first": seat}, bot, seat, vary, vary_seed=seed,
                          max_inputs=60, anonymous=PIECE)
        decided += sum(line > DEAL_LINES for line in walk.decision_lines)
    assert decided >= 6  # every game: the comparison reached the bots' own decisions, not only the deal


class Peeker(Bot):
    """A bot that draws rather than play when the next seat holds two hearts:
    it reads another hand off the table, not by ear."""

    world: World  # handed to it by the test: no bot of the game is given the table

    def turn_action(self, hand: list[str], basket: int) -> dict[str, Any]:
        nxt = self.seat % self.players + 1
        if sum(t.startswith("trident:heart") for t in self.world.hands[nxt]) >= 2:
            return self._draw_or_pass(basket)
        return super().turn_action(hand, basket)


def test_the_check_catches_a_bot_that_reads_another_hand(monkeypatch):
    from kikimimi_games.trident import simulation

    original = simulation.TridentSimulation.__init__

    def seat_a_peeker(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        old = self.bots[1]
        peeker = Peeker(1, old.players, old.temper, old.rng)
        peeker.world = self.world
        self.replace(1, peeker)

    monkeypatch.setattr(simulation.TridentSimulation, "__init__", seat_a_peeker)
    with pytest.raises(SeatLeak):
        for seed in range(10):
            seat_blind("trident", seed, PLAYERS, {"first": 1}, "random", 1, other_hands, vary_seed=seed,
                       anonymous=PIECE)


@pytest.mark.parametrize("bot", ["human", "random", "search"])
def test_decisions_replay_from_the_seed(bot):
    script, _ = replays("trident", 4, PLAYERS, {}, bot)
    assert len(script) > 20
