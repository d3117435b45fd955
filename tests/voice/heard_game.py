"""A claim any other seat may challenge within 10 s after heard (choices.ask_window), for the
served-with-sound test of time after heard (test_heard_on_the_cards.py and its child)."""
from __future__ import annotations

from typing import Any

from kikimimi.contract import choices
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.kit import own_set
from kikimimi.contract.protocol import TABLE, Event, GameEvent, Input, Play, event, say


class Claim(Play):
    def __init__(self, players: int, options: dict[str, Any] | None = None):
        super().__init__(players, options)
        self.done = False

    @property
    def over(self) -> bool:
        return self.done

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "claim-made"),
                choices.ask_window(range(2, self.players + 1), "challenge", "claim-challenge?", among=["cmd:yes"],
                                   decline="cmd:no", default=False, timeout=10, heard=True)]

    def handle(self, inp: Input) -> list[Event]:
        return []

    def answered(self, answer: choices.Answer) -> list[GameEvent]:
        self.done = True
        return [say(TABLE, "claim-stands" if answer.silent else "claim-challenged"), event("game-over", reason="end")]


CLAIM = Declaration(name="heardclaim", play=Claim, kit=lambda p, o: (own_set(p, ("yes", "no")), []),
                    min_players=3, max_players=4, tags=frozenset({"heardclaim:x"}))
