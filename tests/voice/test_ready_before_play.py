"""Every line a game says in play is rendered before the game, except the few a game
leaves to render when said, on purpose and listed (`Expansion.on_demand`).

A line rendered on first use makes its player wait ~75 ms (espeak-ng) to ~200 ms
(Open JTalk) instead of ~2 ms; bot games show which lines a real game says."""
from __future__ import annotations

import pytest

from kikimimi.design.sim import play
from kikimimi.voice.domains import table_texts

#: game -> (players, the phrases it may leave to render when said)
LEFT_ON_DEMAND = {
    "trident": (3, {"rank-points", "seat-pieces-owed"}),
    "onisagashi": (5, set()),
    "witch": (8, {"advised", "silence", "deadroom-speech", "speech", "night-speech", "hint-day",
                  "hint-allowance", "hint-night"}),
    "mafia42": (8, {"extended", "shortened", "chat"}),
    "intrigue": (4, {"rank", "hint-hand"}),
}


@pytest.mark.parametrize("game", sorted(LEFT_ON_DEMAND))
def test_what_bot_games_say_is_ready_before_play(game):
    players, allowed = LEFT_ON_DEMAND[game]
    got = table_texts(game, players, {}, "en")
    assert set(got.on_demand) <= allowed, got.on_demand
    ready = set(got.texts)
    late = {(e["key"], e["text"]) for seed in range(3) for e in play(game, seed, players)[1]
            if e["type"] == "say" and e["text"] not in ready and e["key"] not in got.on_demand}
    assert sorted(late)[:5] == []
