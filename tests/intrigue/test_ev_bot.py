"""Intrige's expected-value bot, and the report that rotates the seat that begins."""
from __future__ import annotations

import random

from kikimimi.design.sim import play
from kikimimi.design.tuning import Ask
from kikimimi_games.intrigue.bots import EVBot, IntrigueSimulation
from kikimimi_games.intrigue.pieces import advisor_tag
from kikimimi_games.intrigue.tuning import IntrigueReport


def _bot(seat: int = 2, cash: int = 320_000) -> EVBot:
    bot = EVBot(seat, 4, {}, random.Random(0))
    bot.cash = cash
    return bot


def test_a_conflict_is_bid_for_only_while_winning_is_worth_twice_the_bribe():
    bot = _bot()
    call = {"owner": 1, "conflict": True, "role": "finance"}
    bot.round = 1  # six rounds of the best free section (100,000) ahead: worth far more than four steps
    assert bot._taps(call) == 4
    bot.bribes = {advisor_tag(3, "finance", 1): 90_000}  # a rival offered nine steps: beat it by one
    assert bot._taps(call) == 10
    bot.round = 6  # one payout left: 100,000 is not worth 100,000 of bribe
    assert bot._taps(call) == 0
    assert _bot(cash=20_000)._taps({"owner": 1, "conflict": True, "role": "finance"}) == 0  # beyond its cash


def test_as_owner_it_gives_a_newcomer_the_poorest_free_section():
    bot = _bot(seat=1)
    newcomer = advisor_tag(3, "law", 1)
    bot.gardens[1] = [newcomer]
    bot.sections[1] = {1: advisor_tag(2, "finance", 1)}
    plan = bot._place(None)
    assert [ln["tag"] for ln in plan] == [newcomer, "intrigue:section-2"]


def test_the_ev_bot_takes_the_rotated_seat_and_its_games_replay():
    sim = IntrigueSimulation(5, 4, {}, "ev")
    assert sim.kinds == {1: "greedy", 2: "ev", 3: "greedy", 4: "greedy"}
    assert play("intrigue", 5, 4, {}, "ev") == play("intrigue", 5, 4, {}, "ev")
    table = IntrigueSimulation(5, 4, {}, "ev-table")
    assert all(isinstance(b, EVBot) for b in table.bots)
    over = [e for e in play("intrigue", 5, 4, {}, "ev-table")[1] if e["type"] == "game-over"]
    assert over and over[0]["reason"] == "end"


def test_the_report_rotates_the_first_seat_unless_asked_and_pairs_the_ev_bot():
    report = IntrigueReport()
    firsts = [t.options["first"] for t in report.trials(Ask(8, 1, 4, {}, None))]
    assert firsts == [1, 2, 3, 4, 1, 2, 3, 4]
    assert {t.options["first"] for t in report.trials(Ask(4, 1, 4, {"first": 3}, None))} == {3}
    paired = report.trials(Ask(3, 1, 4, {}, "ev"))
    assert [(t.seed, t.bot) for t in paired] == [(1, "ev"), (1, "greedy"), (2, "ev"), (2, "greedy"),
                                                 (3, "ev"), (3, "greedy")]
