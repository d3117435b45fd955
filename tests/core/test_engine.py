"""The engine's contract: validation, numbering, `in`, timers, secrets, replay."""
from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from kikimimi.cli import main
from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.script import ScriptError
from kikimimi.design.sim import play

HEADER = {"game": "toy", "players": 2}


def types(log):
    return [ev["type"] for ev in log]


def test_events_are_numbered_and_point_at_their_line(toy):
    log = run_script([HEADER, {"t": 1, "reader": "field", "tag": "toy:stone-1"}])
    assert [ev["seq"] for ev in log] == list(range(1, len(log) + 1))
    assert {ev["in"] for ev in log if ev["type"] == "turn" and ev["seat"] == 1} == {1}
    play_ev = next(ev for ev in log if ev["type"] == "play")
    assert (play_ev["in"], play_ev["t"], play_ev["seat"]) == (2, 1, 1)


def test_say_is_resolved_to_text_in_the_table_language(toy):
    log = run_script([{**HEADER, "lang": "ja"}, {"t": 1, "reader": "hand", "seat": 1, "tag": "cmd:ok"}])
    # toy phrases have no catalogue: the key and spoken parameter stand in
    said = [ev for ev in log if ev["type"] == "say" and ev["in"] == 2]
    assert said[0]["to"] == "seat:1" and said[0]["text"] == "stone cmd:ok"


def test_bad_lines_become_errors_and_the_rest_plays(toy):
    log = run_script([
        HEADER,
        "this is not json",
        {"t": 1, "reader": "field", "tag": "toy:marble-9"},
        {"t": 2, "reader": "hand", "seat": 7, "tag": "toy:stone-1"},
        {"t": 3, "reader": "elbow", "tag": "toy:stone-1"},
        {"t": 2.5, "reader": "field", "tag": "toy:stone-1"},
        {"t": 4, "reader": "hand", "seat": 1, "uid": "04aabbccddeeff"},
        {"t": 5, "reader": "field", "tag": "toy:stone-2"},
    ])
    errors = {ev["in"]: ev["message"] for ev in log if ev["type"] == "error"}
    assert set(errors) == {2, 3, 4, 5, 6, 7}
    assert "not JSON" in errors[2]
    assert "unknown tag toy:marble-9" in errors[3]
    assert "no hand reader for seat 7" in errors[4]
    assert "reader" in errors[5]
    assert "back in time" in errors[6]
    assert "unknown tag uid 04aabbccddeeff" in errors[7]
    # the unknown piece is answered where it was scanned: field -> speaker
    assert any(ev["type"] == "say" and ev["in"] == 3 and ev["to"] == "table" for ev in log)
    assert any(ev["type"] == "say" and ev["in"] == 4 for ev in log) is False  # seat 7 has no ear
    assert [ev["tag"] for ev in log if ev["type"] == "play"] == ["toy:stone-2"]


def test_uid_lines_resolve_through_the_tag_map(toy, tmp_path):
    tagmap = tmp_path / "toy.toml"
    tagmap.write_text('[tags]\n"04:AA:BB:CC:DD:EE:FF" = "toy:stone-3"\n')
    log = run_script([{**HEADER, "tagmap": str(tagmap)},
                      {"t": 1, "reader": "field", "uid": "04aabbccddeeff"}])
    assert [ev["tag"] for ev in log if ev["type"] == "play"] == ["toy:stone-3"]


def test_timers_fire_on_the_script_clock_with_no_input(toy):
    log = run_script([HEADER, {"t": 25, "reader": "field", "tag": "toy:stone-1"}])
    turns = [(ev["seat"], ev["t"], ev["in"]) for ev in log if ev["type"] == "turn"]
    # idle at 10 (seat 2), idle at 20 (seat 1), then the play at 25 passes to seat 2
    assert turns == [(1, 0.0, 1), (2, 10.0, None), (1, 20.0, None), (2, 25, 2)]


def test_reader_lost_and_back_are_announced_not_played(toy):
    log = run_script([HEADER, {"t": 1, "reader": "hand", "seat": 2, "lost": True, "detail": "EIO"},
                      {"t": 2, "reader": "hand", "seat": 2, "back": True}])
    states = [(ev["state"], ev.get("detail")) for ev in log if ev["type"] == "reader"]
    assert states == [("lost", "EIO"), ("back", None)]
    assert [ev["key"] for ev in log if ev["type"] == "say" and ev["in"] in (2, 3)] == ["reader-lost", "reader-back"]


def test_public_view_drops_every_secret(toy):
    log = run_script([HEADER, {"t": 1, "reader": "hand", "seat": 1, "tag": "toy:stone-4"}])
    assert any(ev.get("to") == "seat:1" for ev in log)
    assert all(ev.get("to", "table") == "table" and "private" not in ev for ev in public_view(log))


def test_inputs_after_the_end_are_refused(toy):
    lines = [HEADER] + [{"t": i, "reader": "field", "tag": f"toy:stone-{i}"} for i in range(1, 7)]
    log = run_script(lines)
    assert types(log).count("game-over") == 1
    assert [ev["message"] for ev in log if ev["type"] == "error"] == ["the game is over"]


def test_unknown_game_and_bad_header_are_one_line_errors(toy):
    with pytest.raises(ScriptError, match="unknown game 'chess'"):
        run_script([{"game": "chess", "players": 2}])
    with pytest.raises(ScriptError, match="for 2-4 players, not 9"):
        run_script([{"game": "toy", "players": 9}])


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_replay_skips_a_truncated_last_line_with_a_warning(toy, tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps(HEADER) + "\n"
                      + json.dumps({"t": 1, "reader": "field", "tag": "toy:stone-1"}) + "\n"
                      + '{"t": 2, "reader": "fie')
    code, out, err = _cli("replay", str(script))
    assert code == 0
    assert "line 3: truncated last line skipped" in err
    log = [json.loads(line) for line in out.splitlines()]
    assert not [ev for ev in log if ev["type"] == "error"]
    assert [ev["tag"] for ev in log if ev["type"] == "play"] == ["toy:stone-1"]


def test_replay_of_an_unreadable_script_fails_with_one_line(toy, tmp_path):
    script = tmp_path / "s.jsonl"
    script.write_text("garbage\n")
    code, out, err = _cli("replay", str(script))
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and "header" in err
    code, _, err = _cli("replay", str(tmp_path / "missing.jsonl"))
    assert code != 0 and "cannot read" in err


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sim_record_then_replay_prints_the_identical_log(toy, tmp_path, seed):
    record = tmp_path / "game.jsonl"
    code, sim_out, _ = _cli("sim", "toy", "--seed", str(seed), "--record", str(record))
    assert code == 0
    code, replay_out, _ = _cli("replay", str(record))
    assert code == 0
    assert replay_out == sim_out
    assert '"game-over"' in sim_out


def test_sim_play_returns_the_script_it_played(toy):
    script, log = play("toy", seed=5, players=3)
    assert script[0]["game"] == "toy" and script[0]["players"] == 3
    assert run_script(script) == log
