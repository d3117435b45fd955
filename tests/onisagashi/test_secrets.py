"""Audit of bot games: nobody hears a card fact their own seat could not know."""
from __future__ import annotations

import pytest

from kikimimi.table.engine import run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.design.sim import play
from kikimimi_games.onisagashi.cards import CARD_PREFIX, CARDS, TOKEN_PREFIX, hand_counts
from kikimimi_games.onisagashi.knowledge import Declaration, Knowledge
from kikimimi_games.onisagashi.solver import ANSWER, Analysis

ASSISTANT_KEYS = {"card-mine", "card-answer", "card-held", "card-not-answer", "card-unknown", "hint", "hint-solved"}
CARD_STRINGS = {c for c in CARDS} | {CARD_PREFIX + c for c in CARDS}


def _cards_in(value) -> set[str]:
    if isinstance(value, str):
        return {value.removeprefix(CARD_PREFIX)} if value in CARD_STRINGS else set()
    if isinstance(value, dict):
        return set().union(*(_cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    return set()


class SeatView:
    """A seat's knowledge rebuilt from the events it may see, nothing else."""

    def __init__(self, seat, rules, players):
        self.seat, self.rules, self.players = seat, rules, players
        self.hand, self.history = set(), []

    def see(self, ev):
        if ev["type"] == "round":
            self.hand, self.history = set(), []
        elif ev["type"] == "answers":
            self.history.append(Declaration(ev["seat"], tuple(ev["cards"]), frozenset(ev["have"])))

    def analysis(self):
        return Analysis(Knowledge(self.rules, self.players, self.seat, frozenset(self.hand),
                                  tuple(self.history), hand_counts(self.rules, self.players)))


def expected_reply(view: SeatView, key, params):
    a = view.analysis()
    if key in ("hint", "hint-solved"):
        solved = a.solved()
        return ("hint-solved", list(solved)) if solved else ("hint", list(a.best()))
    card = params["card"].removeprefix(CARD_PREFIX)
    if card in view.hand:
        return ("card-mine",)
    where = a.possible[card]
    seats = sorted(o for o in where if o != ANSWER)
    if where == {ANSWER}:
        return ("card-answer",)
    if ANSWER in where:
        return ("card-unknown", seats)
    return ("card-held", seats) if len(seats) == 1 else ("card-not-answer", seats)


def audit(script, log, rules, players):
    views = {s: SeatView(s, rules, players) for s in range(1, players + 1)}
    declared, revealed = set(), set()
    checked = 0
    for ev in log:
        line = script[ev["in"] - 1] if ev["in"] else None
        if visible_to(ev, None):
            if ev["type"] in ("declare", "answers"):
                declared |= set(ev["cards"])
            if ev["type"] == "say" and ev["key"] == "token":  # a token on the field: everyone sees it
                declared.add(ev["params"]["card"].removeprefix("oni:card-"))
            if ev["type"] == "verdict":
                revealed |= set(ev["answer"]) | set(ev["cards"])
            if ev["type"] == "round":
                declared, revealed = set(), set()
            leaked = _cards_in({k: v for k, v in ev.items() if k != "text"}) - declared - revealed
            assert not leaked, f"public event names undeclared cards {leaked}: {ev}"
        for s, view in views.items():
            if not visible_to(ev, s):
                continue
            view.see(ev)
            if ev["type"] != "say" or ev["to"] != f"seat:{s}":
                continue
            key, params = ev["key"], ev.get("params", {})
            if key == "hand-card":
                # only ever the card this seat itself just scanned
                assert line["reader"] == "hand" and line["seat"] == s and line["tag"] == params["card"], ev
                view.hand.add(params["card"].removeprefix(CARD_PREFIX))
            elif key == "answer-token":
                assert line["seat"] == s and line["tag"] == TOKEN_PREFIX + params["card"].removeprefix(CARD_PREFIX)
            elif key in ASSISTANT_KEYS:
                want = expected_reply(view, key, params)
                got = (key,)
                if key in ("hint", "hint-solved"):
                    got = (key, [c.removeprefix(CARD_PREFIX) for c in params["cards"]])
                elif key in ("card-unknown", "card-not-answer"):
                    got = (key, params["seats"])
                elif key == "card-held":
                    got = (key, [params["seat"]])
                assert got == want, (s, ev)
                checked += 1
            else:
                assert not _cards_in(params) - view.hand - declared - revealed, ev
    return checked


@pytest.mark.parametrize("rules,players,seed", [
    ("beginner", 5, 11), ("advanced", 5, 12), ("advanced", 4, 13), ("beginner", 6, 14), ("advanced", 3, 15),
])
def test_bot_games_leak_nothing(rules, players, seed):
    script, log = play("onisagashi", seed, players, {"rules": rules, "assistant": "full"}, "best")
    assert any(ev["type"] == "game-over" and ev["reason"] == "rounds" for ev in log)
    assert audit(script, log, rules, players) > 10
    # and the recorded script replays to the identical log
    assert run_script(script) == log


def test_audit_catches_a_leak():
    """The auditor itself must fail on a phrase that tells a seat another seat's card."""
    script, log = play("onisagashi", 3, 5, {"rules": "beginner"}, "best")
    victim = next(ev for ev in log if ev["type"] == "say" and ev["key"] == "card-held")
    seat = int(victim["to"].split(":")[1])
    forged = dict(victim, params=dict(victim["params"], seat=seat % 5 + 1 if victim["params"]["seat"] != seat % 5 + 1 else (seat + 1) % 5 + 1))
    log = [forged if ev is victim else ev for ev in log]
    with pytest.raises(AssertionError):
        audit(script, log, "beginner", 5)
