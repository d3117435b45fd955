"""`kikimimi sim trident --games N`: each seat's win rate with Wilson's interval, and the
first player drawn by the seed (as the designer's page plays it), so its edge is measured."""
from __future__ import annotations

from typing import Any

import pytest

from kikimimi_games.trident.tuning import TridentReport, report
from kikimimi.cli import main
from kikimimi.design.tuning import Ask, Trial


def test_the_first_player_rotates_with_the_seed_as_the_page_deals_it() -> None:
    trials = list(TridentReport().trials(Ask(4, 10, 3, {}, None)))
    assert [t.options["first"] for t in trials] == [TridentReport().deal(s, 3, {})["first"] for s in range(10, 14)]
    assert sorted({t.options["first"] for t in trials}) == [1, 2, 3]
    # an asked first player stays, and a duel keeps its own deal
    assert {t.options["first"] for t in TridentReport().trials(Ask(3, 0, 3, {"first": 2}, None))} == {2}
    assert all("first" not in t.options for t in TridentReport().trials(Ask(2, 0, 3, {}, "search")))


def _stats(winner: int) -> dict[str, Any]:
    return {"winner": winner, "reason": "out", "inputs": 10, "turns": 5, "penalties": {}, "deciding": None}


def test_the_text_gives_each_seat_and_each_turn_place_its_interval() -> None:
    # seat 2 wins every game: as the first player twice (first=2) and as the second once (first=1)
    rows = [(Trial(s, 3, {"first": f}), _stats(2)) for s, f in ((0, 2), (1, 2), (2, 1))]
    text = report(rows, 3)
    assert "seat 2 100.0% [43.9%, 100.0%]" in text  # Wilson: 3.84 / (3 + 3.84) = 56.1 % the other way
    assert "seat 1 0.0% [0.0%, 56.1%]" in text
    assert "1. 66.7% [20.8%, 93.9%], 2. 33.3% [6.1%, 79.2%], 3. 0.0% [0.0%, 56.1%]" in text
    fixed = report([(Trial(s, 3, {"first": 1}), _stats(2)) for s in range(3)], 3)
    assert "the first player: seat 1 in every game" in fixed and "turn order" not in fixed


def test_sim_prints_the_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "trident", "--games", "6", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "win rate by seat (95 % interval): seat 1 " in out and "%, " in out
    assert "win rate by place in turn order" in out


def test_onisagashi_gives_each_seat_and_each_turn_place_apart() -> None:
    """鬼探し declares who declares first: sim rotates it with the seed and says both (docs/report.md)."""
    from kikimimi_games.onisagashi.tuning import OnisagashiReport, seats_and_places

    trials = list(OnisagashiReport().trials(Ask(5, 1, 5, {"rounds": 1}, None)))
    assert sorted({t.options["first"] for t in trials}) == [1, 2, 3, 4, 5]
    # seat 3 wins both games: first when seat 3 began (place 1), then when seat 1 began (place 3)
    rows = [(Trial(1, 5, {"first": 3}, label="best"), {"turns": [], "wins": [0, 0, 1, 0, 0]}),
            (Trial(2, 5, {"first": 1}, label="best"), {"turns": [], "wins": [0, 1, 1, 0, 0]})]
    text = seats_and_places(rows, "best")
    assert "seat 3 100.0%" in text and "1. 50.0%" in text and "3. 50.0%" in text and "2. 50.0%" in text
    assert "who begins rotates with the seed" in text and "a shared first place in 50.0%" in text
