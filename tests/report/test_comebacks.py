"""Comebacks: a game the winner won from behind, in team games (by the share of each
side's starting strength still in play at a day's end) and in games with a running
score (the score at half time, sent as an event or spoken by the table)."""
from __future__ import annotations

from typing import Any

import pytest

from kikimimi.table.engine import Table, default_tagmap
from kikimimi.design.report.facts import game_facts
from kikimimi.contract.script import Header
from kikimimi.design.sim import play


def _witch_log(outs_day1: list[int], outs_night1: list[int], winner: str) -> tuple[list[dict[str, Any]],
                                                                                  list[dict[str, Any]]]:
    """Six seats: 1 and 2 witches, 3-6 islanders; day 1, night 1, then the end."""
    teams = {1: "witches", 2: "witches", 3: "islanders", 4: "islanders", 5: "islanders", 6: "islanders"}
    log: list[dict[str, Any]] = [{"t": 0.0, "in": 1, "type": "phase", "phase": "day", "day": 1}]
    log += [{"t": 10.0, "in": 5, "type": "out", "seat": s, "when": "day"} for s in outs_day1]
    log.append({"t": 10.0, "in": 5, "type": "phase", "phase": "night", "day": 1})
    log += [{"t": 20.0, "in": 8, "type": "out", "seat": s, "when": "night"} for s in outs_night1]
    log.append({"t": 20.0, "in": 8, "type": "phase", "phase": "day", "day": 2})
    log.append({"t": 30.0, "in": 9, "type": "game-over", "winner": winner,
                "ranking": [{"seat": s, "team": t, "place": 1 if t == winner else 2, "won": t == winner,
                             "role": t} for s, t in teams.items()]})
    return [{"game": "witch", "players": 6}] + [{}] * 9, log


def test_a_team_behind_in_members_at_a_days_end_that_still_wins_came_back() -> None:
    # a witch banished on day one: the witches keep 1/2, the islanders 4/4; the witches still win
    assert game_facts(*_witch_log([1], [], "witches"))["comeback"] == 1
    # the islanders had lost nobody at the day's end: no comeback
    assert game_facts(*_witch_log([1], [], "islanders"))["comeback"] == 0
    # the night's removal is not yet a day's end: the game ended before the next one
    assert game_facts(*_witch_log([], [3, 4], "witches"))["comeback"] == 0
    # an even loss (1/2 against 2/4) is not behind
    assert game_facts(*_witch_log([1, 3, 4], [], "islanders"))["comeback"] == 0


def _mafia_log(day_end_power: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    start = {"mafia": {"heads": 2, "votes": 2}, "citizens": {"heads": 6, "votes": 6}}
    log: list[dict[str, Any]] = [
        {"t": 0.0, "in": 1, "type": "phase", "phase": "night", "day": 1},
        {"t": 0.0, "in": 1, "type": "power", "sides": start},
        {"t": 50.0, "in": 7, "type": "death", "seat": 3, "when": "day"},
        {"t": 50.0, "in": 7, "type": "phase", "phase": "night", "day": 2},
        {"t": 50.0, "in": 7, "type": "power", "sides": day_end_power},  # after the phase, in the same step
        {"t": 60.0, "in": 9, "type": "game-over", "winner": "mafia",
         "ranking": [{"seat": s, "team": "mafia" if s <= 2 else "citizens", "place": 1 if s <= 2 else 2}
                     for s in range(1, 9)]},
    ]
    return [{"game": "mafia42", "players": 8}] + [{}] * 9, log


def test_mafia42_reads_the_win_arithmetic_not_the_head_count() -> None:
    # a mafia executed (votes 2 -> 1) while the citizens keep 5 of 6 votes: the mafia was behind
    assert game_facts(*_mafia_log({"mafia": {"heads": 1, "votes": 1},
                                   "citizens": {"heads": 6, "votes": 5}}))["comeback"] == 1
    # the politician executed: the citizens lose two votes, the mafia none: the mafia led
    assert game_facts(*_mafia_log({"mafia": {"heads": 2, "votes": 2},
                                   "citizens": {"heads": 4, "votes": 4}}))["comeback"] == 0
    # a revealed judge (∞) on the citizens' side: the mafia was behind whatever its share
    assert game_facts(*_mafia_log({"mafia": {"heads": 2, "votes": 2},
                                   "citizens": {"heads": "inf", "votes": "inf"}}))["comeback"] == 1


def test_a_score_the_table_speaks_is_a_running_score() -> None:
    say = [{"t": t, "type": "say", "key": "score", "params": {"seat": s, "points": p}}
           for t, s, p in ((10.0, 1, 1), (10.0, 2, 0), (30.0, 2, 2))]
    over = {"t": 40.0, "type": "game-over", "ranking": [{"seat": 2, "place": 1, "points": 2},
                                                        {"seat": 1, "place": 2, "points": 1}]}
    assert game_facts([{"players": 2}], [*say, over])["comeback"] == 1
    assert game_facts([{"players": 2}], [over])["comeback"] is None  # no running score: a blank


@pytest.mark.parametrize(("game", "players", "seed", "winner", "comeback"), [
    ("witch", 8, 6, "islanders", 1),  # behind at a day's end (seeds since the bots' ties are drawn)
    ("witch", 8, 1, "witches", 0),
    ("mafia42", 8, 3, "citizens", 1),  # two citizens out at day 2's end (5 of 7 votes), the mafia whole
    ("mafia42", 8, 1, "mafia", 0),
    ("onisagashi", 4, 3, None, 1),
    ("onisagashi", 4, 1, None, 0),
])
def test_seeded_games_with_and_without_a_comeback(game: str, players: int, seed: int, winner: str | None,
                                                  comeback: int) -> None:
    facts = game_facts(*play(game, seed, players, {}, None))
    if winner is not None:
        assert facts["teams"][winner] == 1
    assert facts["comeback"] == comeback


def _hands_at_half_time(script: list[dict[str, Any]], log: list[dict[str, Any]]) -> dict[int, int]:
    """The Trident's own hands (the game's state, not the log) after the last line at or before half time."""
    half = float(log[-1]["t"]) / 2
    table = Table(Header.parse(script[0]), tagmap=default_tagmap("trident"))
    table.start()
    for number, line in enumerate(script[1:], start=2):
        if float(line["t"]) > half:
            break
        table.feed(number, line)
    return {seat: len(hand) for seat, hand in table.game.hands.items()}


@pytest.mark.parametrize("seed", range(12))
def test_the_tridents_comeback_reads_the_hands_the_game_holds(seed: int) -> None:
    """A shedding game's standing is the pieces each seat holds: followed from the
    log's draws, plays and rotations, they must be the game's own hands at half time."""
    script, log = play("trident", seed, 3, {}, None)
    hands = _hands_at_half_time(script, log)
    winners = {r["seat"] for r in next(e for e in log if e["type"] == "game-over")["ranking"] if r["place"] == 1}
    fewest = min(hands.values())
    expected = int(not any(hands[w] == fewest for w in winners))
    assert game_facts(script, log)["comeback"] == expected


def test_a_rotation_passes_the_counts_on() -> None:
    draws = [{"t": 1.0, "type": "draw", "seat": 1, "tag": f"p{i}"} for i in range(3)]
    draws += [{"t": 1.0, "type": "draw", "seat": 2, "tag": "q"}]
    over = {"t": 10.0, "type": "game-over", "ranking": [{"seat": 2, "place": 1}, {"seat": 1, "place": 2},
                                                        {"seat": 3, "place": 3}]}
    # seat 2 holds one, seat 3 none: seat 2 was behind
    assert game_facts([{"players": 3}], [*draws, over])["comeback"] == 1
    # passed left (seat k's hand to seat k - 1): seat 2 now holds none, with seat 1
    rotate = {"t": 2.0, "type": "rotate", "direction": "left"}
    assert game_facts([{"players": 3}], [*draws, rotate, over])["comeback"] == 0
