"""Cheap bot games must be the same games: the Trident's bots are
told each event once per event (`TridentSimulation.ears`) instead of asking
`visible_to` once per bot, skip the events they never act on, and the driver
copies each proposed line once.  These tests hold the fast paths to the slow
rule they replace, and the recordings to `kikimimi replay`."""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from kikimimi.contract import parts as declared
from kikimimi.table.engine import run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.script import dumps
from kikimimi.design.sim import play
from kikimimi_games.trident.pieces import TAGS
from kikimimi_games.trident.simulation import Bot, TridentSimulation, shuffled


class EveryBotAsksVisibleTo(TridentSimulation):
    """The old routing: every event, every bot, `visible_to` each time."""

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        refused = False
        for ev in events:
            self.world.follow(ev)
            refused = refused or ev["type"] == "error"
            for seat, bot in self.bots.items():
                if visible_to(ev, seat):
                    bot.hear(ev, self.world.hands[seat])
        self.errors_in_a_row = self.errors_in_a_row + 1 if refused else 0


def _as_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(declared, "simulation",
                        lambda cls, seed, players, options, bot=None: EveryBotAsksVisibleTo(seed, players, options, bot))


@pytest.mark.parametrize(("bot", "players"), [("human", 3), ("random", 3), ("human", 4), ("random", 2)])
def test_routed_bots_play_the_very_games_of_bots_asking_visible_to(monkeypatch, bot, players):
    fast = [play("trident", seed, players, {}, bot) for seed in range(25)]
    _as_slow(monkeypatch)
    slow = [play("trident", seed, players, {}, bot) for seed in range(25)]
    assert [s for s, _ in fast] == [s for s, _ in slow]
    assert [dumps(e) for _, log in fast for e in log] == [dumps(e) for _, log in slow for e in log]


EVENTS: list[dict[str, Any]] = [
    {"type": "say", "to": "table", "key": "k"},
    {"type": "say", "to": "seat:2", "key": "k"},
    {"type": "say", "to": "seat:9", "key": "k"},
    {"type": "say", "to": "referee", "key": "k"},
    {"type": "turn", "seat": 1},
    {"type": "draw", "private": "seat:3"},
    {"type": "draw", "private": "table"},
    {"type": "draw", "private": "referee"},
    {"type": "secret", "private": ["seat:1", "seat:3"]},
    {"type": "secret", "private": ("seat:2",)},
    {"type": "secret", "private": ["seat:1", "table"]},
    {"type": "secret", "private": ["referee"]},
    {"type": "secret", "private": []},  # malformed: the referee only
    {"type": "secret", "private": 3},  # malformed: the referee only
    {"type": "secret", "private": ["seat:1", 2]},  # malformed: the referee only
]


@pytest.mark.parametrize("ev", EVENTS, ids=lambda ev: f"{ev['type']}-{ev.get('to', ev.get('private', '-'))}")
def test_each_event_reaches_exactly_the_seats_visible_to_allows(ev):
    sim = TridentSimulation(1, 3)
    assert [bot.seat for bot in sim.ears(ev)] == [s for s in (1, 2, 3) if visible_to(ev, s)]


@pytest.mark.parametrize("bot", ["human", "random"])
def test_recorded_bot_games_replay_to_the_identical_log(bot):
    for seed in range(10):
        script, log = play("trident", seed, 3, {}, bot)
        assert run_script(dumps(line) for line in script) == log


def test_the_driver_stamps_time_first_from_dt_and_records_no_dt(toy):
    script, log = play("toy", seed=3, players=2)
    lines = script[1:]
    assert lines and all(next(iter(line)) == "t" and "dt" not in line for line in lines)
    assert all(b["t"] - a["t"] in (2.0, 12.0) for a, b in zip([{"t": 0.0}] + lines, lines))
    assert run_script(script) == log


def test_the_referee_stops_a_game_past_the_input_cap(toy):
    script, log = play("toy", seed=3, players=2, max_inputs=2)
    assert script[-1]["console"] == "stop" and len(script) == 4
    assert run_script(script) == log


class _Overriding(Bot):
    """A bot that overrides what the simulation's fast paths skip or inline for a
    plain `Bot` (it does the same through `Bot`'s own methods): its games take
    every slow path, `hear` handed a copy of the hand for every event included."""

    def hear(self, ev: Mapping[str, Any], hand: Sequence[str]) -> None:
        super().hear(ev, hand)

    def off_turn_action(self, hand: Sequence[str], basket: int) -> dict[str, Any] | None:
        return super().off_turn_action(hand, basket)

    def impatient_play(self, hand: Sequence[str]) -> dict[str, Any] | None:
        return super().impatient_play(hand)


def _overriding_bots(table: TridentSimulation) -> None:
    for seat, bot in list(table.bots.items()):
        slow = _Overriding(seat, bot.players, bot.temper, bot.rng)
        table.replace(seat, slow)


@pytest.mark.parametrize(("bot", "players"), [("human", 3), ("random", 3), ("human", 4), ("human", 2)])
def test_plain_bots_fast_paths_play_the_games_of_bots_taking_every_method(bot, players):
    fast = [play("trident", seed, players, {}, bot) for seed in range(25)]
    slow = [play("trident", seed, players, {}, bot, prepare=_overriding_bots) for seed in range(25)]
    assert [s for s, _ in fast] == [s for s, _ in slow]
    assert [dumps(e) for _, log in fast for e in log] == [dumps(e) for _, log in slow for e in log]


def test_the_deal_shuffles_as_random_shuffle_draw_for_draw():
    for seed in range(300):
        mine, theirs = random.Random(seed), random.Random(seed)
        expected = sorted(TAGS)
        theirs.shuffle(expected)
        assert shuffled(sorted(TAGS), mine) == expected
        assert mine.random() == theirs.random()  # the generator left where shuffle leaves it
    assert shuffled([], random.Random(1)) == [] and shuffled(["a"], random.Random(1)) == ["a"]
