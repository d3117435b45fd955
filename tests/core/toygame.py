"""A tiny game for testing the runtime without any real game's rules.

Players take turns putting a stone on the field; a hand scan whispers the
stone's colour to its holder; a turn left idle for 10 s passes by timer;
five stones end the game.  Simple enough that a test can predict every event.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.contract.protocol import Game, Input, error, event, say, set_timer, cancel_timer

STONES = [f"toy:stone-{i}" for i in range(1, 7)]


class ToyGame(Game):
    name = "toy"
    min_players = 2
    max_players = 4
    official_players = 2
    option_names = frozenset({"first"})

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.turn = 1
        self.played: list[str] = []
        self._over = False

    @classmethod
    def known_tags(cls, players: int) -> frozenset[str]:
        return frozenset(STONES)

    @property
    def over(self) -> bool:
        return self._over

    def start(self, t: float) -> list:
        return [event("turn", seat=1), say("table", "turn", seat=1), set_timer("idle", t + 10)]

    def handle(self, inp: Input) -> list:
        if inp.timer == "idle":
            return self._next(inp.t, passed=True)
        if inp.console == "stop":
            self._over = True
            return [event("game-over", reason="stopped", ranking=[]), cancel_timer("idle")]
        if inp.console is not None:
            return [error(f"unknown command {inp.console!r}")]
        if inp.removed:
            return []
        if inp.reader == "hand":
            return [say(f"seat:{inp.seat}", "stone", stone=inp.tag)]
        if inp.tag in self.played:
            return [error(f"{inp.tag} was played already")]
        self.played.append(inp.tag)
        out = [event("play", seat=self.turn, tag=inp.tag), say("table", "played", stone=inp.tag)]
        if len(self.played) == 5:
            self._over = True
            ranking = [{"seat": s, "place": i + 1} for i, s in enumerate(range(1, self.players + 1))]
            return out + [cancel_timer("idle"), event("game-over", reason="out", ranking=ranking)]
        return out + self._next(inp.t)

    def _next(self, t: float, passed: bool = False) -> list:
        self.turn = self.turn % self.players + 1
        out = [event("turn", seat=self.turn), set_timer("idle", t + 10)]
        return out + ([say("table", "idle-pass")] if passed else [])

    def snapshot(self) -> dict[str, Any]:
        return {"turn": self.turn, "played": list(self.played)}

    bots = ("stones",)
    bot_table = "toygame:toy_table"  # a single-module game names its parts absolutely


def toy_table(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> "_ToySim":
    return _ToySim(seed)


class _ToySim:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.left = list(STONES)
        self.rng.shuffle(self.left)
        self.turn = 1

    def next_input(self) -> dict | None:
        if self.rng.random() < 0.3:
            return {"dt": 12.0, "reader": "hand", "seat": self.turn, "tag": self.left[0]}
        return {"dt": 2.0, "reader": "field", "tag": self.left.pop()}

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        for ev in events:
            if ev["type"] == "turn":
                self.turn = ev["seat"]
