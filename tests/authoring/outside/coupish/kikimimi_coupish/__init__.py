"""Coupish: a Coup-like claim and challenge round, written outside kikimimi (a test fixture).

Each seat draws one influence card from the face-down pile on its own hand reader and hears
it in its earphone alone.  Then, in turn, a seat claims a character by scanning one of the
claim cards in the middle on its own hand reader (a public act: the rules make a claim
public, so the game declares `public_scans`).  Every other seat may challenge (YES) or let
it stand (NO) within 10 s after the claim has been heard: one window for all of them
(`choices.ask_window`), the first challenge wins, silence lets the claim stand.  A challenge
shows the claimant's card: a bluff loses, a true claim makes the challenger lose.  The game
ends when a seat loses, or when every seat has claimed once.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import (TABLE, Declaration, Deck, Event, GameEvent, Input, Line, Options, Phases, Play, choices, deck,
                           dispatch, event, hint_command, line, own_set, refusal, say, seat, seat_audience, situation,
                           stop_command)

CHARACTERS = ("duke", "captain", "contessa")
CARDS = tuple(f"cp:{c}-{n}" for c in CHARACTERS for n in (1, 2))
CLAIMS = tuple(f"cp:claim-{c}" for c in CHARACTERS)
OPTIONS = Options(seat("first", 1, "the seat that claims first"))
COMMANDS = (hint_command(), stop_command("console_stop"))
PHASES = Phases("deal", (("deal", "claim", "every seat holds its influence"),
                         ("claim", "window", "a seat claimed"),
                         ("window", "claim", "the claim stands"),
                         ("window", "over", "a challenge settled it, or every seat claimed")),
                "over", from_any=(("over", "stop"),))
#: Seconds every other seat has to challenge, after the claim has been heard.
WINDOW = 10


def diagram() -> str:
    return PHASES.mermaid()


def kit(players: int, options: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Each player holds YES, NO and HINT; the influence cards and the claim cards are the table's."""
    return own_set(0, ("yes", "no", "hint")), [*CARDS, *CLAIMS]


def character(card: str) -> str:
    """'cp:duke-2' and 'cp:claim-duke' are both the duke."""
    name = card.split(":", 1)[1]
    return name.removeprefix("claim-") if name.startswith("claim-") else name.rsplit("-", 1)[0]


class CoupishPlay(Play):
    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.first: int = OPTIONS.parse(players, self.options)["first"]
        self.phase = "deal"
        self.pile = Deck(CARDS)
        self.influence: dict[int, str] = {}  # seat -> its card (secret until challenged)
        self.claimed: list[int] = []
        self.claim: str = ""

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "deal")]

    def handle(self, inp: Input) -> Sequence[GameEvent]:
        if inp.console is not None:
            return dispatch(self, COMMANDS, inp.console, inp.t, self.players)
        if not inp.placed or inp.tag is None or inp.seat is None:
            return []
        if inp.tag in CARDS:
            return self._draw(inp.seat, inp.tag)
        if inp.tag in CLAIMS:
            return self._claim(inp.seat, inp.tag)
        return refusal(inp.seat, f"{inp.tag} means nothing now", "not-now")

    def _draw(self, seat: int, card: str) -> list[Event]:
        if self.phase != "deal" or seat in self.influence:
            return refusal(seat, "one influence each, before the claims", "one-card")
        why = self.pile.draw(card)
        if why:
            return deck.refused(seat, card, why)
        self.influence[seat] = card
        out = [say(seat_audience(seat), "your-card", card=character(card)), event("drew", seat=seat),
               say(TABLE, "drew", seat=seat)]
        if len(self.influence) == self.players:
            self.phase = PHASES.step(self.phase, "claim")
            out.append(say(TABLE, "turn", seat=self._turn()))
        return out

    def _claim(self, seat: int, claim: str) -> list[Event]:
        if self.phase != "claim" or seat != self._turn():
            return refusal(seat, "not your claim now", "not-now")
        self.phase = PHASES.step(self.phase, "window")
        self.claim = claim
        others = [s for s in range(1, self.players + 1) if s != seat]
        return [event("claim", seat=seat, claim=claim), say(TABLE, "claims", seat=seat, card=character(claim)),
                choices.ask_window(others, "challenge", "may-challenge", among=[choices.YES], decline=choices.NO,
                                   default=False, timeout=WINDOW, heard=True, seat=seat, card=character(claim))]

    def answered(self, answer: choices.Answer) -> list[GameEvent]:
        claimant = self._turn()
        self.claimed.append(claimant)
        if answer.silent:
            out: list[GameEvent] = [say(TABLE, "stands", seat=claimant)]
            if len(self.claimed) == self.players:
                return out + self._game_over("end", loser=None)
            self.phase = PHASES.step(self.phase, "claim")
            return out + [say(TABLE, "turn", seat=self._turn())]
        held = self.influence[claimant]
        loser = answer.seat if character(held) == character(self.claim) else claimant
        return [event("challenge", seat=answer.seat, claimant=claimant, held=held),
                say(TABLE, "challenged", seat=answer.seat, claimant=claimant, card=character(held)),
                say(TABLE, "loses", seat=loser)] + self._game_over("end", loser=loser)

    def _turn(self) -> int:
        return (self.first - 1 + len(self.claimed)) % self.players + 1

    def _game_over(self, reason: str, loser: int | None) -> list[GameEvent]:
        self.phase = "over"
        seats = range(1, self.players + 1)
        ranking = [{"seat": s, "place": 2 if s == loser else 1} for s in seats] if reason == "end" else []
        return [event("game-over", ranking=ranking, reason=reason)]

    def console_stop(self, t: float) -> list[GameEvent]:
        return self._game_over("stopped", loser=None)

    def sight(self, seat: int) -> list[Line]:
        if self.phase == "deal":
            return [line("to-draw", seats=[s for s in range(1, self.players + 1) if s not in self.influence])]
        return [line("turn", seat=self._turn())] if self.phase in ("claim", "window") else []

    def own(self, seat: int) -> list[Line]:
        return [line("your-card", card=character(self.influence[seat]))] if seat in self.influence else []

    def situation(self) -> list[Event]:
        return situation(self.sight(0))

    def snapshot(self) -> dict[str, Any]:
        return {"phase": self.phase, "influence": dict(self.influence), "claimed": list(self.claimed),
                "claim": self.claim}


def phrase_values(players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
    return {"seat": range(1, players + 1), "claimant": range(1, players + 1), "card": CHARACTERS}


GAME = Declaration(
    name="coupish", title="Coupish", play=CoupishPlay, kit=kit, tag_sets=("cp",),
    min_players=3, max_players=4, official_players=3, options=OPTIONS, commands=COMMANDS,
    bots=("ear",), bot_table=".ear:ear_table", ear_table=".ear:ear_table",
    report=".tuning:CoupishReport", diagram=".:diagram", phrase_values=phrase_values,
    public_scans=frozenset(CLAIMS))

__all__ = ["GAME", "CoupishPlay"]
