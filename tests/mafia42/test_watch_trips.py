"""What マフィア42 tables tripped on and what a watcher read."""
from __future__ import annotations

from kikimimi.testkit.roles_script import of, public_view, said

from .table import Table

C = "citizen"


def test_citizens_winning_while_a_threatened_mafia_lives_say_why():
    """The ear bots' seed 3: "Winner: the citizens." with a mafia seat alive, no reason."""
    t = Table(["mafia", "gangster", C, C, C]).night({2: 1})  # the gangster threatens the mafia
    log = t.run()
    over = of(log, "game-over")
    assert over and over[0]["winner"] == "citizens"
    assert 1 not in [e["seat"] for e in of(log, "death")]
    why = said(log, "why-threatened", "table")
    assert why and why[0]["params"]["seats"] == [1]
    assert "gangster" in why[0]["text"]


def test_a_tally_never_shows_a_tie_the_accusation_breaks():
    """The politician's ballot read as 1 made "Seat 1: 1. Seat 4: 1." and then seat 4 accused."""
    t = Table(["mafia", "politician", C, C, C]).night().next().next().heard()  # the vote counts
    t.hand(2, "seat:4").hand(3, "seat:1").hand(4, "seat:1").hand(1, "seat:4")  # 2 to 2 counted as 1
    t.hand(5, "seat:3")  # every voter has a ballot: the tally is read
    t.wait(6).next()  # a reading 5 s into the vote, then the vote closes
    log = t.run()
    readings = [e["totals"] for e in public_view(log) if e["type"] == "tally"]
    accused = of(log, "accused")[-1]["seat"]
    assert accused == 4 and readings == [{"4": 3, "1": 2, "3": 1}]
    for totals in readings:
        top = max(totals.values())
        leaders = [int(s) for s, n in totals.items() if n == top]
        assert leaders == [accused] or accused is None


def test_a_stopped_game_ranks_nobody_second():
    log = Table(["mafia", "police", C, C]).night().console("stop").run()
    over = of(log, "game-over")[0]
    assert over["winner"] == "void"
    assert {row["place"] for row in over["ranking"]} == {1} and not any(row["won"] for row in over["ranking"])
