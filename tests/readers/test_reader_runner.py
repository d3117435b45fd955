"""The runner's rules, fed with script-timed raw events (deterministic) and
once through real threads with a replaying driver."""
from __future__ import annotations

import threading

import pytest

from kikimimi.readers.base import RawEvent
from kikimimi.readers.runner import ReaderInput, ReaderRunner, ReaderSettings
from support.replay import ReplayDriver, Step


def make(ignore_at_connect: bool = True, debounce_ms: int = 150):
    got: list[ReaderInput] = []
    settings = [
        ReaderSettings("hand-1", "hand", 1, debounce_ms=debounce_ms, ignore_at_connect=ignore_at_connect),
        ReaderSettings("field", "field", None, debounce_ms=debounce_ms, ignore_at_connect=ignore_at_connect),
    ]
    return ReaderRunner(settings, got.append), got


def raw(reader: str, kind: str, t: float, uid: str | None = None, **kw) -> RawEvent:
    return RawEvent(reader, kind, t, uid=uid, **kw)  # type: ignore[arg-type]


def brief(inputs: list[ReaderInput]) -> list[tuple]:
    return [(i.reader, i.kind, i.uid, round(i.t, 3)) for i in inputs]


def test_resting_tag_is_one_placement_and_removal_is_debounced():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    r.feed(raw("hand-1", "placed", 1.0, "04aa", tag="trident:heart-3"))
    for k in range(50):  # a driver that (wrongly) repeats must not repeat inputs
        r.feed(raw("hand-1", "placed", 1.0 + k * 0.03, "04aa"))
    r.feed(raw("hand-1", "removed", 3.0, "04aa"))
    r.tick(3.1)
    assert brief(got) == [("hand-1", "placed", "04aa", 1.0)]
    r.tick(3.15)
    assert brief(got) == [("hand-1", "placed", "04aa", 1.0), ("hand-1", "removed", "04aa", 3.15)]
    assert got[0].tag == "trident:heart-3" and got[1].tag == "trident:heart-3"
    assert got[0].role == "hand" and got[0].seat == 1
    r.tick(10.0)
    assert len(got) == 2  # reported once


def test_quick_lift_and_replace_is_nothing():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    r.feed(raw("hand-1", "placed", 1.0, "04aa"))
    r.feed(raw("hand-1", "removed", 2.0, "04aa"))
    r.tick(2.1)
    r.feed(raw("hand-1", "placed", 2.12, "04aa"))
    r.tick(5.0)
    assert brief(got) == [("hand-1", "placed", "04aa", 1.0)]


def test_swap_reports_removal_before_the_new_placement():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    r.feed(raw("hand-1", "placed", 1.0, "04aa"))
    r.feed(raw("hand-1", "removed", 2.0, "04aa"))
    r.feed(raw("hand-1", "placed", 2.05, "04bb"))
    assert brief(got) == [("hand-1", "placed", "04aa", 1.0), ("hand-1", "removed", "04aa", 2.05),
                          ("hand-1", "placed", "04bb", 2.05)]


def test_tag_present_at_connect_is_ignored_until_lifted():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0, present=(("04aa", None),)))
    r.feed(raw("hand-1", "placed", 0.5, "04aa"))  # still the same resting tag
    r.feed(raw("hand-1", "removed", 1.0, "04aa"))
    r.tick(2.0)
    assert got == []  # its lift is silent: the table never heard of it
    r.feed(raw("hand-1", "placed", 3.0, "04aa"))
    assert brief(got) == [("hand-1", "placed", "04aa", 3.0)]


def test_tag_present_at_connect_counts_when_configured():
    r, got = make(ignore_at_connect=False)
    r.feed(raw("hand-1", "connected", 0.0, present=(("04aa", "trident:heart-1"),)))
    assert brief(got) == [("hand-1", "placed", "04aa", 0.0)]
    assert got[0].tag == "trident:heart-1"


def test_lost_and_back_keep_resting_tags_and_reconcile_changes():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    r.feed(raw("hand-1", "placed", 1.0, "04aa"))
    r.feed(raw("field", "connected", 0.0))
    r.feed(raw("field", "placed", 1.1, "04f1"))
    r.feed(raw("field", "placed", 1.2, "04f2"))  # field reader holding two
    r.feed(raw("hand-1", "lost", 2.0, detail="termios.error: (5, 'Input/output error')"))
    r.feed(raw("field", "lost", 2.0, detail="unplugged"))
    r.feed(raw("hand-1", "lost", 2.5, detail="still gone"))  # drivers may repeat; table hears once
    r.tick(9.0)
    r.feed(raw("hand-1", "connected", 10.0, present=(("04aa", None),)))
    r.feed(raw("field", "connected", 10.0, present=(("04f1", None), ("04f3", None))))
    r.tick(20.0)
    assert brief(got) == [
        ("hand-1", "placed", "04aa", 1.0),
        ("field", "placed", "04f1", 1.1),
        ("field", "placed", "04f2", 1.2),
        ("hand-1", "lost", None, 2.0),
        ("field", "lost", None, 2.0),
        ("hand-1", "back", None, 10.0),
        ("field", "back", None, 10.0),
        ("field", "removed", "04f2", 10.0),  # lifted during the outage
        ("field", "placed", "04f3", 10.0),   # new during the outage
    ]
    assert "termios" in got[3].detail


def test_pending_removal_is_frozen_while_lost():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    r.feed(raw("hand-1", "placed", 1.0, "04aa"))
    r.feed(raw("hand-1", "removed", 2.0, "04aa"))
    r.feed(raw("hand-1", "lost", 2.05, detail="gone"))
    r.tick(5.0)
    assert [i.kind for i in got] == ["placed", "lost"]
    r.feed(raw("hand-1", "connected", 6.0, present=(("04aa", None),)))
    r.tick(7.0)
    assert [i.kind for i in got] == ["placed", "lost", "back"]  # it was back on the reader


def test_reader_missing_at_start_then_connecting_is_lost_then_back():
    r, got = make()
    r.feed(raw("hand-1", "lost", 0.0, detail="no such file"))
    r.feed(raw("hand-1", "connected", 3.0, present=(("04aa", None),)))
    assert [i.kind for i in got] == ["lost", "back"]  # resting tag still ignored at first connect


def test_a_reader_still_opening_when_the_ready_wait_ends_is_lost_then_back_when_it_connects():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    absent = r.wait_first_connect(0.05)  # the field reader's driver hangs while opening
    assert [s.reader for s in absent] == ["field"]
    assert [(i.reader, i.kind, i.unopened) for i in got] == [("field", "lost", False)]
    assert "not connected 0.05 s after the start" in got[0].detail
    assert r.wait_first_connect(0.0) == absent and len(got) == 1  # said once
    r.feed(raw("field", "connected", 12.0, present=(("04aa", None),)))
    assert [i.kind for i in got] == ["lost", "back"]  # its first connect is heard as back
    assert r.wait_first_connect(0.0) == []


def test_times_never_decrease_across_readers():
    r, got = make()
    r.feed(raw("hand-1", "connected", 0.0))
    r.feed(raw("field", "connected", 0.0))
    r.feed(raw("hand-1", "placed", 1.0, "04aa"))
    r.feed(raw("hand-1", "removed", 1.1, "04aa"))
    r.feed(raw("field", "placed", 1.2, "04bb"))  # removal on hand-1 due at 1.25
    r.feed(raw("field", "placed", 1.3, "04cc"))
    ts = [i.t for i in got]
    assert ts == sorted(ts)
    assert [(i.reader, i.kind) for i in got] == [("hand-1", "placed"), ("field", "placed"),
                                                  ("hand-1", "removed"), ("field", "placed")]


def test_unknown_reader_is_ignored():
    r, got = make()
    r.feed(raw("nowhere", "connected", 0.0))
    r.feed(raw("nowhere", "placed", 0.1, "04aa"))
    assert got == []


def test_duplicate_settings_refused():
    with pytest.raises(ValueError):
        ReaderRunner([ReaderSettings("a", "hand", 1), ReaderSettings("a", "hand", 2)], print)


def test_threads_replaying_drivers():
    got: list[ReaderInput] = []
    arrived = threading.Event()

    def on_input(i: ReaderInput) -> None:
        got.append(i)
        if len(got) == 5:
            arrived.set()

    settings = [ReaderSettings("hand-1", "hand", 1, debounce_ms=40),
                ReaderSettings("hand-2", "hand", 2, debounce_ms=40)]
    runner = ReaderRunner(settings, on_input)
    d1 = ReplayDriver("hand-1", [
        Step(0.0, "connected", present=(("04c0", None),)),  # resting at connect: ignored
        Step(0.02, "removed", "04c0"),
        Step(0.05, "placed", "04aa", "trident:heart-1"),
        Step(0.10, "removed", "04aa"),
        Step(0.11, "placed", "04aa", "trident:heart-1"),  # quick re-place
        Step(0.20, "removed", "04aa"),
    ])
    d2 = ReplayDriver("hand-2", [
        Step(0.0, "connected"),
        Step(0.03, "placed", "04bb"),
        Step(0.06, "lost", detail="unplugged"),
        Step(0.15, "connected", present=(("04bb", None),)),
    ])
    runner.start([d1, d2])
    try:
        assert arrived.wait(10)
        assert d1.done.wait(10) and d2.done.wait(10)
    finally:
        runner.stop()
    per_reader = {r: [(i.kind, i.uid, i.tag) for i in got if i.reader == r] for r in ("hand-1", "hand-2")}
    assert per_reader["hand-1"] == [("placed", "04aa", "trident:heart-1"), ("removed", "04aa", "trident:heart-1")]
    assert per_reader["hand-2"] == [("placed", "04bb", None), ("lost", None, None), ("back", None, None)]
    assert len(got) == 5


def test_the_ticker_sleeps_until_a_removal_is_due():
    """No lifted tag, no wake-ups; a lift is still confirmed at its debounce."""
    ticks: list[float] = []
    got: list[ReaderInput] = []

    class Counting(ReaderRunner):
        def tick(self, now: float) -> None:
            ticks.append(now)
            super().tick(now)

    r = Counting([ReaderSettings("hand-1", "hand", 1, debounce_ms=50)], got.append)
    emitted = threading.Event()
    lifted = threading.Event()

    class Driver:
        reader = "hand-1"

        def run(self, emit, stop):
            import time
            emit(RawEvent("hand-1", "connected", time.monotonic()))
            emit(RawEvent("hand-1", "placed", time.monotonic(), uid="04aa", tag="trident:heart-3"))
            emitted.set()
            lifted.wait(5)
            emit(RawEvent("hand-1", "removed", time.monotonic(), uid="04aa"))
            stop.wait()

    r.start([Driver()])
    try:
        assert emitted.wait(5)
        threading.Event().wait(0.3)  # a table at rest: a 5 ms ticker would tick ~60 times
        assert len(ticks) <= 3
        lifted.set()
        for _ in range(100):
            if [i.kind for i in got] == ["placed", "removed"]:
                break
            threading.Event().wait(0.01)
    finally:
        r.stop()
    assert [i.kind for i in got] == ["placed", "removed"]
