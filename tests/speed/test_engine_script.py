"""The log line and the script line, made faster, say exactly what they said:
`dumps` keeps one C encoder where `JSONEncoder.encode` built one per call,
`parse_line` keeps one decoder where `json.loads` built one per call,
`kikimimi replay` writes its lines in batches, and encodes a `say` from
the memo of its phrase's ending (`log_line`)."""
from __future__ import annotations

import argparse
import enum
import io
import json
import math
import threading

import pytest

from kikimimi.cli import play as play_cli
from kikimimi.table import engine
from kikimimi.table.engine import ScriptRun, log_line, public_view, run_script
from kikimimi.contract.registry import declaration, game_names
from kikimimi.contract.script import (
    _LINE_ENCODER, Garbled, Header, _bounded_int, _finite_float, _no_constant, clean_line, dumps, parse_line,
)
from kikimimi.design.sim import play


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


def test_dumps_refuses_a_circular_reference_and_carries_on():
    # No circular-reference markers (they were a tenth of a log line): a cycle,
    # only ever a bug, runs into the recursion limit instead, which every
    # caller that encodes untrusted objects catches along with ValueError.
    loop: dict = {"a": 1}
    loop["self"] = loop
    with pytest.raises(RecursionError):
        dumps(loop)
    assert dumps({"a": 1}) == '{"a": 1}'
    assert isinstance(clean_line(loop), Garbled)


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


def _say(**changes: object) -> dict:
    ev = {"seq": 3, "t": 2.5, "type": "say", "in": 4, "to": "seat:1", "key": "drawn", "text": "spade 5",
          "params": {"piece": "trident:spade-5"}}
    ev.update(changes)
    return ev


@pytest.mark.parametrize("ev", [
    _say(), _say(t=7), _say(**{"in": None}), _say(seq=10 ** 20), _say(text="配る \"\\\n\u2028"),
    _say(params={"n": True}), _say(params={"n": 1}), _say(params={"n": 1.0}), _say(params={"n": False}),
    _say(params={"n": 0}), _say(params={"n": 0.0}), _say(params={"n": -0.0}), _say(params={1: "x"}),
    _say(params={True: "x"}), _say(params={"a": [1, 2], "b": None}), _say(params={"s": Colour.RED}),
    _say(params={}), _say(t=True), _say(t="1.5"), _say(t=None), {k: v for k, v in _say().items() if k != "text"},
    {**{k: v for k, v in _say().items() if k != "text"}, "x": 1}, {k: v for k, v in _say().items() if k != "seq"},
    _say(to=1), _say(to=True), _say(to=Colour.RED), _say(key=Colour.RED), _say(key=1.0), _say(key=True), _say(detail="x"),
    {k: v for k, v in _say().items() if k != "params"}, {**{k: v for k, v in _say().items() if k != "params"}, "x": 1},
    {"seq": 1, "t": 0.0, "type": "play", "in": 2, "seat": 1, "tag": "trident:heart-3"},
    {"seq": 1, "t": 3, "type": "turn", "in": None, "seat": 1}, {"seq": 1, "t": 0.5, "type": "undo", "in": 9},
    {"seq": 1, "t": 0.0, "type": "play", "in": 2, "seat": True}, {"seq": 1, "t": 0.0, "type": "play", "in": 2, "seat": 1.0},
    {"seq": 1, "t": 0.0, "type": "play", "in": 2, 1: "x"}, {"seq": 1, "t": 0.0, "type": "play", "in": 2, True: "x"},
    {"seq": 1, "t": "0.0", "type": "play", "in": 2}, {"seq": True, "t": 0.0, "type": "play", "in": 2},
    {"seq": 1, "t": 0.0, "type": "play", "in": True}, {"seq": 1, "t": 0.0, "type": 1, "in": 2},
    {"seq": 1, "t": 0.0, "type": Colour.RED, "in": 2}, {"seq": 1, "t": 0.0, "type": 'q"\\é\n', "in": 2, "a": "b"},
    {"t": 0.0, "seq": 1, "type": "play", "in": 2}, {"seq": 1, "t": 0.0, "type": "play"}, {"type": "x"},
    {"seq": 1, "t": 0.0, "type": "play", "in": 2, "x": [1], "y": None, "z": {"a": 1}},
])
def test_log_line_is_dumps_byte_for_byte(ev):
    # twice each, in both orders against its neighbours: equal memo keys of
    # different types (True, 1, 1.0) must never share an ending
    for _ in range(2):
        assert log_line(ev) == dumps(ev)


@pytest.mark.parametrize("bad,error", [(_say(t=math.nan), ValueError), (_say(t=math.inf), ValueError),
                                       (_say(params={"x": {1, 2}}), TypeError), (_say(params=[1]), None),
                                       ({"seq": 1, "t": math.nan, "type": "x", "in": 1}, ValueError),
                                       ({"seq": 1, "t": 1.0, "type": "x", "in": 1, "b": b"x"}, TypeError)])
def test_log_line_refuses_what_dumps_refuses(bad, error):
    if error is None:
        assert log_line(bad) == dumps(bad)
        return
    with pytest.raises(error) as ours:
        log_line(bad)
    with pytest.raises(error) as theirs:
        dumps(bad)
    assert str(ours.value) == str(theirs.value)


def test_log_line_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(engine, "_say_tails", {})
    monkeypatch.setattr(engine, "SAY_TAILS_MAX", 4)
    for n in range(10):
        ev = _say(params={"n": n})
        assert log_line(ev) == dumps(ev)
        assert log_line(ev) == dumps(ev)
    assert len(engine._say_tails) == 4


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_log_line_of_whole_games(game, lang):
    """Every event of seeded bot games, undos and timers included, in both languages."""
    decl = declaration(game)
    for seed in range(3):
        script, _ = play(game, seed, decl.default_players, lang=lang)
        header = Header.parse(script[0])
        run = ScriptRun(header, tagmap=engine.tagmap_for(header))
        for number, item in enumerate(script[1:], start=2):
            run.feed(number, item)
            if number % 17 == 0:
                run.feed(number, {"t": item["t"], "console": "undo"})
        run.close()
        assert any(ev["type"] == "say" for ev in run.log)
        for ev in run.log:
            assert log_line(ev) == dumps(ev)
