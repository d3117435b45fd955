"""High card: the smallest complete kikimimi game (docs/authoring.md walks through it).

Each player draws one numbered card from a face-down pile on their own hand reader and
hears it in their earphone alone.  When every seat has drawn, they show their cards on
the field, seat by seat from `first`; the highest card wins.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.game import (TABLE, Deck, deck, Declaration, dispatch, error, event, Event,
                           hint_command, Input, line, Line, Options, own_set, Phases, Play,
                           refusal, say, seat, seat_audience, situation, stop_command)

CARDS = tuple(f"hc:card-{n}" for n in range(1, 10))
OPTIONS = Options(seat("first", 1, "the seat that shows its card first"))
COMMANDS = (hint_command(), stop_command("console_stop"))
PHASES = Phases("draw", (("draw", "show", "every seat drew a card"),
                         ("show", "over", "every card is shown")), "over", from_any=(("over", "stop"),))


def diagram() -> str:
    return PHASES.mermaid()


#: What each player holds (the declaration's `command_tags`).
COMMAND_TAGS = ("hint",)


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Each player holds HINT (no seat tokens: nobody chooses a seat); the cards are the table's.
    The runtime answers HINT from `sight` and `own`, and refuses any other seat or command tag."""
    return own_set(0, COMMAND_TAGS), list(CARDS)


class HighCardPlay(Play):
    """One play: who holds which card, and who has shown it."""

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.first: int = OPTIONS.parse(players, self.options)["first"]
        self.phase = "draw"
        self.pile = Deck(CARDS)  # the face-down pile: a card drawn once cannot be drawn again
        self.cards: dict[int, str] = {}  # seat -> its card (a secret until shown)
        self.shown: list[int] = []

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "draw")]

    def handle(self, inp: Input) -> list[Event]:
        if inp.console is not None:
            return dispatch(self, COMMANDS, inp.console, inp.t, self.players)
        if not inp.placed or inp.tag is None:
            return []  # a card lifted off a reader means nothing here
        seat = inp.seat if inp.reader == "hand" else None
        if inp.tag not in CARDS:  # HINT on the field (on a hand reader the runtime answers it)
            return refusal(seat, f"{inp.tag} is not a card", "not-a-card")
        if seat is not None:
            return self._draw(seat, inp.tag)
        return self._show(inp.tag)

    def _draw(self, seat: int, card: str) -> list[Event]:
        me = seat_audience(seat)
        if self.phase != "draw" or seat in self.cards:
            return refusal(seat, "one card each, drawn before the show", "one-card")
        why = self.pile.draw(card)
        if why:  # another seat's card, or a draw from an empty pile
            return deck.refused(seat, card, why)
        self.cards[seat] = card
        out = [say(me, "your-card", card=card), event("drew", seat=seat), say(TABLE, "drew", seat=seat)]
        if len(self.cards) == self.players:
            self.phase = PHASES.step(self.phase, "show")
            out.append(say(TABLE, "show", seat=self._turn()))
        return out

    def _show(self, card: str) -> list[Event]:
        owner = next((s for s, c in self.cards.items() if c == card), None)
        if self.phase != "show" or owner != self._turn():
            return [error("not that card now"), say(TABLE, "wait", seat=self._turn())]
        self.shown.append(owner)
        out = [event("show", seat=owner, card=card), say(TABLE, "shown", seat=owner, card=card)]
        if len(self.shown) < self.players:
            return out + [say(TABLE, "show", seat=self._turn())]
        return out + self._game_over("end")

    def _turn(self) -> int:
        return (self.first - 1 + len(self.shown)) % self.players + 1

    def _game_over(self, reason: str) -> list[Event]:
        self.phase = PHASES.step(self.phase, "over")
        order = sorted(self.cards, key=lambda s: -CARDS.index(self.cards[s])) if reason == "end" else []
        ranking = [{"seat": s, "place": i + 1} for i, s in enumerate(order)]
        out = [event("game-over", ranking=ranking, reason=reason)]
        return out + ([say(TABLE, "winner", seat=order[0])] if order else [])

    def console_stop(self, t: float) -> list[Event]:
        return self._game_over("stopped")

    # -- what a sighted player sees, said by ear (kikimimi.contract.hints) -------------------------------
    def sight(self, seat: int) -> list[Line]:
        if self.phase == "draw":
            return [line("to-draw", seats=[s for s in range(1, self.players + 1) if s not in self.cards])]
        return [line("shown", seat=s, card=self.cards[s]) for s in self.shown] + \
            ([line("show", seat=self._turn())] if self.phase == "show" else [])

    def own(self, seat: int) -> list[Line]:
        return [line("your-card", card=self.cards[seat])] if seat in self.cards else []

    def situation(self) -> list[Event]:
        return situation(self.sight(0))

    def snapshot(self) -> dict[str, Any]:
        return {"phase": self.phase, "cards": dict(self.cards), "shown": list(self.shown)}


# -- the declaration: what the game is, read by the runtime before any play ------------------
GAME = Declaration(
    name="highcard", title="High card", play=HighCardPlay, kit=kit, tag_sets=("hc",),
    min_players=2, max_players=4, official_players=3, options=OPTIONS, commands=COMMANDS, command_tags=COMMAND_TAGS,
    bots=("ear",), bot_table=".ear:ear_table", ear_table=".ear:ear_table",
    report=".tuning:HighCardReport", diagram=".:diagram")

__all__ = ["GAME", "HighCardPlay"]
