"""Ways of playing side by side (`--versus`, `--variant`): the statistics on known numbers,
and the runtime's comparison on a few real seeded games."""
from __future__ import annotations

import math

import pytest

from kikimimi.design import confidence, versus
from kikimimi.cli import main
from kikimimi.cli.play import parse_variants
from kikimimi.cli import CliError
from kikimimi.contract.registry import declaration
from kikimimi.design.tuning import Trial, arms, outcome_measures, tune


def test_a_p_value_and_holm_on_known_numbers():
    est = confidence.Estimate(1.0, 1.0 - confidence.Z95, 1.0 + confidence.Z95)  # se 1, z 1
    assert confidence.p_value(est) == pytest.approx(0.3173, abs=1e-4)
    assert confidence.holm([0.01, 0.04, 0.03]) == [True, False, False]  # 0.03 > 0.05 / 2
    assert confidence.holm([0.01, 0.02, 0.03]) == [True, True, True]
    assert confidence.holm([0.2, 0.001]) == [False, True]


def test_paired_seeds_find_a_difference_unpaired_ones_would_miss():
    # the same 60 seeds: arm b wins exactly where a does, and 12 more
    a = {s: {"seat 1 wins": float(s % 3 == 0)} for s in range(60)}
    b = {s: {"seat 1 wins": float(s % 3 == 0 or s % 5 == 1)} for s in range(60)}
    text = versus.text("toy", {"a": a, "b": b})
    assert "(paired)" in text and "significant after Holm's correction over 1 comparisons at 5 %: seat 1 wins" in text
    d = versus.differences({"a": a, "b": b})[0]
    assert d.paired == 60 and d.diff.low > 0 and d.holm
    unpaired = versus.difference("seat 1 wins", "b", "a", b, {s + 100: f for s, f in a.items()})
    assert unpaired.paired == 0 and unpaired.diff.low < 0 < unpaired.diff.high  # the deal's luck stays in


def test_equal_ways_are_not_called_different():
    a = {s: {"x wins": float(s % 2), "length": float(s % 7)} for s in range(40)}
    text = versus.text("toy", {"a": a, "b": dict(a)})
    assert text.endswith("rates with Wilson's interval)") and ": none" in text
    assert all(not d.holm and d.p == 1.0 for d in versus.differences({"a": a, "b": dict(a)}))


def test_every_combination_is_an_arm_the_first_one_the_reference():
    ways = arms(["human", "search"], {"scoring": ["normal", "competition"]}, {"first": 2})
    assert [w.name for w in ways] == ["human scoring=normal", "human scoring=competition",
                                      "search scoring=normal", "search scoring=competition"]
    assert ways[3].options == {"first": 2, "scoring": "competition"} and ways[3].bot == "search"
    assert [w.name for w in arms([None], {"scoring": ["normal"]}, {})] == ["default"]


def test_outcomes_read_the_ranking_of_seats_teams_and_duels():
    over = {"type": "game-over", "reason": "out", "ranking": [{"seat": 2, "place": 1}, {"seat": 1, "place": 2}]}
    plain = outcome_measures(Trial(4, 2), [{}, {}, {}], [over])
    assert plain == {"seat 1 wins": 0.0, "seat 2 wins": 1.0, "game length (table minutes)": 0.1833}
    duel = outcome_measures(Trial(4, 2, bot="search", label="contender"), [{}], [over])  # focal seat 4 % 2 + 1
    assert duel["search wins"] == 0.0 and duel["search place"] == 2.0
    teams = {"type": "game-over", "winner": "witches",
             "ranking": [{"seat": 1, "place": 1, "team": "witches"}, {"seat": 2, "place": 2, "team": "islanders"}]}
    assert outcome_measures(Trial(1, 2), [{}], [teams])["witches win"] == 1.0
    assert outcome_measures(Trial(1, 2), [{}], [teams])["islanders win"] == 0.0
    assert outcome_measures(Trial(1, 2), [{}], []) == {"game length (table minutes)": 0.0}
    grouped = outcome_measures(Trial(1, 2, label=(12, "cult")), [{}], [teams])  # a report's cell, not a duel
    assert grouped["witches win"] == 1.0 and not any("place" in m for m in grouped)


def test_a_reports_cells_of_one_seed_stay_apart_and_a_duels_two_plays_merge():
    from kikimimi.design.tuning import _units

    cells = _units([(Trial(1, 8, label="a"), {"x wins": 1.0}), (Trial(1, 8, label="b"), {"x wins": 0.0})])
    assert sorted(f["x wins"] for f in cells.values()) == [0.0, 1.0]
    duel = _units([(Trial(1, 3, bot="search", label="contender"), {"search wins": 1.0}),
                   (Trial(1, 3, bot="human", label="human"), {"human wins": 0.0})])
    assert list(duel.values()) == [{"search wins": 1.0, "human wins": 0.0, "search − human wins": 1.0}]


def test_the_trident_compares_bots_and_scoring_on_the_same_seeds():
    text = tune(declaration("trident"), 4, 1, 3, {}, progress=False, versus_bots=["human", "random"])
    assert "== human ==" in text and "== random ==" in text
    assert "seat 1 wins:\n  human " in text and "− human:" in text and "(paired)" in text
    duel = tune(declaration("trident"), 3, 1, 3, {}, bot="search", progress=False,
                variants={"scoring": ["normal", "competition"]})
    assert "search − human wins:" in duel and "scoring=competition 3 games)" in duel  # a seed's two plays are one unit
    with pytest.raises(ValueError):
        tune(declaration("trident"), 2, 1, 3, {}, bot="human", progress=False, versus_bots=["human", "random"])
    with pytest.raises(ValueError):
        tune(declaration("trident"), 2, 1, 3, {}, progress=False, versus_bots=["human", "nobody"])


def test_the_command_line_parses_variants_and_refuses_in_one_line(capsys):
    assert parse_variants(["scoring=normal,competition", "counts=[5,8],[12]", "scoring=normal"]) == \
        {"scoring": ["normal", "competition"], "counts": [[5, 8], [12]]}
    with pytest.raises(CliError):
        parse_variants(["scoring"])
    with pytest.raises(CliError):
        parse_variants(["scoring=normal,"])
    assert main(["sim", "trident", "--versus", "human"]) == 2
    assert main(["sim", "trident", "--games", "2", "--versus", "human"]) == 2
    assert main(["sim", "trident", "--games", "2", "--versus", "human,nobody"]) == 2
    err = capsys.readouterr().err
    assert err.count("kikimimi: ") == 3 and "Traceback" not in err
    assert main(["sim", "trident", "--games", "2", "--variant", "scoring=normal,competition"]) == 0
    assert "significant after Holm's correction" in capsys.readouterr().out
    assert not math.isnan(confidence.p_value(confidence.Estimate(0.0, 0.0, 0.0)))


def test_a_varied_value_may_be_named_and_its_arms_are_called_by_it():
    from kikimimi.design.tuning import Named, arms, plain_variants

    deck = ["mafia", "mafia", "police", "doctor", "citizen", "citizen", "citizen", "citizen"]
    variants = parse_variants(['jobs=doctor:["mafia","mafia","police","doctor","citizen","citizen","citizen","citizen"],'
                               'plain:[1]', 'scoring=competition', 'note="a:b"'])
    assert variants["jobs"] == [Named("doctor", deck), Named("plain", [1])]
    assert variants["scoring"] == ["competition"] and variants["note"] == ["a:b"]  # quoted: a value, not a name
    ways = arms([None], {"jobs": variants["jobs"]}, {})
    assert [w.name for w in ways] == ["jobs=doctor", "jobs=plain"] and ways[0].options["jobs"] == deck
    assert plain_variants({"jobs": variants["jobs"]}) == {"jobs": [deck, [1]]}
    with pytest.raises(ValueError, match="same name"):
        arms([None], {"jobs": [Named("x", [1]), Named("x", [2])]}, {})
    text = tune(declaration("mafia42"), 1, 1, 8, {}, bot="reason", progress=False,
                variants={"jobs": [Named("doctor", deck), Named("nodoctor", deck[:3] + ["citizen"] * 5)]})
    assert "== jobs=doctor ==" in text and "jobs=nodoctor − jobs=doctor" not in text and "− jobs=doctor:" in text


def test_a_long_value_is_numbered_in_its_arms_name():
    from kikimimi.design.tuning import arms

    deck = ["mafia", "mafia", "police", "doctor", "citizen", "citizen", "citizen", "citizen"]
    ways = arms([None], {"jobs": [deck, deck[:3] + ["citizen"] * 5], "night": [10, 20]}, {})
    assert [w.name for w in ways] == ["jobs=#1 night=10", "jobs=#1 night=20", "jobs=#2 night=10", "jobs=#2 night=20"]
    assert ways[0].options["jobs"] == deck
