"""Every option reaches the games on every path (docs/report.md, "Every option honoured"): `kikimimi sim --games` (its report's
own trials), `kikimimi report` (and `--variant`, whose jobs the cluster and the workers play
as they are), and changing an option changes the games played; an option a path cannot
honour is refused in one line, never dropped."""
from __future__ import annotations

from typing import Any

import pytest

from kikimimi.contract.registry import declaration
from kikimimi.design.report.build import plan_of
from kikimimi.design.sim import play
from kikimimi.design.tuning import Ask, _report_of, honoured, tune

M8 = ["mafia", "mafia", "police", "doctor", "citizen", "citizen", "citizen", "citizen"]
ROLES8 = ["human", "human", "human", "human", "human", "witch", "witch", "mirror"]

#: game -> (players, {option: (other options, the value tried, the seed whose game it changes)}).
TRIED: dict[str, tuple[int, dict[str, tuple[dict[str, Any], Any, int]]]] = {
    "trident": (3, {"first": ({}, 2, 1), "scoring": ({}, "competition", 1)}),
    "onisagashi": (5, {"rules": ({}, "advanced", 1), "assistant": ({}, "matrix", 1), "rounds": ({}, 1, 1),
                       "target": ({}, 3, 1), "first": ({}, 2, 1), "raise_window": ({}, 1.0, 1),
                       "settle": ({}, 1.0, 1)}),
    "witch": (8, {"roles": ({}, ROLES8, 1), "chars_per_minute": ({}, 2, 1), "allowance": ({}, 5, 1),
                  "day_minutes": ({}, 60, 1), "night_minutes": ({}, 1, 1), "token_chars_per_second": ({}, 100, 1),
                  "night_seconds": ({}, 5, 1), "overrun": ({}, 120, 1), "island_bonus": ({}, 0, 1),
                  "advisory_min": ({}, 0, 2), "advisory_max": ({}, 6, 2), "silence_minutes": ({}, 700, 3),
                  "day_acts": ({}, "free", 1), "preferences": ({}, {"1": "witch"}, 1), "seed": ({}, 5, 2)}),
    "mafia42": (8, {"mode": ({}, "general", 1), "jobs": ({}, M8, 1), "skills": ({}, {"2": "escape"}, 3),
                    "job_changes": ({}, {"police": {"effect": "kill"}}, 1), "night": ({}, 3, 1),
                    "discussion_per_player": ({}, 1, 1), "vote": ({}, 2, 1), "defence": ({}, 1, 1),
                    "approval": ({}, 1, 1), "morning": ({}, 1, 1)}),
    "intrigue": (4, {"edition": ({}, "amigo", 1), "start_cash": ({}, 1, 1), "rounds": ({}, 1, 1),
                     "step": ({}, 7, 1), "bribes": ({}, "hidden", 1), "incomes": ({}, [1, 2, 3, 4, 5], 1),
                     "first": ({}, 2, 1), "seed": ({"bribes": "hidden"}, 9, 1)}),
}
#: Options no bot decision depends on (the bots play the same game; docs/report.md): honoured, not felt.
UNFELT = {("witch", "night_minutes"), ("witch", "overrun")}
CASES = [(g, k) for g, (_, opts) in TRIED.items() for k in opts]


def _strip(log: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "seq"} for e in log]


def test_every_declared_option_is_tried():
    for game, (_, tried) in TRIED.items():
        decl = declaration(game)
        names = decl.options.names if decl.options is not None else decl.option_names
        assert set(names) == set(tried), game


@pytest.mark.parametrize("game,key", CASES)
def test_sim_plays_the_option_and_it_changes_the_game(game, key):
    players, tried = TRIED[game]
    base, value, seed = tried[key]
    report = _report_of(game)
    ask = Ask(1, seed, players, {**base, key: value}, declaration(game).bots[0])
    trials = list(report.trials(ask))
    honoured(game, report, ask, trials, False)
    assert trials and all(t.options[key] == value for t in trials)
    first = next(t for t in trials if t.seed == seed)
    script, log = play(game, first.seed, first.players, dict(first.options), first.bot)
    assert script[0]["options"][key] == value
    if (game, key) in UNFELT:
        return
    without = {k: v for k, v in first.options.items() if k != key}
    _, other = play(game, first.seed, first.players, without, first.bot)
    assert _strip(log) != _strip(other)


@pytest.mark.parametrize("game,key", CASES)
def test_the_report_plays_the_option_in_every_arm(game, key):
    players, tried = TRIED[game]
    base, value, seed = tried[key]
    plan, jobs = plan_of(declaration(game), 2, seed, [players], base, [None], {key: [value]}, None, None, "")
    assert jobs and all(j.options[key] == value for j in jobs)


def test_mafia42_variant_jobs_is_played_at_the_asked_count():
    other = ["mafia", "mafia", "police", "citizen", "citizen", "citizen", "citizen", "citizen"]
    text = tune(declaration("mafia42"), 2, 1, 8, {}, bot="reason", progress=False,
                variants={"jobs": [M8, other]})
    assert "random decks" not in text and "the deck mafia,mafia,police,doctor" in text
    assert "2 seeds from 1, 8 players" in text
    assert "\n      8 classic" in text and "\n      4 " not in text and "\n     12 " not in text


def test_a_deck_for_another_count_is_refused_in_one_line():
    with pytest.raises(ValueError) as caught:
        tune(declaration("witch"), 1, 1, 8, {"counts": [6, 8], "roles": ROLES8}, bot="reason", progress=False)
    assert "cannot play roles=" in str(caught.value) and "\n" not in str(caught.value)


def test_bot_kinds_a_report_plays_itself_are_refused_under_versus():
    with pytest.raises(ValueError) as caught:
        tune(declaration("onisagashi"), 1, 1, 5, {}, progress=False, versus_bots=["best", "random"])
    assert "--versus" in str(caught.value) and "\n" not in str(caught.value)


def test_sim_warns_when_a_varied_option_changed_no_bot_move():
    decl = declaration("trident")
    scoring = tune(decl, 2, 1, 3, {}, progress=False, variants={"scoring": ["normal", "competition"]})
    assert "no bot decision depends on scoring" in scoring
    first = tune(decl, 2, 1, 3, {}, progress=False, variants={"first": [1, 2]})
    assert "no bot decision" not in first
    assert "game length (table minutes):\n  first=1  " in first and ", IQR " in first  # its spread beside the mean


def test_a_game_whose_seats_share_first_place_has_a_tie_rate_in_the_comparison():
    text = tune(declaration("intrigue"), 2, 1, 4, {}, progress=False, variants={"rounds": [1, 2]})
    # one round has no dispatch, so nobody earns more: every seat shares the first place
    assert "shared first place:\n  rounds=1  100.0%" in text
    assert "shared first place" not in tune(declaration("trident"), 2, 1, 3, {}, progress=False,
                                            variants={"first": [1, 2]})


def test_mafia42_mode_alone_plays_the_games_deal_at_the_asked_count():
    text = tune(declaration("mafia42"), 2, 1, 8, {"mode": "general"}, bot="reason", progress=False)
    assert "the catalogue's deal" in text and "\n      8 general" in text and "\n      4 " not in text
    assert "of the 2 games dealing it" in text or "  none" in text  # the dealt cards read from the ranking


@pytest.mark.parametrize("game", list(TRIED))
def test_versus_ladder_is_the_games_bot_kinds_weak_to_strong(game):
    from kikimimi.cli.play import versus_kinds

    decl = declaration(game)
    ladder = versus_kinds(decl, "ladder")
    assert ladder is not None and len(ladder) >= 2 and set(ladder) <= set(decl.bots)
    assert versus_kinds(decl, "a, b") == ["a", "b"] and versus_kinds(decl, None) is None
