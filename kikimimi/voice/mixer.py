"""Per-output queues mixed into one device's channels inside its audio callback.

One `OutputStream` per physical device (never `sd.play`, which shares one
global stream).  Each output (the speaker, one earphone) is a `Lane` with its
own queue, so the speaker never waits behind an earphone and vice versa.

The callback runs on PortAudio's thread and must never block: lanes are
lock-free.  `emit` only appends to a deque and raises a cut mark; the callback
alone moves the current clip, and drops queued clips older than the mark.

A device with nothing to play for `PAUSE_AFTER_S` pauses its stream (the
callback itself ends it), and the next phrase starts it again (`wake`): four
idle streams cost ~6 % of a core in PortAudio and the sound server's client
threads, a paused one nothing, and a restart takes a few ms, less than the
wait for the next block of a running stream (docs/speed.md).

A running stream whose callbacks stop for a while (a starved machine, a sound
server that hung for a moment) is stopped and started again on the same thread
and counted (`recoveries`), never given up for good: a loaded Pi would
otherwise leave an earphone deaf for the rest of the game.  Only a start that
fails, or one stuck inside PortAudio, is a problem (docs/voice.md).
"""
from __future__ import annotations

import itertools
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

_serials = itertools.count(1)


def _open_trace() -> int | None:
    """KIKIMIMI_TRACE=FILE: one line per clip's first frame (monotonic time, output, key),
    so bench/end_to_end.py can time a placement in another process to the sound."""
    path = os.environ.get("KIKIMIMI_TRACE")
    if not path:
        return None
    try:
        return os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return None


_TRACE = _open_trace()

#: Fixed 10 ms callbacks.  PortAudio's variable blocks under "low" latency ran
#: ~460 callbacks/s per device: four idle outputs cost 17 % of a core more
#: than text only; at 10 ms it is ~3 %, and tag -> first frame did not grow
#: measurably (bench/end_to_end.py, docs/speed.md).  0: PortAudio's choice.
BLOCK_MS = 10.0
#: Seconds of silence after which a device's stream pauses until the next phrase (0: never).
PAUSE_AFTER_S = 2.0
#: Seconds a restart (after a pause or a stall) may take before the device is given up:
#: PortAudio's start on a device that went away blocks for good; on a starved machine a
#: good start took over 2 s, so this is a hang guard, not a speed target.
STUCK_AFTER_S = 15.0


@dataclass(slots=True, eq=False)
class Item:
    """One queued phrase for one lane.  `samples` stays None until rendered; float32,
    or int16 when mapped from the clip cache (scaled in the callback)."""

    key: str
    t_emit: float
    samples: np.ndarray | None = None
    dropped: bool = False
    serial: int = field(default_factory=lambda: next(_serials))
    pos: int = 0
    t_first: float | None = None


class Lane:
    """One output's queue and where it lands on its device."""

    def __init__(self, name: str, channels: tuple[int, ...], volume: float, latencies: deque | None = None):
        self.name = name
        self.channels = channels
        self.volume = np.float32(volume)
        self.queue: deque[Item] = deque()
        self.current: Item | None = None
        self.cut_mark = 0  # items with a smaller serial are stale
        self.latencies: deque[float] = latencies if latencies is not None else deque(maxlen=4096)
        self.played: list[str] = []  # keys that started playing, newest last (bounded)

    def push(self, item: Item) -> None:
        self.queue.append(item)

    def cut(self) -> None:
        """Everything queued or playing so far is stale (a new hand scan)."""
        self.cut_mark = next(_serials)

    def clear(self) -> list[str]:
        """Drop everything (the device is gone); the keys of phrases not heard in full."""
        lost = [i.key for i in [self.current, *list(self.queue)]
                if i is not None and not i.dropped and i.serial >= self.cut_mark]
        self.cut_mark = next(_serials)
        self.queue.clear()
        self.current = None
        return lost

    @property
    def idle(self) -> bool:
        cur = self.current
        if cur is not None and cur.serial >= self.cut_mark:
            return False
        return not any(not i.dropped and i.serial >= self.cut_mark for i in list(self.queue))

    def _advance(self) -> Item | None:
        while self.queue:
            head = self.queue[0]
            if head.dropped or head.serial < self.cut_mark:
                self.queue.popleft()
                continue
            if head.samples is None:
                return None  # still rendering: keep order, play silence meanwhile
            self.queue.popleft()
            self.current = head
            return head
        return None

    @property
    def busy(self) -> bool:
        """Something to play or still rendering (the callback's cheap test; stale items
        are dropped by the next mix, so at worst the stream runs one block longer)."""
        return self.current is not None or bool(self.queue)

    def mix_into(self, out: np.ndarray, frames: int) -> None:
        filled = 0
        while filled < frames:
            cur = self.current
            if cur is None or cur.serial < self.cut_mark:
                self.current = None
                cur = self._advance()
                if cur is None:
                    return
            samples = cur.samples
            assert samples is not None
            if cur.t_first is None:
                cur.t_first = time.perf_counter()
                if _TRACE is not None:
                    os.write(_TRACE, f"{time.monotonic():.6f} {self.name} {cur.key}\n".encode())
                self.latencies.append(cur.t_first - cur.t_emit)
                self.played.append(cur.key)
                if len(self.played) > 256:
                    del self.played[:128]
            n = min(frames - filled, samples.size - cur.pos)
            chunk = samples[cur.pos:cur.pos + n]
            if chunk.dtype == np.int16:  # a clip mapped from the cache
                chunk = chunk * (self.volume / np.float32(32768.0))
            elif self.volume != 1.0:
                chunk = chunk * self.volume
            for ch in self.channels:
                out[filled:filled + n, ch] += chunk
            cur.pos += n
            filled += n
            if cur.pos >= samples.size:
                self.current = None


class DeviceMixer:
    """One open PortAudio stream and the lanes that play through it."""

    def __init__(self, device: int, name: str, samplerate: int, channels: int,
                 lanes: list[Lane], latency: Any = "low", block_ms: float = BLOCK_MS,
                 pause_after_s: float = PAUSE_AFTER_S):
        import sounddevice as sd

        self.device, self.name, self.samplerate = device, name, samplerate
        self.lanes = lanes
        self.problem: str | None = None
        self.lost: list[tuple[str, str]] = []  # (output, phrase key) cut off by a failure
        self.callbacks = 0
        self.pauses = 0
        self.last_callback = time.monotonic()
        self._closing = False
        self.pause_after_s = pause_after_s
        self.paused = False  # the callback ended the stream for lack of sound; `wake` restarts it
        self._sound_at = self.last_callback
        self._stop = sd.CallbackStop
        self._restart = threading.Event()
        self._restart_asked = 0.0
        self._restarter: threading.Thread | None = None
        self._restarter_lock = threading.Lock()
        self._starting = False  # the restart thread is inside PortAudio's start
        self.stalled = False  # callbacks stopped while running: the restart thread reopens it
        self.recoveries = 0  # stalls recovered from (or under way), for the referee's notices
        self.notes: list[str] = []  # one line a stall, taken by the output for the referee
        self.stream = sd.OutputStream(
            device=device, samplerate=samplerate, channels=channels, dtype="float32",
            latency=latency, callback=self._callback, finished_callback=self._finished,
            blocksize=max(1, round(samplerate * block_ms / 1000)) if block_ms else 0)
        self.stream.start()

    def _callback(self, outdata: np.ndarray, frames: int, _time: Any, _status: Any) -> None:
        outdata.fill(0.0)
        self.callbacks += 1
        now = self.last_callback = time.monotonic()
        if not any(lane.busy for lane in self.lanes):
            if self.pause_after_s and now - self._sound_at >= self.pause_after_s:
                self._pause()
            return
        self._sound_at = now
        for lane in self.lanes:
            lane.mix_into(outdata, frames)
        if len(self.lanes) > 1:
            np.clip(outdata, -1.0, 1.0, out=outdata)

    def _pause(self) -> None:
        """End the stream from its own callback, unless a phrase came in meanwhile:
        `paused` is published first and the lanes looked at again, so a phrase
        pushed at any moment either keeps the stream running or sees `paused`."""
        self.paused = True
        if any(lane.busy for lane in self.lanes):
            self.paused = False
            return
        self.pauses += 1
        raise self._stop

    def wake(self) -> None:
        """Ask for a paused stream to start again (a phrase was just queued).

        The restart runs on the mixer's own thread: PortAudio's start can block
        for good on a device that went away while paused (seen with a removed
        PulseAudio sink), and the emitting thread is the table's.  `check`
        reports a restart that does not come back."""
        if self.paused and not self._restart.is_set():
            self._restart_asked = time.monotonic()
            self._restart.set()
            self._start_restarter()

    def _restart_loop(self) -> None:
        while True:
            self._restart.wait()
            if self._closing:
                return
            if not self.paused and not self.stalled:  # a late ask for a stream already running again
                self._restart.clear()
                continue
            self._starting = True
            try:  # a stream its callback ended (or that stalled) must be stopped before it starts again
                self.stream.abort()
            except Exception:  # PortAudioError: a stalled stream may refuse; start says whether it is gone
                pass
            self._sound_at = self.last_callback = time.monotonic()
            try:
                self.stream.start()
            except Exception as exc:  # PortAudioError: the device went away while paused
                self.fail(f"device {self.name!r} cannot restart ({exc}): plug it back in and restart the table")
                return
            finally:
                self._starting = False
            self.paused = self.stalled = False  # only now: `check` must not take the restart for a dead stream
            self._restart.clear()

    def _finished(self) -> None:
        if not self._closing and not self.paused and not self.stalled:
            self.fail(f"device {self.name!r} stopped (unplugged?): plug it back in and restart the table")

    def fail(self, problem: str) -> None:
        self.problem = problem
        for lane in self.lanes:
            self.lost.extend((lane.name, key) for key in lane.clear())

    def check(self, stall_after: float = 2.0, stuck_after: float = STUCK_AFTER_S) -> str | None:
        """The device's problem, noticing a stream that died without a word.

        A running stream without a callback for `stall_after` s is restarted
        (counted), not given up: its callbacks may only have been starved."""
        if self.problem is not None or self._closing:
            return self.problem
        now = time.monotonic()
        if self._restart.is_set():  # a restart (after a pause or a stall) is under way
            # after a pause the device was idle, and a start that blocks is one gone away (seen with a
            # removed sink); after a stall the machine itself may be what is slow: a hang guard only
            bound = stuck_after if self.stalled else stall_after
            if now - self._restart_asked > bound:
                self.fail(f"device {self.name!r} does not start again (no audio for {bound:g} s): "
                          "plug it back in (or check the sound server) and restart the table")
        elif self.paused:
            pass
        elif not self.stream.active:
            self.fail(f"device {self.name!r} stopped: plug it back in and restart the table")
        elif now - self.last_callback > stall_after:
            self._recover(now - self.last_callback)
        return self.problem

    def _recover(self, silent_s: float) -> None:
        """Reopen a stream whose callbacks stopped, on the restart thread (PortAudio's
        calls may block); the phrases queued meanwhile play once it runs again."""
        self.recoveries += 1
        self.notes.append(f"device {self.name!r}: no audio callback for {silent_s:.1f} s, "
                          f"stream restarted ({self.recoveries} so far)")
        self.stalled = True
        self._restart_asked = time.monotonic()
        self._restart.set()
        self._start_restarter()

    def _start_restarter(self) -> None:
        with self._restarter_lock:  # `wake` (the emitting thread) and `check` may both ask first
            if self._restarter is None:
                self._restarter = threading.Thread(target=self._restart_loop, daemon=True,
                                                   name=f"audio-restart {self.name}")
                self._restarter.start()

    @property
    def output_latency(self) -> float:
        return float(self.stream.latency)

    def close(self) -> None:
        self._closing = True
        self._restart.set()  # lets the restart thread end
        if self._restarter is not None:
            self._restarter.join(timeout=1.0)
            if self._restarter.is_alive():
                # Stuck inside PortAudio's start: closing the stream would block as
                # well, and PortAudio's terminate at exit would abort the process
                # on the mutex the stuck start holds.  Leave it to the exit.
                import atexit
                import sounddevice as sd
                atexit.unregister(sd._exit_handler)
                return
        try:
            self.stream.abort()
        finally:
            self.stream.close()
