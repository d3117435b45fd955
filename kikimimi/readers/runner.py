"""The reader runner: raw driver observations in, clean table inputs out.

This is the one place where debounce, "a resting tag is one placement",
ignore-at-connect and "reader lost is not tag removed" are decided, so every
driver stays a thin translation of its hardware (see `readers/base.py`).

Rules, per reader:

- A uid is *placed* once, when it first appears; it is *removed* once, after
  `debounce_ms` of continuous absence.  A lift-and-replace inside the debounce
  window is nothing at all.  When another tag is placed while a removal is
  still pending on the same reader, the pending removal is confirmed first (a
  swap reads "removed A, placed B", in that order).
- Tags resting when a reader first connects are ignored until lifted (unless
  `ignore_at_connect` is False); their lift is silent too, since the table was
  never told about them.
- `lost` is reported once when a reader fails (`unopened` when it never
  opened at all: a wrong path, a missing device); nothing resting on it is
  reported removed and pending removals are frozen.  When it connects again
  the runner reports `back`, then reconciles: a tag that rested all along is
  not placed again, one lifted during the outage is removed, a new one placed.

Input times never decrease (the table script requires it): a removal carries
the time it was confirmed, i.e. lift time + debounce.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from kikimimi.readers.base import Driver, RawEvent

log = logging.getLogger(__name__)

InputKind = Literal["placed", "removed", "lost", "back"]


@dataclass(frozen=True)
class ReaderSettings:
    reader: str
    role: Literal["hand", "field"]
    seat: int | None
    debounce_ms: int = 150
    ignore_at_connect: bool = True


@dataclass(frozen=True)
class ReaderInput:
    t: float
    reader: str
    role: str
    seat: int | None
    kind: InputKind
    uid: str | None = None
    tag: str | None = None
    detail: str = ""
    #: A `lost` before the reader ever opened: a wrong path or a missing device, not a cable pulled mid-game.
    unopened: bool = False


@dataclass
class _ReaderState:
    settings: ReaderSettings
    connected: bool = False
    ever_connected: bool = False
    lost_reported: bool = False
    # uid -> tag name, for placements the table has been told about
    reported: dict[str, str | None] = field(default_factory=dict)
    # uid -> (deadline, tag) of a lift not yet confirmed
    pending: dict[str, float] = field(default_factory=dict)
    # uids resting since first connect, never reported
    ignored: set[str] = field(default_factory=set)


class ReaderRunner:
    """Turns `RawEvent`s from any number of drivers into `ReaderInput`s.

    `feed` and `tick` may be called from any thread; `on_input` is called
    with the runner's lock held, so inputs arrive in one total order.
    """

    def __init__(
        self,
        settings: Sequence[ReaderSettings],
        on_input: Callable[[ReaderInput], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._states = {s.reader: _ReaderState(s) for s in settings}
        if len(self._states) != len(settings):
            raise ValueError("reader settings name the same reader twice")
        self._on_input = on_input
        self._clock = clock
        self._lock = threading.RLock()
        self._first_connect = threading.Condition(self._lock)  # `wait_first_connect` wakes on each
        self._last_t = float("-inf")
        self._stop = threading.Event()
        self._wake = threading.Event()  # the ticker's next removal deadline may have changed
        self._threads: list[threading.Thread] = []
        self._unknown_warned: set[str] = set()

    # -- inputs -------------------------------------------------------------
    def feed(self, raw: RawEvent) -> None:
        """Take one driver observation (thread-safe; this is the drivers' `emit`)."""
        with self._lock:
            st = self._states.get(raw.reader)
            if st is None:
                if raw.reader not in self._unknown_warned:
                    self._unknown_warned.add(raw.reader)
                    log.warning("reader %r is not configured; its events are ignored", raw.reader)
                return
            # Confirm removals that came due before this observation, so a
            # late tick cannot reorder them after a newer input.
            self._tick_locked(raw.t)
            handler = {
                "connected": self._on_connected,
                "placed": self._on_placed,
                "removed": self._on_removed,
                "lost": self._on_lost,
            }.get(raw.kind)
            if handler is None:
                log.warning("reader %s: unknown raw event kind %r ignored", raw.reader, raw.kind)
                return
            handler(st, raw)
            self._wake.set()

    def tick(self, now: float) -> None:
        """Confirm the removals whose debounce time has come by `now`."""
        with self._lock:
            self._tick_locked(now)

    def wait_first_connect(self, timeout: float) -> list[ReaderSettings]:
        """Wait up to `timeout` s for every reader's first connect; the readers still never
        connected, in configured order.  A table says "ready" only once its readers are there
        (kikimimi.table.readiness), and a boot never waits forever for one left in the box.

        A reader still absent when the wait ends is reported lost (once, as a reader that failed
        to open is): its seat's clock is held where the game says so, and when its driver does
        connect at last (one hung while opening) the table hears that it is back."""
        deadline = time.monotonic() + max(0.0, timeout)
        with self._first_connect:
            while True:
                absent = [st for st in self._states.values() if not st.ever_connected]
                left = deadline - time.monotonic()
                if not absent or left <= 0 or self._stop.is_set():
                    break
                self._first_connect.wait(min(left, 0.5))
            if not self._stop.is_set():
                for st in absent:
                    if not st.lost_reported:
                        st.lost_reported = True
                        self._emit(st, "lost", self._clock(),
                                   detail=f"not connected {max(0.0, timeout):g} s after the start")
            return [st.settings for st in absent]

    # -- threads ------------------------------------------------------------
    def start(self, drivers: Sequence[Driver]) -> None:
        """Run each driver in its own thread, plus a ticker for debounced removals."""
        if self._threads:
            raise RuntimeError("runner already started")
        self._stop.clear()
        for driver in drivers:
            th = threading.Thread(
                target=self._run_driver, args=(driver,), name=f"reader-{driver.reader}", daemon=True
            )
            self._threads.append(th)
        ticker = threading.Thread(target=self._run_ticker, name="reader-ticker", daemon=True)
        self._threads.append(ticker)
        for th in self._threads:
            th.start()

    def stop(self) -> None:
        """Ask every driver to stop and wait for their threads."""
        self._stop.set()
        self._wake.set()
        for th in self._threads:
            th.join(timeout=5.0)
            if th.is_alive():
                log.warning("thread %s did not stop within 5 s", th.name)
        self._threads = []

    def _run_driver(self, driver: Driver) -> None:
        try:
            driver.run(self.feed, self._stop)
        except Exception as exc:  # a driver must not raise; if one does, say so once
            log.exception("driver %s crashed", driver.reader)
            self.feed(RawEvent(driver.reader, "lost", self._clock(), detail=f"driver crashed: {exc}"))

    def _run_ticker(self) -> None:
        """Sleeps until the next removal is due (or an observation changes that):
        a table with no lifted tag wakes nobody."""
        while not self._stop.is_set():
            self._wake.clear()
            due = self._next_due()
            self._wake.wait(None if due is None else min(1.0, max(0.0, due - self._clock())))
            if self._stop.is_set():
                break
            self.tick(self._clock())

    def _next_due(self) -> float | None:
        with self._lock:
            return min((d for st in self._states.values() if st.connected for d in st.pending.values()),
                       default=None)

    # -- rules --------------------------------------------------------------
    def _emit(self, st: _ReaderState, kind: InputKind, t: float, uid: str | None = None,
              tag: str | None = None, detail: str = "", unopened: bool = False) -> None:
        t = max(t, self._last_t)
        self._last_t = t
        s = st.settings
        inp = ReaderInput(t=t, reader=s.reader, role=s.role, seat=s.seat, kind=kind,
                          uid=uid, tag=tag, detail=detail, unopened=unopened)
        try:
            self._on_input(inp)
        except Exception:
            log.exception("on_input failed for %s", inp)

    def _tick_locked(self, now: float) -> None:
        due: list[tuple[float, str, _ReaderState]] = []
        for st in self._states.values():
            if not st.connected:
                continue  # frozen while the reader is lost
            for uid, deadline in st.pending.items():
                if deadline <= now:
                    due.append((deadline, uid, st))
        for deadline, uid, st in sorted(due, key=lambda d: d[0]):
            self._confirm_removal(st, uid, deadline)

    def _confirm_removal(self, st: _ReaderState, uid: str, t: float) -> None:
        st.pending.pop(uid, None)
        tag = st.reported.pop(uid, None)
        self._emit(st, "removed", t, uid=uid, tag=tag)

    def _on_connected(self, st: _ReaderState, raw: RawEvent) -> None:
        present = dict(raw.present)
        if st.connected:
            log.debug("reader %s: connected twice; treated as a reconnect", st.settings.reader)
        first = not st.ever_connected
        st.connected = True
        st.ever_connected = True
        if first:
            self._first_connect.notify_all()
        if st.lost_reported:
            st.lost_reported = False
            self._emit(st, "back", raw.t)
        # ignored tags lifted while away stop being ignored
        st.ignored &= set(present)
        if first:
            if st.settings.ignore_at_connect:
                st.ignored |= set(present)
            else:
                for uid, tag in present.items():
                    self._place(st, uid, tag, raw.t)
            return
        # reconnect: reconcile what the table knows with what rests now
        for uid in list(st.reported):
            if uid not in present:
                self._confirm_removal(st, uid, raw.t)
            else:
                st.pending.pop(uid, None)  # lifted and replaced across the outage
        for uid, tag in present.items():
            if uid not in st.reported and uid not in st.ignored:
                self._place(st, uid, tag, raw.t)

    def _on_placed(self, st: _ReaderState, raw: RawEvent) -> None:
        uid = raw.uid
        if uid is None:
            return
        if not st.connected:
            log.debug("reader %s: placement before connect", st.settings.reader)
        if uid in st.ignored:
            return
        if uid in st.pending:
            del st.pending[uid]  # quick lift and replace: nothing happened
            return
        if uid in st.reported:
            return  # still resting: one placement however long it rests
        self._place(st, uid, raw.tag, raw.t)

    def _place(self, st: _ReaderState, uid: str, tag: str | None, t: float) -> None:
        for other in sorted(st.pending, key=st.pending.__getitem__):
            self._confirm_removal(st, other, t)
        st.reported[uid] = tag
        self._emit(st, "placed", t, uid=uid, tag=tag)

    def _on_removed(self, st: _ReaderState, raw: RawEvent) -> None:
        uid = raw.uid
        if uid is None:
            return
        if uid in st.ignored:
            st.ignored.discard(uid)  # lifted at last: from now on it counts
            return
        if uid in st.reported and uid not in st.pending:
            st.pending[uid] = raw.t + st.settings.debounce_ms / 1000

    def _on_lost(self, st: _ReaderState, raw: RawEvent) -> None:
        st.connected = False
        if not st.lost_reported:
            st.lost_reported = True
            self._emit(st, "lost", raw.t, detail=raw.detail or "reader stopped answering",
                       unopened=not st.ever_connected)
