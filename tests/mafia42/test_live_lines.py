"""lines マフィア42 said wrong at a live table."""
from __future__ import annotations

from kikimimi.testkit.roles_script import said

from kikimimi.roles.clock import seconds_left

from .table import Table

C = "citizen"


def test_a_seat_with_its_card_is_told_to_wait_not_to_scan_its_card():
    t = Table(["mafia", "police", C, C])
    t.lines = t.lines[:3]  # seats 1 and 2 have their cards; 3 and 4 not yet
    log = t.hand(1, "seat:2").hand(3, "seat:2").run()
    assert [e["to"] for e in said(log, "deal-waiting")] == ["seat:1"]
    assert [e["to"] for e in said(log, "scan-role-first")] == ["seat:3"]
    for lang in ("en", "ja"):
        t = Table(["mafia", "police", C, C], lang=lang)
        t.lines = t.lines[:2]
        assert said(t.hand(1, "seat:2").run(), "deal-waiting")[0]["text"]


def test_a_105_second_phase_says_105_seconds_left():
    """422.96 + 105 - 422.96 is 105.00000000000006 in floats: "106 seconds left"."""
    assert seconds_left(422.96 + 105, 422.96) == 105
    assert seconds_left(10.5, 10.0) == 1 and seconds_left(1.0, 2.0) == 0
    t = Table(["mafia", "police", C, C, C, C, C, C])  # the night opens as the deal ends, at 4.0
    t.t = 7.02
    t.next().next()  # the night ends at 7.52, the morning at 8.02: the discussion's 120 s
    t.hand(3, "cmd:hint", dt=0)  # HINT the moment the discussion starts: before it is heard, the whole phase
    t.heard().hand(3, "cmd:hint", dt=0)  # and the moment its clock starts (m + 120 - m > 120 in floats)
    log = t.run()
    start = [e for e in log if e["type"] == "phase" and e["phase"] == "discussion"][-1]
    assert start["t"] == 8.02
    counted = [e for e in log if e["type"] == "phase-clock" and e["phase"] == "discussion"][-1]["t"]
    left = [e["params"]["left"] for e in said(log, "hint-time") if e["t"] in (start["t"], t.t)]
    assert t.t - counted < 0.001 and left == [int(start["seconds"])] * 2
