"""kikimimi/testkit/knowledge.py on hand-made games: what a seat may know, what it owns,
and when two games part for it."""
from __future__ import annotations

import random

import pytest

from kikimimi.testkit.knowledge import SeatLeak, compare_seat, default_owner, lived, reseed_others

HEADER = {"game": "toy", "players": 3}


def game(*steps: tuple[dict, list[dict]]) -> tuple[list[dict], list[dict]]:
    """A script and its log from (line, events) steps; events get `in` and `seq` as a table gives them."""
    script, log = [HEADER], []
    for number, (line, events) in enumerate(steps, start=2):
        script.append(line)
        log += [{"seq": len(log) + 1, "in": number, **ev} for ev in events]
    return script, log


def secret(seat: int, what: str) -> dict:
    return {"type": "say", "to": f"seat:{seat}", "key": "hand", "params": {"card": what}}


def test_another_seats_secret_is_not_a_difference_but_a_public_one_is():
    a = game(({"t": 1.0, "reader": "hand", "seat": 2, "tag": "x"}, [secret(2, "ace")]),
             ({"t": 2.0, "reader": "hand", "seat": 1, "tag": "cmd:ok"}, []),
             ({"t": 3.0, "reader": "field", "tag": "p1"}, [{"type": "play", "seat": 2, "tag": "p1"}]))
    b = game(({"t": 1.0, "reader": "hand", "seat": 2, "tag": "y"}, [secret(2, "king")]),
             ({"t": 2.0, "reader": "hand", "seat": 1, "tag": "cmd:ok"}, []),
             ({"t": 3.0, "reader": "field", "tag": "p2"}, [{"type": "play", "seat": 2, "tag": "p2"}]))
    walk = compare_seat(a, b, 1)
    assert walk.decisions == 1 and walk.diverged and walk.lines == 4  # parted at seat 2's public play
    with pytest.raises(SeatLeak):  # seat 2 itself heard different cards: its own lines may differ
        compare_seat(a, game(({"t": 1.0, "reader": "hand", "seat": 2, "tag": "x"}, [secret(2, "ace")]),
                             ({"t": 2.0, "reader": "hand", "seat": 1, "tag": "cmd:no"}, [])), 1)


def test_a_seat_that_decides_otherwise_knowing_the_same_leaks():
    a = game(({"t": 1.0, "console": "act 3 1"}, [secret(3, "wolf")]), ({"t": 2.0, "console": "act 1 2"}, []))
    b = game(({"t": 1.0, "console": "act 3 2"}, [secret(3, "wolf")]), ({"t": 2.0, "console": "act 1 3"}, []))
    with pytest.raises(SeatLeak, match="seat 1 knew the same"):
        compare_seat(a, b, 1)
    with pytest.raises(SeatLeak, match="seat 3"):  # it acted first, knowing nothing either time
        compare_seat(a, b, 3)
    # seat 2 never acts; the others' console acts reach it as their shape only (who, when), the same both times
    assert compare_seat(a, b, 2).decisions == 0 and not compare_seat(a, b, 2).diverged


def test_counters_are_not_knowledge_and_an_unheard_piece_may_differ():
    a = game(({"t": 1.0, "reader": "hand", "seat": 2, "tag": "x"}, [secret(2, "ace"), secret(2, "two")]),
             ({"t": 2.0, "reader": "hand", "seat": 1, "tag": "basket-7"}, [secret(1, "basket-7")]))
    b = game(({"t": 1.0, "reader": "hand", "seat": 2, "tag": "x"}, [secret(2, "ace")]),
             ({"t": 2.0, "reader": "hand", "seat": 1, "tag": "basket-9"}, [secret(1, "basket-9")]))
    # seat 2 heard one line more, so every later `seq` differs: seat 1 cannot see that
    with pytest.raises(SeatLeak):
        compare_seat(a, b, 1)  # without `anonymous`, another tag is another decision
    walk = compare_seat(a, b, 1, anonymous=lambda tag: tag.startswith("basket-"))
    assert walk.decisions == 1 and walk.diverged  # the drawn piece was the same draw; then it heard another


def test_owners_and_the_seats_view():
    assert default_owner({"reader": "hand", "seat": 2, "tag": "x"}, [], None) == 2
    assert default_owner({"console": "act 3 1"}, [], None) == 3
    assert default_owner({"console": "next"}, [], 2) is None
    assert default_owner({"reader": "field", "tag": "p"}, [{"type": "play", "seat": 1, "opening": True}], 3) == 3
    assert default_owner({"reader": "field", "tag": "p"}, [{"type": "play", "seat": 1}], 3) == 1
    steps = lived(game(({"t": 1.0, "reader": "hand", "seat": 2, "tag": "x"},
                        [secret(2, "ace"), {"type": "turn", "seat": 2}])), 1)
    assert [s.what for s in steps] == [{"input by": 2, "t": 1.0, "reader": "hand", "seat": 2},
                                       {"type": "turn", "seat": 2}]  # no secret, no seq, no in


def test_reseed_others_leaves_the_seat_itself_alone():
    class Bot:
        def __init__(self, seat: int) -> None:
            self.seat, self.rng = seat, random.Random(seat)

    class Table:
        bots = {1: Bot(1), 2: Bot(2), 3: Bot(3)}

    before = {s: b.rng.getstate() for s, b in Table.bots.items()}
    reseed_others(Table, 2, random.Random(0))
    assert Table.bots[2].rng.getstate() == before[2]
    assert all(Table.bots[s].rng.getstate() != before[s] for s in (1, 3))
    with pytest.raises(AssertionError):
        reseed_others(type("Lonely", (), {"bots": [Bot(1)]}), 1, random.Random(0))
