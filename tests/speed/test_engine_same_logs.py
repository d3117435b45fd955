"""Speed is bought by doing less, never by saying something else.

Seeded bot games of every game with a simulator, replayed through the
engine as it is and through a reference table: the engine's code from before
the speed work (kept below, verbatim but for names), the phrasebook without
its memo, the Trident's phases through `transitions`' own triggers.  Their
logs must be equal, event for event and byte for byte."""
from __future__ import annotations

import dataclasses
import inspect
import math
import sys
import traceback
from collections.abc import Mapping
from typing import Any

import pytest

from kikimimi.contract import heard
from kikimimi.table import engine
from kikimimi.table.engine import LogEvent, ScriptRun, Table, tagmap_for
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import INPUT_FIELDS, Event, Input, as_event, in_log_order, new_event, reader_input
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Garbled, Header, dumps
from kikimimi.design.sim import play
from kikimimi.contract.tagmap import normalise_uid
from kikimimi.contract.phases import Phases

READER_STATES = ("lost", "back")
RUNTIME_EVENTS = ("choice", "choice-cancel", "reveal")


class ReferenceTable(Table):
    """`Table` as it was before the speed work: every input scans the timers,
    builds its reader state with a generator, runs the game through a lambda,
    and logs each event field by field."""

    def feed(self, line: int, item: Mapping[str, Any] | Garbled) -> list[LogEvent]:
        self.inputs += 1
        if isinstance(item, Garbled):
            return [self._error(line, self.t, f"line {line}: {item.problem}")]
        t = item.get("t")
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            return [self._error(line, self.t, f'line {line}: missing or non-numeric "t"')]
        if t < self.t:
            return [self._error(line, self.t, f"line {line}: t={t} goes back in time (last {self.t})")]
        out = self.advance(t)
        parsed = self._to_input(line, t, item)
        if isinstance(parsed, list):
            return out + parsed
        if self.game.over:
            return out + [self._error(line, t, "the game is over"),
                          self._say(self._answer_to(parsed), "game-is-over", {}, t, line)]
        own = self.runtime_scan(parsed, t, line)  # HINT and choices: the runtime's, not speed work
        if own is not None:
            return out + own
        return out + self._run(lambda: self.game.handle(parsed), t, line)

    def advance(self, t: float) -> list[LogEvent]:
        out: list[LogEvent] = []
        while self.timers:
            name, at = min(self.timers.items(), key=lambda kv: (kv[1], kv[0]))
            if at > t:
                break
            del self.timers[name]
            self.t = max(self.t, at)
            if name.startswith(engine._RUNTIME_TIMERS):  # a prompt heard, a window's time: the runtime's
                out += self._runtime_timer(name, at, self.t)
                continue
            # On purpose (docs/durability.md): logged at the table's time, not `at`, so `t` never goes
            # backwards in a log (a timer set in the past, or at NaN, by a game's bug).
            out += self._run(lambda: self.game.handle(Input(t=at, timer=name)), self.t, None)
        self.t = max(self.t, t)
        return out

    def _to_input(self, line: int, t: float, item: Mapping[str, Any]) -> Input | list[LogEvent]:
        if "console" in item:
            return super()._to_input(line, t, item)
        reader = item.get("reader")
        if reader not in ("hand", "field"):
            return [self._error(line, t, f'line {line}: needs "reader" ("hand" or "field") or "console"')]
        seat = item.get("seat")
        if reader == "hand":
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.hand_seats:
                return [self._error(line, t, f"line {line}: no hand reader for seat {seat!r}")]
        else:
            if not self.has_field:
                return [self._error(line, t, f"line {line}: this table has no field reader")]
            seat = None
        state = next((s for s in READER_STATES if item.get(s) is True), None)
        if state:
            return self._reader_state(line, t, reader, seat, state, str(item.get("detail", "")),
                                      item.get("unopened") is True)
        tag = item.get("tag")
        if tag is None and "uid" in item:
            uid = normalise_uid(str(item["uid"]))
            tag = self.tagmap.get(uid)
            if tag is None:
                return self._refuse_tag(line, t, reader, seat, f"unknown tag uid {uid}")
        if not isinstance(tag, str):
            return [self._error(line, t, f'line {line}: needs "tag" or "uid"')]
        if tag not in self.known_tags:
            return self._refuse_tag(line, t, reader, seat, f"unknown tag {tag}")
        return Input(t=t, line=line, reader=reader, seat=seat, tag=tag,
                     removed=bool(item.get("removed", False)))

    def _run(self, step: Any, t: float, line: int | None) -> list[LogEvent]:
        try:
            events = step()
        except Exception as exc:
            traceback.print_exc(file=sys.stderr)
            return [self._error(line, t, f"internal error: {type(exc).__name__}: {exc}")]
        out: list[LogEvent] = []
        self._batch = batch = []
        try:
            for ev in map(as_event, events):  # a question or a reveal is the runtime's (kikimimi.contract.choices), no speed work
                out += Table._log_events(self, (ev,), t, line) if ev.type in RUNTIME_EVENTS else [self._log(ev, t, line)]
        finally:
            self._batch = None
        if self._hearing.on:  # time after heard is the runtime's: the batch's phrases queued once, as there
            Table._heard_batch(self, batch, t)
        return out

    _batch: list[LogEvent] | None = None

    def _heard_batch(self, logged: list[LogEvent], t: float) -> None:
        if self._batch is not None:  # a runtime event's own phrases, inside a game's batch: queued with it
            self._batch.extend(logged)
        else:
            Table._heard_batch(self, logged, t)

    def _log(self, ev: Event, t: float, line: int | None) -> LogEvent:
        if ev.type == "timer-set" and "after_heard" in ev.fields:  # the runtime's (kikimimi.contract.heard)
            name = str(ev.fields["name"])
            self.timers.pop(name, None)
            self.timers.pop(heard.timer_of(name), None)
            self.heard_wait[name] = float(ev.fields["after_heard"])
            self._hearing.new = self._hearing.on = True
        elif ev.type == "timer-set":
            self.timers[str(ev.fields["name"])] = float(ev.fields["at"])
        elif ev.type == "timer-cancel":
            self.timers.pop(str(ev.fields["name"]), None)
            self._forget_heard(str(ev.fields["name"]))
        self.seq += 1
        out: LogEvent = {"seq": self.seq, "t": t, "type": ev.type, "in": line}
        if ev.type == "say":
            params = ev.fields.get("params") or {}
            out["to"] = ev.fields["to"]
            out["key"] = ev.fields["key"]
            out["text"] = self.phrasebook.render(ev.fields["key"], params)
            if params:
                out["params"] = params
        else:
            out.update(ev.fields)
        if self._batch is not None:
            self._batch.append(out)
        elif self._hearing.on:
            Table._heard_batch(self, [out], t)
        return out


def _machine_fire(phases: Phases, play: Any, trigger: str) -> bool:
    """A phase change through `transitions`' own trigger, never the helper's table."""
    return bool(phases.machine.events[trigger].trigger(play))


def _log_of(script: list[dict[str, Any]]) -> list[LogEvent]:
    """The event log of a script, through `ScriptRun` (undo and all), as `kikimimi replay` runs it."""
    header = Header.parse(script[0])
    run = ScriptRun(header, tagmap=tagmap_for(header))
    for number, item in enumerate(script[1:], start=2):
        run.feed(number, item)
    run.close()
    return run.log


def _replay(script: list[dict[str, Any]]) -> list[str]:
    return [dumps(ev) for ev in _log_of(script)]


def _scripts() -> list[list[dict[str, Any]]]:
    scripts = [play("trident", seed, 2 + seed % 3)[0] for seed in range(300)]
    scripts += [play("trident", seed, 3, {"scoring": "competition"}, lang="ja")[0] for seed in range(20)]
    for name in ("onisagashi", "witch", "mafia42", "intrigue"):
        decl = declaration(name)
        players = decl.default_players
        scripts += [play(name, seed, players)[0] for seed in range(6)]
    return scripts


@pytest.fixture(scope="module")
def scripts() -> list[list[dict[str, Any]]]:
    return _scripts()


def test_seeded_games_log_the_same_through_the_reference(scripts, monkeypatch):
    fast = [_replay(s) for s in scripts]
    monkeypatch.setattr(engine, "Table", ReferenceTable)
    monkeypatch.setattr(Phrasebook, "render", Phrasebook.render_uncached)
    monkeypatch.setattr(Phases, "fire", _machine_fire)
    slow = [_replay(s) for s in scripts]
    assert sum(map(len, slow)) > 30_000  # the games were really played
    assert len({line for log in slow for line in log if '"timer-set"' in line}) > 0  # timers too
    for script, a, b in zip(scripts, fast, slow):
        assert a == b, script[0]


def test_replay_through_the_reference_really_takes_the_slow_paths(scripts, monkeypatch):
    calls = {"table": 0, "render": 0}
    real_render = Phrasebook.render_uncached

    class Counting(ReferenceTable):
        def _log(self, ev: Event, t: float, line: int | None) -> LogEvent:
            calls["table"] += 1
            return super()._log(ev, t, line)

    def counting_render(self: Phrasebook, key: str, params: Mapping[str, Any] | None = None) -> str:
        calls["render"] += 1
        return real_render(self, key, params)

    monkeypatch.setattr(engine, "Table", Counting)
    monkeypatch.setattr(Phrasebook, "render", counting_render)
    monkeypatch.setattr(Phases, "fire", _machine_fire)
    log = _replay(scripts[0])
    assert calls["table"] == len(log) and 0 < calls["render"] < len(log)


def test_the_memo_never_confuses_values_that_are_equal_as_keys():
    book = Phrasebook("en", ("core", "trident"))
    for params in ({"seat": True}, {"seat": 1}, {"seat": 1.0}, {"seat": "1"}, {"seat": [1, 2]},
                   {"piece": "trident:heart-3"}, {"seat": 2, "count": 3}, {"count": 3, "seat": 2}, {}):
        for _ in range(2):
            assert book.render("turn", params) == book.render_uncached("turn", params)
            assert book.render("no-such-key", params) == book.render_uncached("no-such-key", params)
    assert book.render("turn", {"seat": True}) != book.render("turn", {"seat": 1})


def test_input_is_still_the_frozen_dataclass_it_was():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Generated:
        t: float
        line: int | None = None
        reader: str | None = None
        seat: int | None = None
        tag: str | None = None
        removed: bool = False
        console: str | None = None
        timer: str | None = None

    assert tuple(f.name for f in dataclasses.fields(Input)) == INPUT_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Generated)) == INPUT_FIELDS
    assert [(p.name, p.default, p.kind) for p in inspect.signature(Input).parameters.values()] == \
        [(p.name, p.default, p.kind) for p in inspect.signature(Generated).parameters.values()]
    a = Input(1.5, 3, "hand", 2, "trident:heart-1", True, None, None)
    assert dataclasses.astuple(a) == dataclasses.astuple(Generated(1.5, 3, "hand", 2, "trident:heart-1", True))
    assert a == Input(t=1.5, line=3, reader="hand", seat=2, tag="trident:heart-1", removed=True)
    assert hash(a) == hash(dataclasses.replace(a)) and a.placed is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.seat = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Input()  # type: ignore[call-arg]
    fast = reader_input(1.5, 3, "hand", 2, "trident:heart-1", True)
    assert type(fast) is Input and fast == a and hash(fast) == hash(a) and repr(fast) == repr(a)
    assert dataclasses.astuple(fast) == dataclasses.astuple(a) and dataclasses.replace(fast, seat=3).seat == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.tag = "trident:heart-2"  # type: ignore[misc]


def test_new_event_is_the_event_a_class_call_makes():
    """`new_event` skips the class call's `__init__`, nothing else: the same dataclass object."""
    made = new_event("say", {"to": "table", "key": "turn", "params": {"seat": 2}})
    called = Event("say", {"to": "table", "key": "turn", "params": {"seat": 2}})
    assert type(made) is Event and made == called and repr(made) == repr(called)
    assert dataclasses.astuple(made) == dataclasses.astuple(called) and made.audiences == ("table",)
    assert dataclasses.replace(made, type="play").fields is made.fields
    made.fields = {}  # not frozen, as the dataclass is not
    with pytest.raises(AttributeError):
        made.other = 1  # type: ignore[attr-defined]  # slots, as the dataclass's
    assert made != called


def test_a_timer_set_cancelled_and_due_fires_as_before():
    """The engine's memo of the next timer follows every set, cancel and firing."""
    from kikimimi.contract.protocol import cancel_timer, set_timer

    table = Table(Header("trident", 3, {}, "en", {}))
    ref = ReferenceTable(Header("trident", 3, {}, "en", {}))
    for tb in (table, ref):
        tb.start()
        tb._log(set_timer("b", 5.0), 0.0, None)
        tb._log(set_timer("a", 5.0), 0.0, None)
        tb._log(set_timer("c", 9.0), 0.0, None)
        tb._log(cancel_timer("c"), 0.0, None)
        tb._log(set_timer("d", float("nan")), 0.0, None)
    lines = [{"t": 1, "reader": "hand", "seat": 1, "tag": "trident:heart-1"},
             {"t": 5, "reader": "hand", "seat": 2, "tag": "trident:heart-2"},
             {"t": 10, "reader": "hand", "seat": 3, "tag": "trident:heart-3"}]
    got = [[in_log_order(ev) for ev in table.feed(n, item)] for n, item in enumerate(lines, start=2)]
    want = [ref.feed(n, item) for n, item in enumerate(lines, start=2)]
    assert repr(got) == repr(want) and table.timers == ref.timers == {}  # repr: NaN != NaN; as written
    assert [ev["message"] for evs in got for ev in evs if ev["type"] == "error" and ev["in"] is None]


def _visible_to_before(log_event: Mapping[str, Any], seat: int | None) -> bool:
    """`visible_to` before its fast path."""
    from kikimimi.contract.protocol import TABLE, audiences_of, seat_audience

    if log_event.get("type") == "say":
        audiences: tuple[str, ...] = (str(log_event.get("to")),)
    else:
        audiences = audiences_of(log_event.get("private", TABLE))
    if TABLE in audiences:
        return True
    return seat is not None and seat_audience(seat) in audiences


def test_visible_to_answers_as_before_for_every_logged_event_and_odd_ones(scripts):
    from kikimimi.contract.protocol import visible_to

    class Named(str):
        pass

    odd: list[dict[str, Any]] = [
        {"type": "say", "to": None}, {"type": "say"}, {"type": "say", "to": 3}, {"type": "say", "to": Named("table")},
        {"type": "say", "to": "seat:1", "private": "table"}, {"type": "x", "private": ["seat:1", "seat:3"]},
        {"type": "x", "private": []}, {"type": "x", "private": 1}, {"type": "x", "private": None},
        {"type": "x", "private": ("table",)}, {"type": "x", "private": Named("seat:2")}, {"type": "x"},
        {"type": "x", "private": "referee"}, {"type": "x", "private": ["seat:2", 5]}, {},
    ]
    events = [ev for s in scripts[:40] for ev in _log_of(s)] + odd
    assert len(events) > 5000
    for ev in events:
        for seat in (None, 1, 2, 3, 4, 5):
            assert visible_to(ev, seat) == _visible_to_before(ev, seat), (ev, seat)
