"""Undo at the undo's time, the clock paused and resumed, hostile
time bounded, unspoken inputs spoken on resume, a settings mismatch said."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from clocktable import Clocked, header, keys, of, replay

from kikimimi.table.engine import MAX_FIRINGS, run_script
from kikimimi.contract.script import Header, dumps


def _monotonic(log):
    return all(a["t"] <= b["t"] for a, b in zip(log, log[1:]))


# -- undo -------------------------------------------------------------------------------------
def test_an_input_before_a_heard_timer_cannot_be_undone(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.hand(1, "seat:2")
    table.run(table.end_of("night") + 0.2)  # "seat 2 died in the night" was heard
    out = table.console("undo")
    assert [ev["type"] for ev in out] == ["error"] and "a timer has fired" in out[0]["message"]
    assert table.d.last_input() is None
    assert [ev["seat"] for ev in of(table.d.log, "death")] == [2]
    table.d.close()
    assert replay(tmp_path / "j.jsonl") == table.d.log


def test_undo_rebuilds_at_the_undos_time_and_no_heard_timer_fires_again(tmp_path):
    """The issue's case: after an undo the situation was the night's, the night's
    timer fired again and `t` went backwards.  Now the rebuild stands at the undo."""
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.hand(1, "seat:2")
    end = table.end_of("discussion")  # night over (seat 2 dead), morning over: the discussion counts
    table.run(table.now[0] + 0.5)
    table.hand(4, "cmd:extend")
    undo = table.console("undo", dt=1.0)
    assert of(undo, "undo")[0]["input"]["tag"] == "cmd:extend"
    assert all(ev["t"] == undo[0]["t"] for ev in undo)  # at the undo's time
    spoken = " ".join(ev["text"] for ev in undo if ev["type"] == "say")
    assert "discussion" in spoken.lower() and "night" not in spoken.lower()
    assert table.d.table.game.phase == "discussion"
    table.run(end + 2.0)
    log = table.d.log
    assert _monotonic(log)
    phases = [(ev["phase"], ev["day"]) for ev in of(log, "phase")]
    assert len(phases) == len(set(phases)) and ("vote", 1) in phases
    assert [ev["seat"] for ev in of(log, "death")] == [2]
    assert next(ev["t"] for ev in of(log, "phase") if ev["phase"] == "vote") == end  # its own end, the extension undone
    table.d.close()
    assert replay(tmp_path / "j.jsonl") == log


def test_undo_in_a_replayed_script_never_moves_t_backwards():
    lines = [header().to_json()]
    t = 0.0
    for seat, tag in [(1, "mafia42:job-mafia-1"), (2, "mafia42:job-citizen-1"),
                      (3, "mafia42:job-citizen-2"), (4, "mafia42:job-police-1")]:
        t += 0.1
        lines.append({"t": t, "reader": "hand", "seat": seat, "tag": tag})
    lines += [{"t": 0.6, "reader": "hand", "seat": 2, "tag": "cmd:hint"},  # kept
              {"t": 0.7, "reader": "hand", "seat": 1, "tag": "seat:3"},
              {"t": 30.0, "console": "undo"},  # the night ended at 3.4: refused, at 30
              {"t": 30.5, "reader": "hand", "seat": 4, "tag": "cmd:hint"}]
    log = run_script(lines)
    assert _monotonic(log)
    assert "a timer has fired" in of(log, "error")[-1]["message"]


# -- pause --------------------------------------------------------------------------------------
def test_the_referee_pauses_the_clock_and_the_timer_keeps_its_remaining_time(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    end = table.end_of("night")  # its 3 s count from when its call was heard
    paused = table.console("pause", dt=0.6)
    left = end - table.now[0]
    assert keys(paused) == ["clock-paused"] and of(paused, "clock")[0]["by"] == ["referee"]
    assert table.run(30.0) == []  # nothing fires while paused
    hint = table.hand(4, "cmd:hint")  # the table still answers
    assert any(ev.get("to") == "seat:4" for ev in hint)
    assert keys(table.console("resume", dt=0.0)) == ["clock-resumed"]
    resumed_at = table.now[0]
    fired = table.run(resumed_at + 3.0)
    assert of(fired, "phase")[0]["phase"] == "morning"
    assert of(fired, "phase")[0]["t"] == pytest.approx(resumed_at + left)
    assert of(table.console("resume"), "error")  # not paused: one error
    table.console("pause")
    table.crash()
    again = Clocked(tmp_path / "j.jsonl", now=90.0)
    assert again.d.table.paused and keys(again.d.resume_report())[0] == "clock-paused"
    assert again.run(120.0) == []  # still paused after the restart
    again.console("resume")
    table = again
    table.d.close()
    assert replay(tmp_path / "j.jsonl") == table.d.log


def test_a_lost_hand_reader_holds_the_clock_of_a_real_time_game_until_it_is_back(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.now[0] = 1.0
    lost = table.d.submit({"reader": "hand", "seat": 3, "lost": True})
    assert keys(lost) == ["reader-lost", "clock-paused"]
    table.console("pause")
    table.now[0] = 20.0
    assert keys(table.d.submit({"reader": "hand", "seat": 3, "back": True}))[:2] == ["reader-back", "clock-held"]
    assert table.run(40.0) == []
    assert keys(table.console("resume"))[-1] == "clock-resumed"
    resumed = table.now[0]
    night = table.hear("night")  # asked at 0.4, heard after the resume: the clock held meanwhile
    assert night["t"] > resumed
    assert of(table.run(night["t"] + 3.5), "phase")[0]["t"] == night["t"] + 3
    table.d.close()
    assert replay(tmp_path / "j.jsonl") == table.d.log


def test_a_reader_lost_in_a_game_without_real_time_does_not_pause_anything():
    log = run_script([{"game": "trident", "players": 3}, {"t": 1, "reader": "hand", "seat": 2, "lost": True}])
    assert not of(log, "clock")


# -- hostile time -------------------------------------------------------------------------------
def test_a_far_future_t_is_one_line_in_bounded_time_and_memory(tmp_path):
    """The issue's fuzz case: {"t": 1e12} after a deal cycled phase timers without bound
    (1e7: 32 s and 2.7 GB; 1e12: a SystemError).  A jump of more than a day past a
    due timer is one line and fires nothing; a shorter one fires at most MAX_FIRINGS."""
    script = tmp_path / "far.jsonl"
    lines = [header().to_json()]
    for seat, tag in [(1, "mafia42:job-mafia-1"), (2, "mafia42:job-citizen-1"),
                      (3, "mafia42:job-citizen-2"), (4, "mafia42:job-police-1")]:
        lines.append({"t": seat * 0.1, "reader": "hand", "seat": seat, "tag": tag})
    lines += [{"t": 1e12, "reader": "hand", "seat": 2, "tag": "cmd:hint"},
              {"t": 1e7, "console": "undo"},
              {"t": 80000.0, "reader": "hand", "seat": 3, "tag": "cmd:hint"},  # under a day: 1000 timers
              {"t": 2e12, "reader": "hand", "seat": 3, "tag": "cmd:hint"}]
    script.write_text("".join(dumps(line) + "\n" for line in lines))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _MEASURED, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out, peak_kib = done.stdout.rsplit("\n", 2)[0], int(done.stdout.rsplit("\n", 2)[1])
    errors = [line for line in out.splitlines() if '"error"' in line]
    assert len(errors) == 4
    assert [("past the next timer" in e, f"after {MAX_FIRINGS} timers" in e) for e in errors] == \
        [(True, False), (True, False), (False, True), (True, False)]
    assert len(out.splitlines()) < MAX_FIRINGS * 20  # bounded: thousands of lines, not billions
    assert peak_kib < 400_000 and time.monotonic() - started < 60


_MEASURED = """
import io, sys
from kikimimi.cli import main
sys.argv = ["kikimimi", "replay", sys.argv[1]]
buf = io.StringIO(); real = sys.stdout; sys.stdout = buf
code = main()
sys.stdout = real
print(buf.getvalue(), end="")
# VmHWM is this image's own peak; ru_maxrss keeps the forking parent's across exec
# (a 1 GB pytest made a 1 GB child in the full suite).
print(next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")))
sys.exit(code or 0)
"""


# -- resume ---------------------------------------------------------------------------------------
def test_an_input_applied_but_never_told_is_told_on_resume_to_its_own_seat(tmp_path):
    journal = tmp_path / "j.jsonl"
    table = Clocked(journal).deal()
    table.d._tell = lambda item, events: None  # killed between the journal and the voices
    hint = table.hand(4, "cmd:hint")
    table.crash()
    again = Clocked(journal, now=10.0)
    told = again.d.speak_unspoken()
    assert told == hint and again.heard == hint
    assert {ev["to"] for ev in told if ev["type"] == "say"} == {"seat:4"}  # a whisper stays a whisper
    again.crash()
    third = Clocked(journal, now=20.0)
    assert third.d.speak_unspoken() == []  # told once: never again


def test_a_journal_resumed_under_other_options_says_so_in_one_line(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.d.close()
    again = Clocked(tmp_path / "j.jsonl", head=Header("mafia42", 4, {**header().options, "night": 25}, "en", {}))
    assert len(again.warnings) == 1
    assert "night 3 (config: 25)" in again.warnings[0] and "\n" not in again.warnings[0]
    assert again.d.header.options["night"] == 3


def test_a_timer_line_from_outside_the_table_is_refused_and_a_recorded_one_not_replayed(tmp_path):
    """Only the table's clock writes timer lines: the API or a reader cannot, and a journal
    played into a live table (`--sim-readers SCRIPT`) leaves its timers to that table's clock."""
    import threading

    import pytest

    from kikimimi.table.daemon import InputRefused
    from kikimimi.table.sim_readers import scripted_lines

    table = Clocked(tmp_path / "j.jsonl").deal()
    with pytest.raises(InputRefused, match="clock's own"):
        table.d.submit({"timer": "phase-1"})
    table.run(5.0)
    table.d.close()
    fresh = Clocked(tmp_path / "k.jsonl")
    submitted = []
    scripted_lines(tmp_path / "j.jsonl", submitted.append, threading.Event(), speed=0)
    assert submitted and not any("timer" in line for line in submitted)
    fresh.d.close()
