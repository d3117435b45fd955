"""What live tables tripped on, one test per defect (each fails without its fix)."""
from __future__ import annotations

from kikimimi.table.engine import run_script
from kikimimi.contract.phrases import Phrasebook
from kikimimi.testkit.script import Script

# -- 7: wording ------------------------------------------------------------------


def test_one_laugh_is_said_once_not_one_times():
    book = Phrasebook("en", ("core", "witch"))
    assert book.render("laughter", {"count": 1}).startswith("Laughter from the dark, once.")
    assert book.render("laughter", {"count": 2}).startswith("Laughter from the dark, 2 times.")


def test_one_seat_gone_is_seat_not_seats():
    book = Phrasebook("en", ("core", "witch"))
    assert book.render("hint-out", {"seats": [2]}) == "Gone: seat 2."
    assert book.render("hint-out", {"seats": [2, 5]}) == "Gone: seats 2, 5."
    assert book.render("hint-alive", {"seats": [4]}) == "On the island: seat 4."


def test_a_lost_hand_reader_is_named_by_its_seat():
    s = Script("witch", 6)
    s.lines.append({"t": 1, "reader": "hand", "seat": 3, "lost": True})
    s.lines.append({"t": 2, "reader": "field", "lost": True})
    said = [e["text"] for e in run_script(s.lines) if e["type"] == "say" and e["key"] == "reader-lost"]
    assert said == ["The hand reader of seat 3 is not answering.", "The field reader is not answering."]


# -- 3: the time left said after an undo ------------------------------------------


def test_after_an_undo_the_time_left_counts_from_the_undo_not_the_last_kept_input():
    from tests.mafia42.table import Table

    t = Table(["mafia", "police", "citizen", "citizen"]).night({1: 3}).next().next().heard()  # the vote counts
    t.hand(1, "seat:2").console("undo", dt=3)
    log = t.run()
    opened = next(e["t"] for e in log if e["type"] == "phase-clock" and e["phase"] == "vote")
    vote_secs = next(e for e in log if e["type"] == "say" and e["key"] == "vote-start")["params"]["seconds"]
    undo_at = next(e["t"] for e in log if e["type"] == "undo")
    left = [e["params"]["left"] for e in log if e["type"] == "say" and e["key"] == "hint-time" and e["t"] == undo_at]
    import math
    assert left == [math.ceil(opened + vote_secs - undo_at)]


# -- public lines carry no input counts; console refusals are the referee's ------------


def test_refused_lines_and_failed_pause_resume_are_the_referees_not_public():
    from kikimimi.table.engine import public_view

    s = Script("witch", 6)
    s.hand(7, "cmd:ok").console("resume").console("pause").console("pause").add({"tag": "x"})
    log = run_script(s.lines)
    errors = [e for e in log if e["type"] == "error"]
    assert {e["message"] for e in errors} >= {"line 2: no hand reader for seat 7",
                                              "the clock is not paused",
                                              "the clock is already paused"}
    assert all(e.get("private") == "referee" for e in errors)
    public = public_view(log)
    assert not [e for e in public if e["type"] == "error"]
    assert not any(re_line(str(e)) for e in public)


def re_line(text: str) -> bool:
    import re

    return re.search(r"\bline \d+", text) is not None


def test_the_console_says_a_heard_timer_is_why_there_is_nothing_to_undo(toy):
    from kikimimi.table.engine import ScriptRun
    from kikimimi.contract.script import Header

    run = ScriptRun(Header.parse({"game": "toy", "players": 2}))
    assert run.why_no_undo() == "nothing to undo"
    run.feed(2, {"t": 1.0, "reader": "field", "tag": "toy:stone-1"})
    assert run.why_no_undo() is None and run.last_input() is not None
    run.feed(3, {"t": 25.0, "reader": "hand", "seat": 9, "tag": "toy:stone-2"})  # refused; idle timers fired
    assert run.last_input() is None
    why = run.why_no_undo()
    assert why is not None and "timer" in why and "line" not in why


# -- 4: a lost hand reader holds the clock; the referee's `resume` plays on ----------


def test_resume_plays_on_without_a_reader_that_does_not_come_back():
    from tests.witch.table import day1

    s = day1()
    s.add({"reader": "hand", "seat": 3, "lost": True}).add({"reader": "hand", "seat": 4, "lost": True})
    s.console("resume")
    log = run_script(s.lines)
    clocks = [e for e in log if e["type"] == "clock"]
    assert clocks[0]["state"] == "paused" and clocks[-1] == {**clocks[-1], "state": "running"}
    assert [e["key"] for e in log if e["type"] == "say"][-1] == "clock-resumed"
    assert not [e for e in log if e["type"] == "error" and e["in"] == len(s.lines)]
    s.add({"reader": "hand", "seat": 3, "back": True})  # coming back later changes nothing
    later = run_script(s.lines)
    assert [e["type"] for e in later if e["type"] == "clock"] == [e["type"] for e in clocks]


# -- 8: journals ---------------------------------------------------------------------


def test_a_copied_journal_with_its_mark_is_not_told_again(tmp_path):
    import shutil

    from kikimimi.table.daemon import Daemon
    from kikimimi.contract.script import Header

    now = [0.0]
    first = tmp_path / "a" / "j.jsonl"
    first.parent.mkdir()
    d = Daemon(Header("witch", 6, lang="en"), first, clock=lambda: now[0])
    d.open()
    for seat in range(1, 4):
        now[0] += 1
        d.submit({"reader": "hand", "seat": seat, "tag": "cmd:hint"})
    d.close()
    restored = tmp_path / "b" / "j.jsonl"
    restored.parent.mkdir()
    shutil.copy(first, restored)  # another inode, the same bytes
    shutil.copy(first.with_name("j.jsonl.said"), restored.with_name("j.jsonl.said"))
    again = Daemon(Header("witch", 6, lang="en"), restored, clock=lambda: now[0])
    again.open()
    try:
        assert again.speak_unspoken() == []
    finally:
        again.close()
    # a new game's journal at the same name is not taken for the old one
    fresh = Daemon(Header("witch", 6, lang="en"), restored, clock=lambda: now[0])
    fresh.open(fresh=True)
    try:
        fresh.submit({"reader": "hand", "seat": 1, "tag": "cmd:hint"})
        fresh.close()
        third = Daemon(Header("witch", 6, lang="en"), restored, clock=lambda: now[0])
        third.open()
        assert third.speak_unspoken() == []
        third.close()
    finally:
        fresh.close()


def test_an_undo_in_a_script_without_timer_lines_does_not_fire_a_heard_timer_again():
    from tests.mafia42.table import Table

    t = Table(["mafia", "police", "citizen", "citizen"])  # the night starts at the deal's end
    t.hand(1, "seat:3").heard()  # the night's 25 s count from here
    t.hand(2, "cmd:hint", dt=30)  # the night's timer fired before this line: seat 3's death was heard
    t.console("undo")  # takes back seat 2's HINT, not the night
    log = run_script(t.lines)
    assert [e["type"] for e in log if e["type"] == "undo"] == ["undo"]
    deaths = [e for e in log if e["type"] == "say" and e["key"] == "died"]
    assert len(deaths) == 1, [(e["t"], e["in"]) for e in deaths]
