"""The log line and the script line, made faster, say exactly what they said:
`dumps` keeps one C encoder where `JSONEncoder.encode` built one per call,
`parse_line` keeps one decoder where `json.loads` built one per call, and
`kikimimi replay` writes its lines in batches."""
from __future__ import annotations

import argparse
import enum
import io
import json
import threading

import pytest

from kikimimi.cli import play as play_cli
from kikimimi.engine import public_view, run_script
from kikimimi.script import (
    _LINE_ENCODER, Garbled, _bounded_int, _finite_float, _no_constant, dumps, parse_line,
)
from kikimimi.sim import play


class Colour(str, enum.Enum):
    RED = "red"


OBJECTS = [
    {"seq": 1, "t": 0.0, "type": "say", "in": 1, "to": "table", "key": "deal", "text": "配る", "params": {"count": 5}},
    {"a": [1, 2.5, -3e-7, True, False, None, {"b": ["x", "\u00e9\u3042\U0001f600", "\n\t\"\\"]}]},
    {"colour": Colour.RED, "big": 10 ** 30, "neg": -0.0, "e": 1e300, "empty": {}, "list": []},
    {"t": 1.1, 2: "int key", "nested": {"deep": [[[{"x": 1}]]]}},
]


def _reference_line(text: str) -> object:
    """parse_line as it was, with json.loads."""
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return ("not JSON", exc.msg)
    except (ValueError, RecursionError) as exc:
        return ("not usable", str(exc))


def test_dumps_is_the_line_encoder_byte_for_byte():
    for obj in OBJECTS:
        assert dumps(obj) == _LINE_ENCODER.encode(obj)


@pytest.mark.parametrize("bad,error", [({"t": float("nan")}, ValueError), ({"t": float("inf")}, ValueError),
                                       ({"s": {1, 2}}, TypeError), ({"b": b"x"}, TypeError)])
def test_dumps_refuses_what_the_line_encoder_refuses_and_recovers(bad, error):
    with pytest.raises(error) as ours:
        dumps(bad)
    with pytest.raises(error) as theirs:
        _LINE_ENCODER.encode(bad)
    assert str(ours.value) == str(theirs.value)
    # a failed call must leave no stale circular-reference marker behind: new
    # objects (likely at the addresses just freed) still encode
    for _ in range(200):
        fresh = {"x": [{"y": 1}], "z": {"w": [2]}}
        assert dumps(fresh) == _LINE_ENCODER.encode(fresh)


def test_dumps_still_finds_a_circular_reference():
    loop: dict = {"a": 1}
    loop["self"] = loop
    with pytest.raises(ValueError, match="Circular reference"):
        dumps(loop)
    assert dumps({"a": 1}) == '{"a": 1}'


def test_dumps_from_many_threads_at_once():
    wrong: list[str] = []

    def work(k: int) -> None:
        for i in range(2000):
            obj = {"seq": i, "thread": k, "items": [{"n": j} for j in range(i % 5)]}
            if dumps(obj) != _LINE_ENCODER.encode(obj):
                wrong.append(f"{k}:{i}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert wrong == []


@pytest.mark.parametrize("text", [
    '{"t": 12.5, "reader": "hand", "seat": 2, "tag": "trident:heart-3"}',
    '{"t": 1, "console": "hint 2"}', '\ufeff{"t": 1}', '{"t": 1e999}', '{"t": NaN}', '{"t": -Infinity}',
    '{"t": ' + "9" * 41 + "}", '{"t": ' + "9" * 40 + "}", '{"t": 1.' + "5" * 60 + "}", '{"t": 1,}', "",
    "[1, 2]", '{"a": "\\u00e9"}', '{"a": 1} x', "  {\"a\": 1}  ", '{"a": 1, "a": 2}', " ", "\t{}\n", "{} ",
    '"{"', "{", '{"a": [1, {"b": 2}], "c": -0.5e-3}', "[" * 33 + "]" * 33, '{"a": "' + "[" * 40 + '"}',
])
def test_parse_line_decodes_as_json_loads_did(text):
    got = parse_line(text)
    want = _reference_line(text)
    if isinstance(got, Garbled):
        assert isinstance(want, tuple) or not isinstance(want, dict)
        if isinstance(want, tuple):
            kind, msg = want
            assert got.problem == (f"not JSON ({msg})" if kind == "not JSON" else f"not usable JSON ({msg})")
    else:
        assert got == want and type(got) is dict


def _replay_output(path: str, public: bool = False) -> str:
    buf = io.StringIO()
    saved = play_cli.sys.stdout
    play_cli.sys.stdout = buf
    try:
        play_cli.cmd_replay(argparse.Namespace(script=path, public=public, tagmap=None))
    finally:
        play_cli.sys.stdout = saved
    return buf.getvalue()


def test_replay_writes_every_line_in_order_across_batches(tmp_path, monkeypatch):
    monkeypatch.setattr(play_cli, "WRITE_BATCH", 16)
    script, _ = play("trident", 7, 4)
    script.insert(5, {"t": script[4]["t"], "console": "undo"})
    path = tmp_path / "game.jsonl"
    path.write_text("".join(dumps(l) + "\n" for l in script) + "not json\n{}\n", encoding="utf-8")
    log = run_script(path.read_text(encoding="utf-8").splitlines())
    assert len(log) > 2 * play_cli.WRITE_BATCH  # several batches
    assert _replay_output(str(path)) == "".join(dumps(ev) + "\n" for ev in log)
    public = public_view(log)
    assert 0 < len(public) < len(log)
    assert _replay_output(str(path), public=True) == "".join(dumps(ev) + "\n" for ev in public)


def test_replay_stopped_by_a_failure_has_written_every_line_before_it(tmp_path, monkeypatch):
    script, _ = play("trident", 3, 3)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(dumps(l) + "\n" for l in script), encoding="utf-8")
    whole = _replay_output(str(path)).splitlines()
    real_feed = play_cli.ScriptRun.feed

    def failing_feed(self, number, item):
        if number == 40:
            raise RuntimeError("disk on fire")
        return real_feed(self, number, item)

    monkeypatch.setattr(play_cli.ScriptRun, "feed", failing_feed)
    buf = io.StringIO()
    monkeypatch.setattr(play_cli.sys, "stdout", buf)
    with pytest.raises(RuntimeError):
        play_cli.cmd_replay(argparse.Namespace(script=str(path), public=False, tagmap=None))
    written = buf.getvalue().splitlines()
    assert written and written == [l for l in whole if json.loads(l)["in"] is None or json.loads(l)["in"] < 40]
