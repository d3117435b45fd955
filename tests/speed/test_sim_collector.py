"""The cycle collector is paused for an unwatched bot game, and that is safe (kikimimi/sim.py)."""
from __future__ import annotations

import gc

import pytest

from kikimimi import sim


def test_a_trident_bot_game_leaves_no_cycle_for_the_collector():
    """What the pause rests on: the game, the table and the bots are freed by reference
    counting alone, so the collector would have found nothing.  (The first game of a
    process loads modules, phrases and caches, whose cycles are not a game's: played first.)"""
    sim.play("trident", 0, 3)
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            sim.play("trident", seed, 3)
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("enabled", [True, False])
def test_play_leaves_the_collector_as_it_found_it(enabled):
    seen: list[bool] = []
    (gc.enable if enabled else gc.disable)()
    try:
        sim.play("trident", 1, 3)
        sim.play("trident", 1, 3, watch=lambda line, events: seen.append(gc.isenabled()))
        assert gc.isenabled() is enabled
        assert seen and all(state is enabled for state in seen)  # a watched game keeps it as it was
    finally:
        gc.enable()


def test_the_collector_is_paused_during_an_unwatched_game_and_back_after_a_failure(monkeypatch):
    states: list[bool] = []
    real = sim._play_to_the_end

    def failing(*args, **kwargs):
        states.append(gc.isenabled())
        raise RuntimeError("a bot broke")

    monkeypatch.setattr(sim, "_play_to_the_end", failing)
    with pytest.raises(RuntimeError):
        sim.play("trident", 1, 3)
    assert states == [False] and gc.isenabled()
    monkeypatch.setattr(sim, "_play_to_the_end", real)
