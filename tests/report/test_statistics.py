"""The report's statistics on numbers worked out by hand."""
from __future__ import annotations

import math
from typing import Any

import pytest

from kikimimi.design import confidence, versus
from kikimimi.design.report.facts import game_facts
from kikimimi.design.report.minutes import ACT_SECONDS, REPEAT_SECONDS, SPEECH_WPM, table_seconds


def test_games_needed_for_a_five_point_change_from_even():
    # Fleiss without continuity correction, p1 .50, p2 .55: the textbook 1,565 per group
    assert confidence.games_needed(0.5, 0.05) == 1565
    # from 90 % the change goes toward 50 % (p2 = .85): ((1.95996·0.46771 + 0.84162·0.46637) / .05)² = 685.6
    assert confidence.games_needed(0.9, 0.05) == 686
    with pytest.raises(ValueError):
        confidence.games_needed(0.5, 0.0)


def test_pairs_needed_from_the_differences_spread():
    # ((1.95996 + 0.84162) · 1 / 0.5)² = 31.39
    assert confidence.pairs_needed(1.0, 0.5) == 32
    assert confidence.pairs_needed(0.0, 0.05) == 2  # no spread: the least a comparison needs


def test_quartiles_inclusive():
    assert confidence.quartiles([1, 2, 3, 4, 5]) == (2.0, 3.0, 4.0)
    assert confidence.quartiles([7]) == (7.0, 7.0, 7.0)
    assert all(math.isnan(x) for x in confidence.quartiles([]))


def _two_teams(islanders_b: list[int]) -> dict[str, versus.Units]:
    a = {s: {"islanders win": 0.0, "witches win": 1.0} for s in range(100)}
    b = {s: {"islanders win": float(w), "witches win": 1.0 - w} for s, w in enumerate(islanders_b)}
    return {"a": a, "b": b}


def test_holm_counts_complementary_measures_once():
    # 10 seeds where b's islanders win and 3 where... the reverse cannot happen (a never wins):
    # b wins 7 more of 100: mean +0.07; its p ≈ 0.049 passes alone at 5 % and fails as one of two (0.025)
    wins = [1] * 10 + [0] * 90
    arms = _two_teams(wins)
    arms["a"] = {s: ({"islanders win": 1.0, "witches win": 0.0} if s in (50, 51, 52) else f)
                 for s, f in arms["a"].items()}
    found = versus.differences(arms)
    d = {x.measure: x for x in found}
    assert 0.025 < d["islanders win"].p < 0.05
    assert versus.independent(arms, ["islanders win", "witches win"]) == ["islanders win"]
    assert versus.questions(found, arms) == 1
    assert d["islanders win"].holm and not d["witches win"].holm


def test_three_teams_are_three_questions():
    arms = {n: {s: {"a win": float(s % 3 == 0), "b win": float(s % 3 == 1), "c win": 0.0} for s in range(30)}
            for n in ("x", "y")}
    assert versus.independent(arms, ["a win", "b win", "c win"]) == ["a win", "b win", "c win"]


def test_baseline_and_every_pair():
    assert versus.pairs_of(["a", "b", "c"]) == [("b", "a"), ("c", "a")]
    assert versus.pairs_of(["a", "b", "c"], "b") == [("a", "b"), ("c", "b")]
    assert versus.pairs_of(["a", "b", "c"], versus.ALL_PAIRS) == [("b", "a"), ("c", "a"), ("c", "b")]
    with pytest.raises(ValueError, match="no such arm"):
        versus.pairs_of(["a", "b"], "z")


def test_interaction_contrast_by_hand():
    # option 2 adds 1 only when option 1 is on: contrast (1 − 0) − (0 − 0) = 1 in every unit
    zero = {s: {"m": 0.0} for s in range(10)}
    both = {s: {"m": 1.0} for s in range(10)}
    est, n = versus.interaction("m", [zero, zero, zero, both])
    assert n == 10 and est.value == 1.0
    # effects that add up: a00 0, a01 1, a10 1, a11 2 → contrast 0
    one = {s: {"m": 1.0} for s in range(10)}
    two = {s: {"m": 2.0} for s in range(10)}
    est, _ = versus.interaction("m", [zero, one, one, two])
    assert est.value == 0.0


def _say(n: int, text: str, to: str = "table") -> dict[str, object]:
    return {"type": "say", "to": to, "in": n, "text": text, "key": "x"}


def test_table_minutes_by_hand():
    words35 = " ".join(["word"] * 35)  # 12 s at 175 words a minute
    script = [{"game": "toy", "players": 2},
              {"t": 1.0, "reader": "hand", "seat": 1, "tag": "cmd:bribe"},
              {"t": 2.0, "reader": "hand", "seat": 1, "tag": "cmd:bribe"},  # the same tap again
              {"t": 60.0, "reader": "hand", "seat": 2, "tag": "seat:1"}]  # a timer the bots waited out
    log = [_say(1, words35), _say(2, "ok", to="seat:1"), _say(4, words35)]
    # header 12 s; first act 5.5 s; a repeat 1 s; then max(58 s clock, 0 s heard + 5.5 s); the end 12 s
    assert SPEECH_WPM == 175
    assert table_seconds(script, log) == pytest.approx(12 + ACT_SECONDS + REPEAT_SECONDS + 58 + 12)
    # speech before a quick act outlasts the bots' one second
    script[3] = {"t": 3.0, "reader": "hand", "seat": 2, "tag": "seat:1"}
    log.append(_say(3, words35))
    assert table_seconds(script, log) == pytest.approx(12 + ACT_SECONDS + REPEAT_SECONDS + (12 + ACT_SECONDS) + 12)


def test_facts_read_the_ranking_and_the_log():
    script = [{"game": "toy", "players": 3, "options": {"first": 2}}, {"t": 1.0, "console": "stop"}]
    log = [{"type": "cash", "seat": 1, "cash": 10, "t": 0.0}, {"type": "cash", "seat": 2, "cash": 5, "t": 0.0},
           {"type": "say", "to": "table", "in": 2, "key": "decided-by-lot", "text": "by lot", "t": 1.0},
           {"type": "night-rules", "fired": ["guard-saved"], "t": 1.0},
           {"type": "game-over", "reason": "end", "t": 2.0, "ranking": [
               {"seat": 2, "place": 1, "cash": 30}, {"seat": 3, "place": 2, "cash": 24},
               {"seat": 1, "place": 3, "cash": 2}]}]
    f = game_facts(script, log)
    assert f["wins"] == [0, 1, 0] and f["places"] == [1, 0, 0]  # seat 2 played first: the first player won
    assert f["margin"] == 6.0 and f["unit"] == "cash" and f["comeback"] == 1 and f["lot"] == 1
    assert f["fired"] == {"night: guard-saved": 1}
    # the Trident's points count against: the winner's 0 against the nearest 4
    over = {"type": "game-over", "reason": "out", "ranking": [
        {"seat": 1, "place": 1, "points": 0}, {"seat": 2, "place": 2, "points": 4}]}
    assert game_facts([{"game": "t", "players": 2}], [over])["margin"] == 4.0


def test_the_tridents_margin_is_in_pieces_under_normal_scoring_and_points_under_competition():
    from kikimimi_games.trident.tuning import TridentReport

    over = {"type": "game-over", "reason": "out", "ranking": [
        {"seat": 1, "place": 1, "pieces": 0, "points": 0}, {"seat": 2, "place": 2, "pieces": 2, "points": 90},
        {"seat": 3, "place": 3, "pieces": 5, "points": 40}]}
    script = [{"game": "trident", "players": 3}]
    normal = game_facts(script, [over], margin=TridentReport().margin_field({"scoring": "normal"}))
    assert (normal["margin"], normal["unit"]) == (2.0, "pieces")  # the ranking's order: pieces left
    competition = game_facts(script, [over], margin=TridentReport().margin_field({"scoring": "competition"}))
    assert (competition["margin"], competition["unit"]) == (40.0, "points")


def test_mafia42s_deaths_and_spoken_abilities_are_firings_and_an_unused_one_is_zero():
    from kikimimi_games.mafia42.tuning import ABILITIES
    from kikimimi.design.report import analysis

    log = [{"type": "death-cause", "seat": 3, "cause": "mafia", "t": 1.0, "in": 1},
           {"type": "say", "to": "table", "key": "saved", "params": {"seat": 2}, "t": 1.0, "in": 1},
           {"type": "say", "to": "seat:4", "key": "police-not-mafia", "params": {"seat": 5}, "t": 1.0, "in": 1},
           {"type": "say", "to": "seat:1", "key": "mafia-aim", "params": {"seat": 7}, "t": 1.0, "in": 1},
           {"type": "game-over", "reason": "mafia", "winner": "mafia", "t": 2.0, "ranking": [
               {"seat": 1, "place": 1, "won": True, "team": "mafia"},
               {"seat": 2, "place": 2, "won": False, "team": "citizens"}]}]
    f = game_facts([{"game": "mafia42", "players": 2}], log, ABILITIES)
    assert f["fired"] == {"ability: doctor: save": 1, "ability: police: check, not mafia": 1, "death: mafia": 1}
    plan = analysis.Plan("mafia42", ["a"], {"a": None}, {"a": {}}, [2], 1, 1,
                         rules=[f"ability: {a}" for a in ABILITIES.values()])
    text = str(analysis.firings(plan, {"a": {2: [(1, f)]}}).parts[0].table.rows)
    assert "'ability: gangster: threat', '0.00'" in text and "'ability: doctor: save', '1.00'" in text


def test_a_shared_first_place_raises_the_fair_share_and_the_tie_rate_is_shown():
    from kikimimi.design.report import analysis

    two = {"wins": [1, 1, 0, 0, 0], "places": None, "teams": {}, "finished": 1}
    one = {"wins": [0, 0, 1, 0, 0], "places": None, "teams": {}, "finished": 1}
    assert analysis.fair_share([two, one], 5) == pytest.approx(0.3)  # 3 wins in 2 games over 5 seats
    plan = analysis.Plan("onisagashi", ["a"], {"a": None}, {"a": {}}, [5], 2, 1)
    row = analysis.balance(plan, {"a": {5: [(1, two), (2, one)]}}).parts[0].table.rows[0]
    assert row[2] == "30.0 %" and row[5].startswith("50.0 %")  # not 20 %; one game of two shared


def test_a_varied_option_no_bot_decision_depends_on_is_warned_of():
    """The Trident's scoring changes the ranking, never a bot's move: the page says so;
    a first player changes the moves, and is not warned of."""
    from kikimimi.contract.registry import declaration
    from kikimimi.design.report import analysis
    from kikimimi.design.report.build import plan_of
    from kikimimi.design.report.run import play_job

    for variant, warned in (({"scoring": ["normal", "competition"]}, True), ({"first": [1, 2]}, False)):
        plan, jobs = plan_of(declaration("trident"), 2, 1, [3], {}, [None], variant, None, None, "")
        results: dict[str, dict[int, list[tuple[int, Any]]]] = {a: {3: []} for a in plan.arms}
        for job in jobs:
            results[job.arm][3].append((job.seed, play_job("trident", job)))
        same = analysis.unfelt(plan, results)
        assert bool(same) == warned, variant
        text = analysis.comparisons(plan, results).paragraphs[0]
        assert ("no bot decision depends on that option" in text.lower()) == warned


def test_the_witchs_night_rules_listed_at_zero_are_every_rule_its_night_fires():
    import re
    from pathlib import Path

    from kikimimi_games.witch import tuning

    night = (Path(tuning.__file__).parent / "night.py").read_text(encoding="utf-8")
    fired = {f"night: {r}" for r in re.findall(r'fire\("([a-z-]+)"\)', night)}
    assert fired and set(tuning.WitchReport.rules) == fired


def test_each_question_gets_a_one_line_verdict():
    from kikimimi.design.confidence import Estimate
    from kikimimi.design.report.analysis import verdict

    kept = versus.Difference("citizens win", "nodoctor", "doctor", Estimate(-0.1, -0.176, -0.024), 100, 0.01, True)
    assert verdict(kept, versus.RATE) == ("Verdict on citizens win: lower by 10.0 points with nodoctor than with "
                                          "doctor (-10.0 pts [-17.6, -2.4]), a difference these games tell from "
                                          "noise after Holm's correction.")
    noise = versus.Difference("table minutes", "b", "a", Estimate(0.5, -0.2, 1.2), 40, 0.2, False)
    assert "b against a: no difference these games can tell from noise (+0.50 [-0.20, +1.20] min)" in \
        verdict(noise, versus.MEAN)


def test_an_option_tried_at_three_values_is_swept_in_the_order_given():
    from kikimimi.design.report import analysis

    def facts(team: str) -> dict[str, Any]:
        return {"teams": {"a": int(team == "a"), "b": int(team == "b")}, "wins": [0, 0], "places": None,
                "finished": 1, "minutes": 10.0}

    arms = ["r=3", "r=1", "r=2"]
    plan = analysis.Plan("toy", arms, {a: None for a in arms}, {a: {"r": int(a[-1])} for a in arms}, [2], 4, 1,
                         variants={"r": [3, 1, 2]})
    won = {"r=3": "aaab", "r=1": "abbb", "r=2": "aabb"}
    results = {a: {2: [(i, facts(t)) for i, t in enumerate(won[a])]} for a in arms}
    s = analysis.sweep(plan, results)
    assert s is not None and s.title == "Sweep of r"
    rows = s.parts[0].table.rows
    assert [r[0] for r in rows] == arms and rows[0][1].startswith("75.0 %") and rows[1][1].startswith("25.0 %")
    assert analysis.sweep(analysis.Plan("toy", arms[:2], {a: None for a in arms[:2]}, {}, [2], 4, 1,
                                        variants={"r": [3, 1]}), results) is None  # two values: a comparison


def test_lead_changes_count_each_new_sole_leader():
    from kikimimi.design.report.facts import lead_changes

    def cash(t: float, seat: int, amount: int) -> dict[str, Any]:
        return {"type": "cash", "seat": seat, "cash": amount, "t": t, "in": int(t)}

    log = [cash(0, 1, 10), cash(0, 2, 10),  # a shared start: no leader yet
           cash(1, 1, 20),  # seat 1 leads
           cash(2, 2, 20),  # a shared lead: nothing changes hands yet
           cash(3, 2, 30),  # seat 2 leads: one change
           cash(4, 1, 40), cash(4, 2, 50),  # one input: seat 2 still leads once both are in
           cash(5, 1, 60)]  # seat 1 again: two
    assert lead_changes(log) == 2
    assert lead_changes([{"type": "turn", "seat": 1}]) is None  # no running score: a blank
    over = {"type": "game-over", "reason": "end", "t": 6.0, "ranking": [
        {"seat": 1, "place": 1, "cash": 60}, {"seat": 2, "place": 2, "cash": 50}]}
    assert game_facts([{"game": "toy", "players": 2}], [*log, over])["leads"] == 2


def test_the_page_plays_a_duel_beside_the_bot_it_replaces_as_sim_does():
    """`report intrigue --bot ev`: the greedy bot's arm is added, the rules' first player kept
    (the contender's seat rotates), and the page's duel row is sim's duel figures."""
    from kikimimi.contract.registry import declaration
    from kikimimi.design.report import analysis
    from kikimimi.design.report.build import plan_of
    from kikimimi.design.report.run import play_job
    from kikimimi.design.tuning import tune

    plan, jobs = plan_of(declaration("intrigue"), 6, 1, [4], {}, ["ev"], {}, None, None, "")
    assert list(plan.arms) == ["ev", "greedy"] and plan.duels == {"ev": "greedy"}
    assert all("first" not in j.options for j in jobs) and "duel keeps the rules' first player" in plan.dealt
    results: dict[str, dict[int, list[tuple[int, Any]]]] = {a: {4: []} for a in plan.arms}
    for job in jobs:
        results[job.arm][4].append((job.seed, play_job("intrigue", job)))
    row = analysis.duel(plan, results).parts[0].rows[0]
    text = tune(declaration("intrigue"), 6, 1, 4, {}, bot="ev", progress=False)
    contender = row[2].split(" ")[0]
    assert f"ev: win rate {contender}%" in text and row[0] == "ev against greedy, 4 players"
