"""Test players who set a table up by ear: they listen on each sink's monitor and scan when asked.

Each person wears one sink (or stands by the speaker) and has one emulated
reader.  A person acts only on what their own sink plays, recognised by
correlating the sound with the phrases the set-up can say, exactly as a
player acts on what they hear: "if you hear this in your earphone, scan".
"""
from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kikimimi.testing.ntag import Ntag213

SILENCE = 1e-4
LEAD = 4800  # samples of silence put back before a sound (0.1 s at 48 kHz)


def best_match(sound: np.ndarray, clips: dict[str, np.ndarray]) -> tuple[str | None, float]:
    """Which clip `sound` is (Pearson correlation at the best alignment), if any is close.

    `sound` is cut where it rises above SILENCE; in a recording the soft start of a phrase
    ("S" of "Seat") can stay under it (after a pause between phrases it did, every time), so
    the sound starts later than the clip's own lead-in and no forward shift aligns them: a
    short lead of silence is put back first."""
    sound = np.concatenate([np.zeros(LEAD, sound.dtype), sound])
    best, score = None, 0.0
    for name, clip in clips.items():
        n = min(sound.size, clip.size)
        if n < 1000:
            continue
        size = 1 << int(np.ceil(np.log2(sound.size + clip.size)))
        xc = np.fft.irfft(np.fft.rfft(sound, size) * np.conj(np.fft.rfft(clip, size)), size)
        at = int(np.argmax(xc[: max(1, sound.size)]))
        seg = sound[at: at + clip.size]
        ref = clip[: seg.size]
        if seg.size < 1000 or not seg.any():
            continue
        r = float(np.corrcoef(seg, ref)[0, 1])
        if abs(sound.size - LEAD - clip.size) > clip.size * 0.25:  # a much longer or shorter sound is another phrase
            r *= min(sound.size - LEAD, clip.size) / max(sound.size - LEAD, clip.size)
        if r > score:
            best, score = name, r
    return (best, score) if score > 0.45 else (None, score)


@dataclass
class Person:
    name: str
    reader: object  # their emulator
    answers: dict[str, set[str]]  # sink they hear -> the phrases heard there they scan for
    heard: list[tuple[str, str]] = field(default_factory=list)
    #: (sink, phrase) -> the uids of the tags they scan for it, one each time it is heard (enrolment:
    #: "scan the AGREE tag" in their earphone); a tag is blank, known only by its uid
    pieces: dict[tuple[str, str], list[str]] = field(default_factory=dict)


class Table:
    """Reads every sink's recording as it grows, cuts it into phrases, and lets people react."""

    def __init__(self, raw: dict[str, Path], channels: dict[str, int], clips: dict[str, np.ndarray],
                 people: list[Person], rate: int = 48000) -> None:
        self.raw, self.channels, self.clips, self.people, self.rate = raw, channels, clips, people, rate
        self.offset = {s: 0 for s in raw}
        self.burst: dict[str, list[np.ndarray]] = {s: [] for s in raw}
        self.quiet = {s: 0 for s in raw}
        self.log: list[tuple[str, str | None]] = []  # (sink, phrase) in the order heard
        self.misses: list[tuple[str, float, float]] = []  # (sink, best score, seconds) of each sound not told
        self.heard_at: list[float] = []  # when each of `log` ended (time.monotonic()), to see where time goes
        self._uids = itertools.count(1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="listeners")

    def start(self) -> "Table":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            for sink in self.raw:
                self._read(sink)

    def _read(self, sink: str) -> None:
        path = self.raw[sink]
        if not path.exists():
            return
        frame = 4 * self.channels[sink]
        with open(path, "rb") as f:
            f.seek(self.offset[sink])
            data = f.read()
        data = data[: len(data) - len(data) % frame]
        if not data:
            return
        self.offset[sink] += len(data)
        mono = np.frombuffer(data, "<f4").reshape(-1, self.channels[sink])[:, 0]
        loud = np.abs(mono) > SILENCE
        if loud.any():
            self.burst[sink].append(mono)
            tail = mono.size - 1 - int(np.flatnonzero(loud)[-1])
            self.quiet[sink] = tail
        elif self.burst[sink]:
            self.burst[sink].append(mono)
            self.quiet[sink] += mono.size
        if self.burst[sink] and self.quiet[sink] > 0.35 * self.rate:
            sound = np.concatenate(self.burst[sink])
            self.burst[sink] = []
            nz = np.flatnonzero(np.abs(sound) > SILENCE)
            phrase, score = best_match(sound[nz[0]: nz[-1] + 1], self.clips)
            if phrase is None:  # for a failing test's message: how close it came, how long it was
                self.misses.append((sink, round(score, 2), round((nz[-1] - nz[0]) / self.rate, 2)))
            self.log.append((sink, phrase))
            self.heard_at.append(time.monotonic())
            for person in self.people:
                if sink in person.answers:
                    person.heard.append((sink, phrase or "?"))
                    if phrase in person.answers[sink]:
                        self.scan(person)
                    elif person.pieces.get((sink, phrase or "?")):
                        uids = person.pieces[(sink, phrase or "?")]  # asked again: the last one again
                        self.scan(person, uids.pop(0) if len(uids) > 1 else uids[0])

    def scan(self, person: Person, uid: str | None = None) -> None:
        reader = person.reader
        tag = Ntag213(uid) if uid else Ntag213(f"04{next(self._uids):012x}", "cmd:ok")
        reader.place(tag)  # type: ignore[attr-defined]

        def lift() -> None:
            reader.remove()  # type: ignore[attr-defined]
        timer = threading.Timer(0.4, lift)
        timer.daemon = True
        timer.start()


def wait_for(pred, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return pred()
