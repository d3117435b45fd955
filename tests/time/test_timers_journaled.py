"""A timer that fired is part of what the table did.  It is journaled,
so a resume, a replay and the live table reach the same state, and nothing
announced is taken back."""
from __future__ import annotations

from clocktable import Clocked, header, keys, of, replay

from kikimimi.contract.script import read_script


def test_a_fired_timer_is_a_journal_line_and_replays_to_the_live_log(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.hand(1, "seat:2")
    night, morning = table.hear("night"), table.hear("morning")
    table.run(table.end_of("morning") + 0.5)
    lines = [item for _, item in read_script(tmp_path / "j.jsonl").lines]
    assert {"t": night["t"], "timer": "heard:phase-1"} in lines  # the night's call heard: its 3 s count
    assert {"t": night["t"] + 3, "timer": "phase-1"} in lines and {"t": morning["t"] + 1, "timer": "phase-2"} in lines
    table.d.close()
    assert replay(tmp_path / "j.jsonl") == table.d.log


def test_a_kill_just_after_the_night_ended_does_not_bring_the_night_back(tmp_path):
    """The issue's case: seat 2's death was announced, the daemon is killed; the
    restarted table is in the morning, seat 2 stays dead, a new aim is refused."""
    journal = tmp_path / "j.jsonl"
    table = Clocked(journal).deal()
    table.hand(1, "seat:2")
    table.run(table.end_of("night") + 0.1)
    assert [ev["seat"] for ev in of(table.heard, "death")] == [2]
    table.crash()
    again = Clocked(journal, now=100.0)  # the wall clock has moved on while it was down
    assert again.d.table.game.phase == "morning"
    assert again.d.log == table.d.log  # what was heard is exactly where it resumes
    refused = again.hand(1, "seat:3")
    assert not of(refused, "death")
    again.run(110.0)
    assert [ev["seat"] for ev in of(again.d.log, "death")] == [2]
    phases = [(ev["phase"], ev["day"]) for ev in of(again.d.log, "phase")]
    assert len(phases) == len(set(phases))  # no phase began twice
    again.d.close()
    assert replay(journal) == again.d.log


def _ends_on_the_approval_timer(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.hand(1, "seat:2")
    table.hear("vote")  # night, morning, discussion; the vote counts
    table.hand(1, "seat:3")
    table.hand(4, "seat:3")
    table.hear("approval")  # defence, then the approval
    table.hand(1, "cmd:yes")
    table.hand(4, "cmd:yes")
    table.run(table.end_of("approval") + 1.0)  # the approval's timer executes seat 3: mafia 1, citizens 1
    return table


def test_a_game_that_ends_on_a_timer_replays_to_one_game_over(tmp_path):
    table = _ends_on_the_approval_timer(tmp_path)
    ends = of(table.d.log, "game-over")
    assert len(ends) == 1 and ends[0]["in"] is None and ends[0]["winner"] == "mafia"
    last = read_script(tmp_path / "j.jsonl").lines[-1][1]
    assert last == {"t": ends[0]["t"], "timer": "phase-6"}  # the end is in the journal
    table.d.close()
    log = replay(tmp_path / "j.jsonl")
    assert log == table.d.log and len(of(log, "game-over")) == 1


def test_restarting_a_table_whose_game_ended_on_a_timer_says_it_is_over(tmp_path):
    table = _ends_on_the_approval_timer(tmp_path)
    table.d.close()  # a clean stop
    later = table.now[0] + 30.0
    for _ in range(2):
        again = Clocked(tmp_path / "j.jsonl", now=later)
        assert again.d.table.game.over
        assert again.d.resume_report() == []  # the evening says it is over, and what comes next
        again.run(later + 30.0)  # no phase reopens, no second end
        assert len(of(again.d.log, "game-over")) == 1 and not again.heard
        again.d.close()
    assert len(of(replay(tmp_path / "j.jsonl"), "game-over")) == 1


def test_an_input_just_after_a_timer_is_journaled_at_its_true_time(tmp_path):
    table = Clocked(tmp_path / "j.jsonl").deal()
    end = table.end_of("night")
    table.run(end + 0.1)
    table.hand(2, "cmd:hint", dt=0.05)
    lines = [item for _, item in read_script(tmp_path / "j.jsonl").lines]
    assert lines[-2:] == [{"t": end, "timer": "phase-1"},
                          {"t": round(table.now[0], 2), "reader": "hand", "seat": 2, "tag": "cmd:hint"}]
    assert [ev["t"] for ev in table.d.log] == sorted(ev["t"] for ev in table.d.log)


def test_old_journals_without_timer_lines_still_replay(tmp_path):
    """A script from before timers were journaled: the timers fire on the next input's time, as they did."""
    journal = tmp_path / "old.jsonl"
    table = Clocked(tmp_path / "j.jsonl").deal()
    table.hand(1, "seat:2")
    table.run(5.0)
    table.hand(4, "cmd:hint")
    table.d.close()
    text = (tmp_path / "j.jsonl").read_text().splitlines()
    journal.write_text("\n".join(line for line in text if '"timer"' not in line) + "\n")
    old = replay(journal)
    assert of(old, "death") == of(table.d.log, "death")
    assert [ev["phase"] for ev in of(old, "phase")] == [ev["phase"] for ev in of(table.d.log, "phase")]


def test_a_hand_edited_timer_line_is_one_error_and_the_clock_still_moves(tmp_path):
    from kikimimi.table.engine import run_script

    log = run_script([header().to_json(), {"t": 1.0, "timer": "phase-9"}, {"t": 2.0, "timer": ["x"]}])
    errors = [ev["message"] for ev in of(log, "error")]
    assert errors == ["line 2: no timer 'phase-9' was due at t=1.0", 'line 3: "timer" must be a timer\'s name']


def test_a_served_table_restarted_on_a_game_ended_by_a_timer_says_it_is_over(tmp_path):
    """The whole path: `kikimimi serve` on that journal speaks that the game is over,
    reopens no phase and ends nothing a second time."""
    import subprocess
    import sys

    from support.killtimer import _toml_inline
    from kikimimi.testkit.tables import sim_table_toml

    from clocktable import SHORT

    table = _ends_on_the_approval_timer(tmp_path)
    table.d.close()
    before = (tmp_path / "j.jsonl").read_bytes()
    config = sim_table_toml("mafia42", 4, journal="j.jsonl").replace(
        'journal = "j.jsonl"\n', f'journal = "j.jsonl"\noptions = {_toml_inline(SHORT)}\n')
    (tmp_path / "table.toml").write_text(config)
    done = subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text",
                           "--sim-readers", "interactive"], cwd=tmp_path, input=b"", capture_output=True,
                          timeout=60)
    spoken = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert spoken.splitlines() == [
        "[    speaker] The game is over. For the next game, everyone scans AGREE on their hand reader."]
    assert (tmp_path / "j.jsonl").read_bytes() == before  # nothing fired, nothing journaled
    assert len(of(replay(tmp_path / "j.jsonl"), "game-over")) == 1
