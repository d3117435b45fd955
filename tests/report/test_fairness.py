"""The null experiment (kikimimi/design/fairness.py) catches a biased bot and a fixed asking order,
and passes fair bots and the stock ear table (Snap: tests/report/snapgame)."""
from __future__ import annotations

import pytest

from kikimimi.design.contract_check import check
from kikimimi.design.fairness import experiment, identical_kinds
from kikimimi.contract.registry import declaration, register


@pytest.fixture(scope="module")
def snap() -> str:
    from report.snapgame import SnapGame

    return register(SnapGame).name


def test_a_biased_bot_is_named_with_its_chair(snap):
    verdict = experiment(snap, "biased", 200, players=6)
    assert max(verdict.biased, key=lambda e: abs(e.edge.value)).number == 1 and verdict.biased[0].edge.value > 0.2
    assert "snap, bot biased" in verdict.line() and "biased: chair 1 wins" in verdict.line()


def test_a_fixed_asking_order_is_caught_and_the_stock_ear_table_is_fair(snap):
    fixed = experiment(snap, "fixed", 120, players=6)
    assert fixed.biased[0].number == 1 and fixed.biased[0].rate.value == 1.0 and "chair 1 wins 100.0 %" in fixed.line()
    stock = experiment(snap, "ear", 300, players=6)
    assert stock.fair, stock.line()
    rates = [e.rate.value for e in stock.edges]
    assert max(rates) < 0.26 and min(rates) > 0.09  # a fair share is 16.7 %


def test_kikimimi_check_fails_the_biased_kind_in_one_line(snap):
    assert identical_kinds(declaration(snap)) == ["plain", "biased", "ear", "fixed"]
    assert check(snap, ["fairness"], ["plain", "ear"], 120) == []
    failures = check(snap, ["fairness"], ["biased"], 120)
    assert len(failures) == 1 and failures[0].part == "fairness" and "chair 1" in failures[0].problem
    assert "\n" not in failures[0].line()


def test_the_witchs_default_bots_spread_the_first_exit():
    """Ties in the odds went to the lowest seat: chair 1 was voted out first in every game."""
    from collections import Counter

    from kikimimi.design.sim import play

    first = Counter()
    for seed in range(1, 25):
        _, log = play("witch", seed, 6, {}, None)
        out = next(e for e in log if e.get("type") == "say" and e.get("key") == "voted-out")
        first[out["params"]["seats"][0]] += 1
    assert first[1] < 12 and len(first) >= 4


def test_a_measure_one_arm_never_had_is_no_nan_difference():
    """An arm without a team printed "+nan pts [-100.0, +100.0]"."""
    from kikimimi.design import versus

    arms = {"a": {s: {"town win": float(s % 2), "cult win": 0.0} for s in range(20)},
            "b": {s: {"town win": float(s % 3 == 0)} for s in range(20)}}
    text = versus.text("t", arms)
    assert "nan" not in text and "+100.0]" not in text
    assert "cult win:" in text and "not measured on both sides" in text


def test_the_pages_null_experiment_keeps_a_first_player_the_designer_fixed():
    """`report --option first=2 --fairness`: the section plays chair 2 first and says so, not a
    rotation the designer did not ask for (no option dropped: docs/report.md)."""
    from kikimimi.design.fairness import section

    s = section("trident", [("random", {"first": 2})], [3], 6, 1)
    said = " ".join(s.paragraphs)
    assert "chair 2 always begins" in said and "random, first=2, 3 players" in str(s.parts[0].rows)


def test_intrigues_ear_bots_give_no_chair_an_edge():
    """Their garden was read in the owners' seat order, so the first piece an owner picked up was
    seat 1's advisor (chair 1 +18.8 pts at 120 games); now in the handles' shuffled order."""
    verdict = experiment("intrigue", "ear", 120)
    assert verdict.fair, verdict.line()
