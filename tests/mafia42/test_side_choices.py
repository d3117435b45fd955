"""What the cult and the helpers choose, one decision at a time, from a table's public facts
and their own seat's news: each choice is the one the rules make worth having."""
from __future__ import annotations

import random

from kikimimi.roles.claims import co, found, vote
from kikimimi_games.mafia42.reasoning import Reasoning, ReasonSeat
from kikimimi_games.mafia42.suspicion import Facts
from kikimimi_games.mafia42.talk import Board

HELPERS = ("spy", "beastman", "madam", "thief", "witch", "scientist")


def _table(players: int = 10, mafia: int = 2) -> tuple[Facts, Reasoning]:
    deck = ["mafia"] * mafia + ["spy", "police", "doctor", "cult-leader"]
    deck += ["citizen"] * (players - len(deck))
    facts = Facts.of_deck(players, deck, HELPERS, Board())
    return facts, Reasoning(facts)


def _seat(seat: int, job: str, team: str, reasoning: Reasoning, players: int = 10) -> ReasonSeat:
    bot = ReasonSeat(seat, players, random.Random(seat), reasoning)
    bot.see({"type": "job", "seat": seat, "job": job, "team": team})
    return bot


def _told(bot: ReasonSeat, key: str, **params: object) -> None:
    bot.see({"type": "say", "to": f"seat:{bot.seat}", "key": key, "params": params})


def test_the_cult_leader_converts_what_carries_the_town_s_votes():
    facts, reasoning = _table()
    leader = _seat(4, "cult-leader", "cult", reasoning)
    facts.talk.say(2, 1, [co("police"), found("police", 7, "not-mafia")], 1.0)
    facts.day = 2
    assert leader.night_target() == 2  # the police claimant the table trusts
    facts.see({"type": "say", "to": "table", "key": "politician-survives", "params": {"seat": 9}})
    assert leader.night_target() == 9  # a politician's two votes
    facts.see({"type": "say", "to": "table", "key": "judge-revealed", "params": {"seat": 6}})
    assert leader.night_target() == 6  # a revealed judge's ∞
    _told(leader, "converted-job", seat=6, job="job:judge")
    _told(leader, "convert-failed", seat=9)  # (not a politician after all: a mafia-team seat)
    assert leader.night_target() == 2 and leader.mates == {6}
    assert leader.vote() == 9  # a seat its conversion found on the mafia's team


def test_a_converted_seat_plays_for_the_cult_and_shields_its_leader():
    facts, reasoning = _table()
    convert = _seat(5, "citizen", "citizens", reasoning)
    assert convert.side == "town"
    _told(convert, "you-converted", seat=4)
    assert convert.side == "cult" and convert.mates == {4}
    facts.talk.say(2, 1, [co("police"), found("police", 4, "mafia")], 1.0)  # a lie, as the convert knows
    facts.day = 2
    assert not convert.approve(4)
    convert.intend(2)
    assert convert.intent != 4


def test_a_helper_seeks_the_mafia_then_votes_with_them():
    facts, reasoning = _table()
    spy = _seat(3, "spy", "mafia", reasoning)
    assert spy.side == "helper"
    facts.talk.say(2, 1, [co("police"), found("police", 8, "mafia")], 1.0)
    facts.day = 2
    assert spy.night_target() == 8  # the seat the table's worlds make likeliest a mafioso
    _told(spy, "contact-made", seats=[1, 8])
    assert spy.side == "mafia" and spy.mafioso
    assert spy.approve(7) and not spy.approve(8)  # every accused but a mate
    assert spy.liar() == 3  # the police reads a helper "not mafia": it is the team's fake police
    mafioso = _seat(1, "mafia", "mafia", reasoning)
    _told(mafioso, "partners", seats=[8])
    _told(mafioso, "helper-joined", seat=3, job="job:spy")
    assert mafioso.liar() == 3


def test_a_beastman_marks_the_seat_the_mafia_will_shoot():
    facts, reasoning = _table()
    beast = _seat(3, "beastman", "mafia", reasoning)
    facts.talk.say(6, 1, [co("police"), found("police", 2, "not-mafia")], 1.0)
    facts.talk.say(6, 1, [vote(9)], 1.0)
    facts.day = 2
    assert beast.night_target() == 6
