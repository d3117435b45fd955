"""The trials a report plays, written once in the runtime: a duel named by its pair of bot
kinds (the Trident's search bots, イントリーゲ's expected-value bot) and every seed played by
each kind (鬼探し's styles, 闇に笑う魔女's kinds compared)."""
from __future__ import annotations

from collections.abc import Sequence

from kikimimi_games.intrigue.tuning import IntrigueReport
from kikimimi_games.trident.tuning import TridentReport
from kikimimi.design.tuning import CONTENDER, Ask, Log, Report, Row, Script, Trial, each_kind


def test_a_declared_duel_plays_each_seed_with_the_contender_then_the_baseline():
    ask = Ask(2, 10, 4, {"x": 1}, "search-random")
    assert list(TridentReport().trials(ask)) == [
        Trial(10, 4, {"x": 1}, "search-random", CONTENDER), Trial(10, 4, {"x": 1}, "random", "random"),
        Trial(11, 4, {"x": 1}, "search-random", CONTENDER), Trial(11, 4, {"x": 1}, "random", "random")]
    ev = list(IntrigueReport().trials(Ask(1, 3, 5, {}, "ev")))
    assert [(t.seed, t.bot, t.label) for t in ev] == [(3, "ev", CONTENDER), (3, "greedy", "greedy")]


def test_a_bot_that_duels_nobody_plays_each_seed_once():
    assert [(t.seed, t.bot, t.label) for t in TridentReport().trials(Ask(2, 0, 3, {}, "random"))] == [
        (0, "random", None), (1, "random", None)]
    # イントリーゲ's own rotation of the first seat stays its own
    assert [t.options["first"] for t in IntrigueReport().trials(Ask(3, 7, 3, {}, "greedy"))] == [1, 2, 3]


def test_each_kind_plays_every_seed_by_every_kind_at_every_count():
    ask = Ask(2, 5, 4, {"a": 1}, None)
    assert [(t.players, t.seed, t.bot, t.label) for t in each_kind(ask, ["x", "y"])] == [
        (4, 5, "x", "x"), (4, 5, "y", "y"), (4, 6, "x", "x"), (4, 6, "y", "y")]
    trials = list(each_kind(ask, ["x"], [5, 8], lambda n: {"n": n}))
    assert [(t.players, t.seed, dict(t.options)) for t in trials] == [
        (5, 5, {"n": 5}), (5, 6, {"n": 5}), (8, 5, {"n": 8}), (8, 6, {"n": 8})]


class _Duelling(Report):
    duels = {"sharp": "plain"}

    def figures(self, trial: Trial, script: Script, log: Log) -> None:
        return None

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        return ""


def test_any_report_duels_by_naming_the_pair():
    assert [(t.bot, t.label) for t in _Duelling().trials(Ask(1, 0, 3, {}, "sharp"))] == [
        ("sharp", CONTENDER), ("plain", "plain")]
    assert [(t.bot, t.label) for t in _Duelling().trials(Ask(1, 0, 3, {}, "plain"))] == [("plain", None)]
