"""The journal loses nothing, holds nothing refused, leaks to no one."""
from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import threading

import pytest

from kikimimi.table.daemon import Daemon, JournalUnwritable
from kikimimi.table.journal import Journal, JournalBusy, JournalError
from kikimimi.contract.script import Header, read_script

from hardening_helpers import TOY_CLI, replay


def _daemon(tmp_path, name="j.jsonl"):
    d = Daemon(Header("toy", 2), tmp_path / name)
    return d


class _Disk:
    """A disk that is full while `full` is set: writes fail after a partial write, like ENOSPC."""

    def __init__(self):
        self.full = False

    def pwrite(self, fd, data, offset):
        if self.full:
            os.pwrite(fd, data[: len(data) // 2], offset)  # part of it lands, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.pwrite(fd, data, offset)


# -- 1: full disk ---------------------------------------------------------------
def test_a_full_disk_refuses_the_input_cuts_the_journal_back_and_recovers(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    alerts = []
    d.subscribe_alerts(lambda message, said: alerts.append((message, said)))
    disk = _Disk()
    d._journal.pwrite = disk.pwrite
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    before = (tmp_path / "j.jsonl").read_bytes()
    log_before = list(d.log)
    disk.full = True
    with pytest.raises(JournalUnwritable, match="No space left"):
        d.submit({"reader": "field", "tag": "toy:stone-2"})
    assert d.try_submit({"reader": "hand", "seat": 1, "tag": "toy:stone-3"}) == []
    assert (tmp_path / "j.jsonl").read_bytes() == before  # nothing refused is in the journal
    assert d.log == log_before and d.snapshot()["game"]["played"] == ["toy:stone-1"]
    assert len(alerts) == 2 and "\n" not in alerts[0][0]
    said = alerts[0][1]
    assert said["to"] == "table" and said["key"] == "journal-unwritable" and said["text"]
    disk.full = False  # space returns: the table takes inputs again
    d.submit({"reader": "field", "tag": "toy:stone-2"})
    d.close()
    parsed = read_script(tmp_path / "j.jsonl")
    assert not parsed.warnings
    assert [item["tag"] for _, item in parsed.lines] == ["toy:stone-1", "toy:stone-2"]
    assert replay(tmp_path / "j.jsonl") == d.log  # `in` numbers match journal lines


def test_a_full_disk_at_start_is_one_line(tmp_path, toy, monkeypatch):
    monkeypatch.setattr(Journal, "pwrite", staticmethod(lambda fd, data, off: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))))
    with pytest.raises(JournalError) as info:
        _daemon(tmp_path).open()
    assert "\n" not in str(info.value) and "No space left" in str(info.value)
    assert (tmp_path / "j.jsonl").read_bytes() == b""


def test_an_unusable_journal_folder_is_one_line(tmp_path, toy):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(JournalError) as info:
        Daemon(Header("toy", 2), tmp_path / "file" / "j.jsonl").open()
    assert "\n" not in str(info.value)


# -- 2: power-cut tails -----------------------------------------------------------
def _played(tmp_path, *tags):
    d = _daemon(tmp_path)
    d.open()
    for tag in tags:
        d.submit({"reader": "hand", "seat": 1, "tag": tag})
    d.close()
    return tmp_path / "j.jsonl"


def test_a_last_line_without_its_newline_is_dropped_not_glued(tmp_path, toy):
    journal = _played(tmp_path, "toy:stone-1", "toy:stone-2")
    journal.write_bytes(journal.read_bytes()[:-1])  # the newline of stone-2 never reached the disk
    d = _daemon(tmp_path)
    warnings = d.open()
    assert len(warnings) == 1 and "stone-2" in warnings[0] and "line 3" in warnings[0]
    d.submit({"reader": "hand", "seat": 1, "tag": "toy:stone-3"})
    d.close()
    lines = read_script(journal).lines
    assert [item["tag"] for _, item in lines] == ["toy:stone-1", "toy:stone-3"]
    assert replay(journal) == d.log


def test_a_header_without_its_newline_survives_two_restarts(tmp_path, toy):
    journal = tmp_path / "j.jsonl"
    journal.write_text(json.dumps(Header("toy", 2).to_json()))
    for tag in ("toy:stone-1", "toy:stone-2"):
        d = _daemon(tmp_path)
        d.open()
        d.submit({"reader": "field", "tag": tag})
        d.close()
    assert [item["tag"] for _, item in read_script(journal).lines] == ["toy:stone-1", "toy:stone-2"]


def test_a_tail_cut_inside_a_character_is_repaired_and_replayable(tmp_path, toy):
    journal = _played(tmp_path, "toy:stone-1")
    with open(journal, "ab") as f:
        f.write('{"t": 5, "console": "メモ'.encode()[:-1])  # the last character cut in half
    assert read_script(journal).lines  # replay reads it: the torn line is skipped with a warning
    d = _daemon(tmp_path)
    warnings = d.open()
    assert len(warnings) == 1 and "メ" in warnings[0]
    assert d.resumed == 1
    d.close()
    assert journal.read_bytes().endswith(b"\n")


# -- 3: one daemon per journal, nothing renamed over ----------------------------------
def test_fresh_on_a_served_table_moves_nothing(tmp_path, toy):
    first = _daemon(tmp_path)
    first.open()
    first.submit({"reader": "field", "tag": "toy:stone-1"})
    with pytest.raises(JournalBusy, match="already serving"):
        _daemon(tmp_path).open(fresh=True)
    # (j.jsonl.said: how far the first table's log was told, docs/durability.md)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.jsonl", "j.jsonl.said"]
    first.submit({"reader": "field", "tag": "toy:stone-2"})  # still writing into the one journal
    first.close()
    assert len(read_script(tmp_path / "j.jsonl").lines) == 2


def test_two_fresh_starts_in_one_second_keep_both_games(tmp_path, toy):
    kept = []
    for tag in ("toy:stone-1", "toy:stone-2", "toy:stone-3"):
        d = _daemon(tmp_path)
        d.open(fresh=True)
        kept.append(d.set_aside)
        d.submit({"reader": "field", "tag": tag})
        d.close()
    asides = [p for p in kept if p is not None]
    assert len(asides) == 2 and len(set(asides)) == 2
    assert sorted(read_script(p).lines[0][1]["tag"] for p in asides) == ["toy:stone-1", "toy:stone-2"]


def test_fresh_with_a_bad_session_moves_nothing(tmp_path, toy):
    from kikimimi.testkit.tables import sim_table_toml

    (tmp_path / "table.toml").write_text(sim_table_toml("toy", 2))
    _played(tmp_path, "toy:stone-1").rename(tmp_path / "journal.jsonl")
    before = sorted(p.name for p in tmp_path.iterdir())
    proc = subprocess.run(TOY_CLI + ["serve", "table.toml", "--fresh", "--session", "999",
                                     "--db", str(tmp_path / "club.sqlite"), "--voice", "text"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert [p for p in sorted(p.name for p in tmp_path.iterdir()) if p != "club.sqlite"] == before


def test_new_game_never_renames_over_a_kept_game(tmp_path, toy):
    (tmp_path / "j.game1.jsonl").write_text("an older game\n")
    d = _daemon(tmp_path)
    d.open()
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    d.submit({"console": "new"})
    d.close()
    assert (tmp_path / "j.game1.jsonl").read_text() == "an older game\n"
    assert read_script(tmp_path / "j.game2.jsonl").lines[0][1]["tag"] == "toy:stone-1"


# -- 4: seq across undo and resume; undo skips refused lines ------------------------------
def test_undo_keeps_seq_identical_to_the_replay(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    for line in ({"reader": "hand", "seat": 1, "tag": "toy:stone-1"},
                 {"reader": "hand", "seat": 1, "tag": "toy:stone-2"},
                 {"console": "undo"},
                 {"reader": "hand", "seat": 1, "tag": "toy:stone-3"},
                 {"reader": "field", "tag": "toy:stone-4"},
                 {"console": "undo"}, {"console": "undo"}):
        d.submit(line)
    seqs = [ev["seq"] for ev in d.log]
    assert seqs == list(range(1, len(seqs) + 1))
    d.close()
    assert replay(tmp_path / "j.jsonl") == d.log
    resumed = _daemon(tmp_path)
    resumed.open()
    assert resumed.log == d.log
    resumed.submit({"reader": "field", "tag": "toy:stone-5"})
    assert [ev["seq"] for ev in resumed.log] == list(range(1, len(resumed.log) + 1))
    resumed.close()
    assert replay(tmp_path / "j.jsonl") == resumed.log


def test_replay_cli_prints_the_live_log_across_undos(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    for line in ({"reader": "field", "tag": "toy:stone-1"}, {"console": "undo"},
                 {"reader": "field", "tag": "toy:stone-2"}):
        d.submit(line)
    d.close()
    out = subprocess.run(TOY_CLI + ["replay", str(tmp_path / "j.jsonl")], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert [json.loads(line) for line in out.splitlines()] == d.log


def test_undo_skips_refused_lines(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    d.submit({"reader": "field", "tag": "toy:stone-1"})  # line 2: accepted
    refused = d.submit({"reader": "field", "tag": "toy:stone-1"})  # line 3: played already
    assert any(ev["type"] == "error" for ev in refused)
    d.submit({"reader": "hand", "seat": 7, "tag": "toy:stone-2"})  # line 4: no such reader
    d.submit({"console": "bogus"})  # line 5: the game refuses it
    assert d.last_input()[0] == 2
    undo = next(ev for ev in d.submit({"console": "undo"}) if ev["type"] == "undo")
    assert undo["undone"] == 2
    assert d.snapshot()["game"]["played"] == []
    d.close()
    assert replay(tmp_path / "j.jsonl") == d.log


def test_last_input_does_not_walk_the_journal(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    for i in range(50):
        d.submit({"reader": "hand", "seat": 1 + i % 2, "tag": f"toy:stone-{1 + i % 6}"})

    class NoWalk(list):
        def __iter__(self):
            raise AssertionError("last_input walked every line")

    d.lines = NoWalk(d.lines)
    assert d.last_input()[0] == 51
    d.close()


# -- 6: private files ---------------------------------------------------------------------
def test_journal_is_0600_in_a_0700_folder(tmp_path, toy):
    d = Daemon(Header("toy", 2), tmp_path / "var" / "deep" / "j.jsonl")
    d.open()
    d.close()
    assert stat.S_IMODE((tmp_path / "var" / "deep" / "j.jsonl").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "var").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "var" / "deep").stat().st_mode) == 0o700


def test_an_existing_journal_is_made_private(tmp_path, toy):
    journal = _played(tmp_path, "toy:stone-1")
    os.chmod(journal, 0o644)
    d = _daemon(tmp_path)
    d.open()
    d.close()
    assert stat.S_IMODE(journal.stat().st_mode) == 0o600


def test_a_symlinked_journal_is_refused(tmp_path, toy):
    target = tmp_path / "elsewhere.txt"
    target.write_text("someone else's file\n")
    os.chmod(target, 0o644)
    (tmp_path / "j.jsonl").symlink_to(target)
    with pytest.raises(JournalError, match="symbolic link"):
        _daemon(tmp_path).open()
    assert target.read_text() == "someone else's file\n" and stat.S_IMODE(target.stat().st_mode) == 0o644


def test_the_secret_never_follows_a_planted_link(tmp_path, toy):
    from kikimimi.api import paths
    from kikimimi.api.server import start_api

    target = tmp_path / "victim.txt"
    target.write_text("keep me\n")
    os.chmod(target, 0o644)
    d = _daemon(tmp_path)
    d.open()
    paths.secret_file(d.journal_path).symlink_to(target)
    api = start_api(d)
    try:
        secret = paths.secret_file(d.journal_path)
        assert not secret.is_symlink() and stat.S_IMODE(secret.stat().st_mode) == 0o600
        assert target.read_text() == "keep me\n" and stat.S_IMODE(target.stat().st_mode) == 0o644
    finally:
        api.stop()
        d.close()


def test_serve_makes_the_events_file_private(tmp_path, toy):
    from kikimimi.testkit.tables import sim_table_toml

    (tmp_path / "table.toml").write_text(sim_table_toml("toy", 2, journal="var/j.jsonl"))
    proc = subprocess.run(TOY_CLI + ["serve", "table.toml", "--voice", "text", "--quiet",
                                     "--events", "out/events.jsonl"],
                          cwd=tmp_path, input="1 stone-1\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE((tmp_path / "out" / "events.jsonl").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "var" / "j.jsonl").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "var").stat().st_mode) == 0o700


def test_the_journal_lock_is_held_across_threads_of_one_table(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    errors = []

    def second():
        try:
            _daemon(tmp_path).open()
        except JournalBusy as exc:
            errors.append(str(exc))

    t = threading.Thread(target=second)
    t.start()
    t.join()
    d.close()
    assert errors and "already serving" in errors[0]


def test_new_game_on_a_full_disk_still_starts_the_next_game_cleanly(tmp_path, toy):
    d = _daemon(tmp_path)
    d.open()
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    disk = _Disk()
    d._journal.pwrite = disk.pwrite
    disk.full = True
    d.submit({"console": "new"})  # the header cannot be written yet
    assert d.snapshot()["game"]["played"] == []
    disk.full = False
    d.submit({"reader": "field", "tag": "toy:stone-2"})
    d.close()
    assert replay(tmp_path / "j.jsonl") == d.log
    assert read_script(tmp_path / "j.game1.jsonl").lines[0][1]["tag"] == "toy:stone-1"


def test_a_timer_fired_by_the_clock_before_an_undo_is_in_the_replay_too(tmp_path, toy):
    now = [0.0]
    d = Daemon(Header("toy", 2), tmp_path / "j.jsonl", clock=lambda: now[0])
    d.open()
    now[0] = 1.0
    d.submit({"reader": "field", "tag": "toy:stone-1"})  # the next turn's idle timer: t = 11
    now[0] = 12.0
    assert [ev["type"] for ev in d.tick()][:1] == ["turn"]  # the live clock fires it
    d.submit({"console": "undo"})
    now[0] = 13.0
    d.submit({"reader": "field", "tag": "toy:stone-2"})
    d.close()
    assert replay(tmp_path / "j.jsonl") == d.log


def test_the_game_says_where_the_table_stands_after_undo_reader_back_and_resume(tmp_path, toy):
    from kikimimi.contract.protocol import say
    from kikimimi.contract.registry import register

    class Situated(toy):
        name = "situated"

        def situation(self):
            return [say("table", "turn", seat=self.turn)]

    register(Situated)
    d = Daemon(Header("situated", 2), tmp_path / "j.jsonl")
    d.open()
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    undo = d.submit({"console": "undo"})
    assert [ev.get("key") for ev in undo][-1] == "turn" and undo[-1]["params"] == {"seat": 1}
    d.submit({"reader": "field", "lost": True})
    back = d.submit({"reader": "field", "back": True})
    assert back[-1]["key"] == "turn"
    d.close()
    assert replay(tmp_path / "j.jsonl") == d.log
    resumed = Daemon(Header("situated", 2), tmp_path / "j.jsonl")
    resumed.open()
    report = resumed.situation_report()
    assert [ev["key"] for ev in report] == ["turn"] and report[0]["seq"] is None and report[0]["text"]
    assert resumed.log == d.log  # spoken, never logged
    resumed.close()


def test_the_events_file_is_written_whole_lines_or_nothing(tmp_path, monkeypatch):
    from kikimimi.table.journal import EventsFile

    events = EventsFile(tmp_path / "out" / "events.jsonl")
    events.write_lines(['{"seq": 1}'])
    real_write = os.write

    def full(fd, data):
        real_write(fd, data[:3])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        events.write_lines(['{"seq": 2}', '{"seq": 3}'])
    monkeypatch.setattr(os, "write", real_write)
    events.write_lines(['{"seq": 2}'])
    events.close()
    assert (tmp_path / "out" / "events.jsonl").read_text() == '{"seq": 1}\n{"seq": 2}\n'
    assert stat.S_IMODE((tmp_path / "out" / "events.jsonl").stat().st_mode) == 0o600
