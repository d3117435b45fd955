"""Per-output queues mixed into one device's channels inside its audio callback.

One `OutputStream` per physical device (never `sd.play`, which shares one
global stream).  Each output (the speaker, one earphone) is a `Lane` with its
own queue, so the speaker never waits behind an earphone and vice versa.

The callback runs on PortAudio's thread and must never block: lanes are
lock-free.  `emit` only appends to a deque and raises a cut mark; the callback
alone moves the current clip, and drops queued clips older than the mark.
"""
from __future__ import annotations

import itertools
import os
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
                 lanes: list[Lane], latency: Any = "low", block_ms: float = BLOCK_MS):
        import sounddevice as sd

        self.device, self.name, self.samplerate = device, name, samplerate
        self.lanes = lanes
        self.problem: str | None = None
        self.lost: list[tuple[str, str]] = []  # (output, phrase key) cut off by a failure
        self.callbacks = 0
        self.last_callback = time.monotonic()
        self._closing = False
        self.stream = sd.OutputStream(
            device=device, samplerate=samplerate, channels=channels, dtype="float32",
            latency=latency, callback=self._callback, finished_callback=self._finished,
            blocksize=max(1, round(samplerate * block_ms / 1000)) if block_ms else 0)
        self.stream.start()

    def _callback(self, outdata: np.ndarray, frames: int, _time: Any, _status: Any) -> None:
        outdata.fill(0.0)
        for lane in self.lanes:
            lane.mix_into(outdata, frames)
        if len(self.lanes) > 1:
            np.clip(outdata, -1.0, 1.0, out=outdata)
        self.callbacks += 1
        self.last_callback = time.monotonic()

    def _finished(self) -> None:
        if not self._closing:
            self.fail(f"device {self.name!r} stopped (unplugged?): plug it back in and restart the table")

    def fail(self, problem: str) -> None:
        self.problem = problem
        for lane in self.lanes:
            self.lost.extend((lane.name, key) for key in lane.clear())

    def check(self, stall_after: float = 2.0) -> str | None:
        """The device's problem, noticing a stream that died without a word."""
        if self.problem is None and not self._closing:
            if not self.stream.active:
                self.fail(f"device {self.name!r} stopped: plug it back in and restart the table")
            elif time.monotonic() - self.last_callback > stall_after:
                self.fail(f"device {self.name!r} stalled (no audio callback for {stall_after:g} s): "
                          "check the cable or the sound server")
        return self.problem

    @property
    def output_latency(self) -> float:
        return float(self.stream.latency)

    def close(self) -> None:
        self._closing = True
        try:
            self.stream.abort()
        finally:
            self.stream.close()
