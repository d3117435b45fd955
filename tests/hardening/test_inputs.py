"""Configs, hostile scripts, typed bytes, discarded games."""
from __future__ import annotations

import io
import json
import os
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import ScriptRun, run_script
from kikimimi.contract.registry import register
from kikimimi.contract.script import MAX_LINE_BYTES, Garbled, Header, ScriptError, parse_line, read_script
from kikimimi.table.sim_readers import typed_lines
from kikimimi.table.config import ConfigError, load_table_config
from kikimimi.testkit.tables import sim_table_toml

from hardening_helpers import TOY_CLI, strict_json


# -- 8: the table config --------------------------------------------------------------
def _config(tmp_path, text):
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("change, key, problem", [
    (("[table]", "[tabel]"), "[tabel]", "unknown section"),
    (('journal = "journal.jsonl"', 'jurnal = "x.jsonl"'), "table.jurnal", "unknown key"),
    (("players = 2", 'players = "2"'), "table.players", "whole number"),
    (("players = 2", "players = 2\noptions = 3"), "table.options", "table of game options"),
    (("players = 2", "players = 2\noptions = { colour = 1 }"), "table.options", "unknown option 'colour'"),
    (('driver = "sim"', 'driver = "pn532"\npath = "/dev/x"'), "readers.field.driver",
     "a table is all simulated or all hardware"),
    (("players = 2", "players = 2\n[records]\ndb = 5"), "records.db", "file name"),
    (('journal = "journal.jsonl"', 'journal = "afile/j.jsonl"'), "table.journal", "not a folder"),
    # a negative debounce was taken (a simulated reader's section is checked too)
    (('driver = "sim"', 'driver = "sim"\ndebounce_ms = -1'), "readers.", "0-10000, not -1"),
])
def test_a_bad_config_is_one_line_and_creates_nothing(tmp_path, toy, change, key, problem):
    (tmp_path / "afile").write_text("")
    path = _config(tmp_path, sim_table_toml("toy", 2).replace(*change, 1))
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(ConfigError) as info:
        load_table_config(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}: {key}") and problem in message
    proc = subprocess.run(TOY_CLI + ["serve", str(path), "--voice", "text"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no journal, socket or secret


def test_a_tag_map_with_one_uid_written_twice_in_two_cases_is_refused_in_one_line(tmp_path):
    """The uids "04A1…" and "04a1…" are one tag; the map took both and the last silently won."""
    from kikimimi.contract.tagmap import TagMapError, load_tagmap

    path = tmp_path / "map.toml"
    path.write_text('[tags]\n04A1B2C3D4E5F6 = "trident:heart-3"\n"04:a1:b2:c3:d4:e5:f6" = "trident:clover-8"\n')
    with pytest.raises(TagMapError) as info:
        load_tagmap(path)
    line = str(info.value)
    assert "\n" not in line and "the same tag as tags.04A1B2C3D4E5F6" in line and "04:a1:b2" in line


def test_a_toml_syntax_error_names_line_and_column(tmp_path, toy):
    path = _config(tmp_path, sim_table_toml("toy", 2).replace("players = 2", "players = = 2"))
    with pytest.raises(ConfigError, match=r"line 3, column \d+"):
        load_table_config(path)


def test_a_tag_map_syntax_error_names_line_and_column_too(tmp_path):
    from kikimimi.contract.tagmap import TagMapError, load_tagmap

    path = tmp_path / "tags.toml"
    path.write_text('[tags]\n04a1b2c3d4e5f6 = "trident:heart-3"\n04a1b2c3d4e5f7 = trident:heart-4\n')
    with pytest.raises(TagMapError, match=r"not valid TOML: line 3, column \d+") as info:
        load_tagmap(path)
    assert str(info.value).startswith(f"{path}: ") and "\n" not in str(info.value)


@pytest.mark.parametrize("hostile", ["x = " + "[" * 100000, "x = " + "9" * 5000])
def test_a_hostile_config_or_tag_map_is_one_line(tmp_path, toy, hostile):
    from kikimimi.contract.tagmap import TagMapError, load_tagmap

    path = _config(tmp_path, hostile)
    with pytest.raises(ConfigError) as info:
        load_table_config(path)
    assert "\n" not in str(info.value)
    with pytest.raises(TagMapError):
        load_tagmap(path)


def test_trident_refuses_a_bogus_scoring_at_check_time(tmp_path):
    path = _config(tmp_path, sim_table_toml("trident", 3).replace(
        "players = 3", 'players = 3\noptions = { scoring = "bogus" }'))
    with pytest.raises(ConfigError, match="table.options: .*bogus"):
        load_table_config(path)


# -- 9: hostile scripts ------------------------------------------------------------------
HOSTILE = [
    '{"t": 1, "reader": "field", "tag": "toy:stone-1", "n": ' + "9" * 5000 + "}",
    "[" * 5000 + "]" * 5000,
    '{"t": 2, ' + '"a": [' * 5000 + "]" * 5000 + "}",
    '{"t": 3, "console": "\\ud800"}',
    '{"t": NaN, "console": "x"}',
    '{"t": Infinity, "console": "x"}',
    '{"t": 1e999, "console": "x"}',
    '{"t": -Infinity, "console": "x"}',
    '{"t": 4, "console": "' + "x" * (MAX_LINE_BYTES + 10) + '"}',
]


@pytest.mark.parametrize("line", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_line_is_one_error_and_the_log_stays_standard_json(toy, line):
    assert isinstance(parse_line(line), Garbled)
    log = run_script([json.dumps({"game": "toy", "players": 2}), line,
                      json.dumps({"t": 5, "reader": "field", "tag": "toy:stone-2"})])
    errors = [ev for ev in log if ev["type"] == "error"]
    assert len(errors) == 1 and errors[0]["in"] == 2
    assert any(ev["type"] == "play" for ev in log)  # the rest still plays
    for ev in log:
        text = json.dumps(ev, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
        assert strict_json(text) == ev


def test_replay_of_hostile_scripts_prints_standard_json(tmp_path, toy):
    script = tmp_path / "bad.jsonl"
    script.write_text("\n".join([json.dumps({"game": "toy", "players": 2})] + HOSTILE) + "\n",
                      encoding="utf-8", errors="surrogatepass")
    proc = subprocess.run(TOY_CLI + ["replay", str(script)], capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode("utf-8").splitlines()
    assert len(lines) == 1 + 2 + len(HOSTILE)  # opening (2 events) + one error per line
    for text in lines:
        strict_json(text)


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "big"])
def test_a_header_cannot_make_replay_read_a_device(tmp_path, toy, target):
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
        target = str(tmp_path / "fifo")
    elif target == "big":
        (tmp_path / "big").write_bytes(b"#" * (5 * 1024 * 1024))
        target = str(tmp_path / "big")
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps({"game": "toy", "players": 2, "tagmap": target}) + "\n")
    started = time.monotonic()
    proc = subprocess.run(TOY_CLI + ["replay", str(script)], capture_output=True, text=True, timeout=30)
    assert time.monotonic() - started < 20
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("header", [
    {"game": "trident", "players": 10 ** 30},
    {"game": "trident", "players": 3, "options": {"scoring": ["x"]}},
    {"game": "trident", "players": 3, "options": {"scoring": "bogus"}},
    {"game": "onisagashi", "players": 5, "options": {"nope": 1}},
    {"game": "trident", "players": 3, "lang": "xx"},
    {"game": "../../etc/passwd", "players": 3},
    {"game": "trident", "players": 3, "tagmap": 7},
    {"game": "trident", "players": 3, "tagmap": "/etc"},
])
def test_a_hostile_header_is_one_line(tmp_path, header):
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps(header) + "\n")
    proc = subprocess.run(TOY_CLI + ["replay", str(script)], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr
    if proc.returncode != 0:
        assert len(proc.stderr.strip().splitlines()) == 1
    for line in proc.stdout.splitlines():
        strict_json(line)


def test_a_script_on_a_device_is_refused(toy):
    with pytest.raises(ValueError, match="not a regular file"):
        read_script("/dev/zero")


def test_a_daemon_refuses_a_line_no_journal_could_hold(tmp_path, toy):
    d = Daemon(Header("toy", 2), tmp_path / "j.jsonl")
    d.open()
    with pytest.raises(ValueError, match="lone surrogate"):
        d.submit({"console": "\ud800"})
    with pytest.raises(ValueError):
        d.submit({"console": "x", "n": float("nan")})
    d.submit({"reader": "field", "tag": "toy:stone-1"})
    d.close()
    assert len(read_script(tmp_path / "j.jsonl").lines) == 1


# -- 10: bytes typed at the simulated readers ------------------------------------------
def test_one_invalid_byte_typed_costs_one_line(toy):
    submitted, complaints = [], []
    stream = io.BytesIO(b"1 stone-1\n\xff\xfe 2\n\xc2\xb2 stone-2\n" + b"x" * 10000 + b"\nf stone-3\n")
    typed_lines(stream, {"toy:stone-1", "toy:stone-2", "toy:stone-3"}, submitted.append,
                complaints.append, threading.Event())
    assert [line.get("tag") for line in submitted] == ["toy:stone-1", "toy:stone-3"]
    assert len(complaints) == 3 and "UTF-8" in complaints[0]


def test_serve_survives_an_invalid_byte_at_the_keyboard(tmp_path, toy):
    (tmp_path / "table.toml").write_text(sim_table_toml("toy", 2))
    proc = subprocess.run(TOY_CLI + ["serve", "table.toml", "--voice", "text", "--quiet"], cwd=tmp_path,
                          input=b"1 stone-1\n\xff\n2 stone-2\n", capture_output=True, timeout=60)
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 0 and "Traceback" not in err and "UTF-8" in err
    assert [item["tag"] for _, item in read_script(tmp_path / "journal.jsonl").lines] == \
        ["toy:stone-1", "toy:stone-2"]


def test_a_failing_input_thread_is_one_line_and_a_failed_exit(capsys):
    from kikimimi.cli.serve import _then_stop

    def broken():
        raise RuntimeError("the keyboard fell off")

    stop, failed = threading.Event(), []
    _then_stop(stop, failed, broken)
    assert stop.is_set() and failed
    assert "the keyboard fell off" in capsys.readouterr().err


# -- 12: a discarded game is released ---------------------------------------------------
_ALIVE: list[Any] = []


def _leaky(toy: type) -> type:
    class LeakyToy(toy):
        """Like a game attached to a class-wide state machine: registered until closed."""
        name = "leaky"

        def __init__(self, players: int, options: Mapping[str, Any] | None = None):
            super().__init__(players, options)
            _ALIVE.append(self)

        def close(self) -> None:
            _ALIVE.remove(self)

    register(LeakyToy)
    return LeakyToy


def test_undo_resume_and_new_release_the_discarded_games(tmp_path, toy):
    _leaky(toy)
    _ALIVE.clear()
    d = Daemon(Header("leaky", 2), tmp_path / "j.jsonl")
    d.open()
    for _ in range(200):
        d.submit({"reader": "hand", "seat": 1, "tag": "toy:stone-1"})
        d.submit({"console": "undo"})
    assert len(_ALIVE) == 1
    d.submit({"console": "new"})
    assert len(_ALIVE) == 1
    d.close()
    assert _ALIVE == []
    resumed = Daemon(Header("leaky", 2), tmp_path / "j.jsonl")
    resumed.open()
    assert len(_ALIVE) == 1
    resumed.close()
    assert _ALIVE == []
    run_script([{"game": "leaky", "players": 2}, {"t": 1, "console": "undo"}])
    assert _ALIVE == []


def test_a_replay_run_releases_its_games(toy):
    _leaky(toy)
    _ALIVE.clear()
    run = ScriptRun(Header("leaky", 2))
    for n in range(2, 40, 2):
        run.feed(n, {"t": n, "reader": "field", "tag": "toy:stone-1"})
        run.feed(n + 1, {"t": n, "console": "undo"})
    assert len(_ALIVE) == 1
    run.close()
    assert _ALIVE == []


def test_a_bot_game_releases_its_game(toy):
    from kikimimi.design.sim import play

    _leaky(toy)
    _ALIVE.clear()
    play("leaky", 3, 2)
    assert _ALIVE == []


def _journal_lines(path: Path) -> int:
    """Script lines in a journal serve may be writing: created empty, then its header."""
    try:
        return len(read_script(path).lines)
    except (FileNotFoundError, ScriptError):
        return 0


def test_serve_stopped_while_the_keyboard_waits_exits_cleanly(tmp_path, toy):
    import signal

    (tmp_path / "table.toml").write_text(sim_table_toml("toy", 2))
    proc = subprocess.Popen(TOY_CLI + ["serve", "table.toml", "--voice", "text", "--quiet"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"1 stone-1\n")
        proc.stdin.flush()
        for _ in range(400):
            if _journal_lines(tmp_path / "journal.jsonl") == 1:
                break
            time.sleep(0.025)
        proc.send_signal(signal.SIGTERM)  # the keyboard thread is blocked reading: stdin stays open
        assert proc.wait(timeout=30) == 0
        assert b"Fatal Python error" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("change", [('journal = "journal.jsonl"', 'journal = "a\\u0000b/j.jsonl"'),
                                    ("players = 2", 'players = 2\ntagmap = "a\\u0000b"')])
def test_a_nul_byte_in_a_config_path_is_one_line(tmp_path, toy, change):
    path = _config(tmp_path, sim_table_toml("toy", 2).replace(*change, 1))
    proc = subprocess.run(TOY_CLI + ["serve", str(path), "--voice", "text"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "NUL byte" in proc.stderr


def test_a_nul_byte_in_a_scripts_tag_map_is_one_line(tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text('{"game": "trident", "players": 3, "tagmap": "a\\u0000b"}\n')
    proc = subprocess.run(TOY_CLI + ["replay", str(script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr and "NUL byte" in proc.stderr
