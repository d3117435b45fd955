"""Properties of every bot game: it ends, money is conserved, advisors are conserved, cash stays private.

Games are played by the ear-only bots through the real engine (`kikimimi.design.sim.play`)
and then replayed line by line through a fresh `Table`, checking the state after
every input.  Hypothesis is seeded (derandomized) and bounded.
"""
from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kikimimi.table.engine import Table
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.script import Header
from kikimimi.design.sim import play
from kikimimi_games.intrigue.game import GARDEN, HAND, OUT, SECTION

GAMES = st.fixed_dictionaries({
    "seed": st.integers(0, 10_000),
    "players": st.sampled_from([4, 5]),
    "bot": st.sampled_from(["greedy", "random", "mixed"]),
    "edition": st.sampled_from(["classic", "amigo"]),
    "bribes": st.sampled_from(["open", "hidden"]),
})


def carries_cash(ev: dict[str, Any]) -> bool:
    return "cash" in ev or "cash" in (ev.get("params") or {})


def check_advisors(game: Any) -> None:
    """Each advisor is in exactly one place, and the places agree with the boards."""
    where = game.where
    assert len(where) == len(game.seats) * game.ed.advisors_each
    in_gardens = [t for g in game.gardens.values() for t in g]
    in_sections = [t for sec in game.sections.values() for t in sec.values()]
    assert sorted(in_gardens) == sorted(t for t, p in where.items() if p.kind == GARDEN)
    assert sorted(in_sections) == sorted(t for t, p in where.items() if p.kind == SECTION)
    assert len(set(in_gardens + in_sections)) == len(in_gardens) + len(in_sections)
    assert all(p.kind in (HAND, GARDEN, SECTION, OUT) for p in where.values())
    for m, sec in game.sections.items():
        roles = [t.split("-")[2] for t in sec.values()]
        assert len(roles) == len(set(roles))  # one advisor of each role per mansion, once settled
        assert all(1 <= k <= game.ed.sections for k in sec)


@settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_every_bot_game_ends_conserves_money_and_advisors_and_keeps_cash_private(g):
    options = {"edition": g["edition"], "bribes": g["bribes"]}
    script, log = play("intrigue", g["seed"], g["players"], options, g["bot"])
    assert not [e for e in log if e["type"] == "error" and "internal error" in e["message"]]
    over = [e for e in log if e["type"] == "game-over"]
    assert len(over) == 1 and over[0]["reason"] == "end"  # the bots were always called: no referee stop

    # Replayed input by input: the same log, and the invariants after every input.
    table = Table(Header.parse(script[0]))
    replayed = table.start()
    game = table.game
    start = game.ed.start_cash * len(game.seats)
    for n, line in enumerate(script[1:], start=2):
        replayed += table.feed(n, line)
        paid = sum(e["amount"] for e in replayed if e["type"] == "income")
        assert sum(game.cash.values()) == start + paid  # bribes only move cash
        assert all(c >= 0 for c in game.cash.values())
        if game.state == "placing" or n % 7 == 0:
            check_advisors(game)
    assert replayed == log
    check_advisors(game)
    # 10 advisors (8 in amigo), two a round, no dispatch in the last round: every hand is empty.
    assert all(not game.hand(s) for s in game.seats)

    # No seat's cash in a public event or another seat's earphone before the end.
    end = over[0]["seq"]
    for ev in log:
        if ev["seq"] >= end or not carries_cash(ev):
            continue
        owner = ev.get("seat") if ev["type"] == "cash" else int(ev["to"].split(":")[1])
        assert not visible_to(ev, None)
        assert [s for s in game.seats if visible_to(ev, s)] == [owner]
    # Hidden offers reach the offerer and the owner only.
    if g["bribes"] == "hidden":
        offers = [e for e in log if e["type"] == "offer"]
        assert offers and all(len(e["private"]) == 2 and not visible_to(e, None) for e in offers)
    # Every advisor ever dispatched went to another seat; dispatches per seat fit in its hand.
    for ev in (e for e in log if e["type"] == "dispatch"):
        assert ev["target"] != ev["seat"] and f"advisor-{ev['seat']}-" in ev["advisor"]
