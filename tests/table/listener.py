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

from support.ntag import Ntag213

SILENCE = 1e-4
LEAD = 4800  # samples of silence put back before a sound (0.1 s at 48 kHz)
THRESHOLD = 0.45  # a sound correlating less with every phrase is no phrase
CLOSE = 0.15  # phrases scoring this near the best are told apart word by word (`piecewise`)
WINDOW = 7200  # samples a part (0.15 s at 48 kHz: shorter than a word)
#: A quiet this long in a recording ends a phrase: the set-up leaves 0.6 s between its
#: phrases (kikimimi/box/setup/live.py GAP_S), a phrase's own pauses are shorter.
PAUSE_S = 0.35


def best_match(sound: np.ndarray, clips: dict[str, np.ndarray]) -> tuple[str | None, float]:
    """Which clip `sound` is (Pearson correlation at the best alignment), if any is close.

    `sound` is cut where it rises above SILENCE; in a recording the soft start of a phrase
    ("S" of "Seat") can stay under it (after a pause between phrases it did, every time), so
    the sound starts later than the clip's own lead-in and no forward shift aligns them: a
    short lead of silence is put back first."""
    sound = np.concatenate([np.zeros(LEAD, sound.dtype), sound])
    best, score = None, 0.0
    scores: dict[str, float] = {}
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
        scores[name] = r
        if r > score:
            best, score = name, r
    if score <= THRESHOLD:
        return None, score
    close = [name for name, r in scores.items() if r > THRESHOLD and r >= score - CLOSE]
    if len(close) > 1:  # "You are seat 1." and "... seat 2." differ in one word: decide on each part
        best = max(close, key=lambda name: piecewise(sound, clips[name]))
    return best, score


def piecewise(sound: np.ndarray, clip: np.ndarray, win: int = WINDOW) -> float:
    """How well each 0.15 s of `sound` is found somewhere in `clip` (normalised
    correlation at its own best place, weighted by its energy).

    One alignment for the whole sound is not enough to tell phrases that differ in a
    word: under load the recording has dropouts (the sink played silence while the
    player was starved), everything after one is shifted, and the word that differs
    then correlates with neither clip ("You are seat 1." heard as seat 2)."""
    if clip.size < win:
        return 0.0
    energy = np.concatenate([[0.0], np.cumsum(clip.astype(np.float64) ** 2)])
    around = energy[win:] - energy[:-win]  # the clip's energy in each window-long stretch
    size = 1 << int(np.ceil(np.log2(clip.size + win)))
    spectrum = np.fft.rfft(clip, size)
    total = weight = 0.0
    for at in range(0, sound.size - win + 1, win):
        part = sound[at: at + win].astype(np.float64)
        e = float(part @ part)
        if e < win * SILENCE ** 2:
            continue
        xc = np.fft.irfft(spectrum * np.conj(np.fft.rfft(part, size)), size)[: clip.size - win + 1]
        ncc = xc / np.sqrt(e * np.maximum(around, 1e-12))
        total += e * float(ncc.max())
        weight += e
    return total / weight if weight else 0.0


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
        self._placed: dict[str, Ntag213] = {}  # person -> the piece on their reader now
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
        """Cut what the sink played since the last read into phrases at every pause longer than
        PAUSE_S, wherever it falls in the new audio: under load this thread can be starved for
        seconds and then read two phrases and the pause between them at once (they
        were heard as one unknown sound when only a pause at the very end of a read counted)."""
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
        pause = int(PAUSE_S * self.rate)
        loud = np.flatnonzero(np.abs(mono) > SILENCE)
        cursor = 0  # the new audio before it is in a burst (or was quiet outside one)
        if loud.size:
            cuts = np.flatnonzero(np.diff(loud) > pause)  # a pause inside the new audio
            for a, b in zip(np.concatenate([[loud[0]], loud[cuts + 1]]), np.concatenate([loud[cuts], [loud[-1]]])):
                if self.burst[sink] and self.quiet[sink] + (a - cursor) > pause:
                    self._ended(sink)
                self.burst[sink].append(mono[cursor: b + 1])
                self.quiet[sink], cursor = 0, int(b) + 1
        if self.burst[sink]:
            self.burst[sink].append(mono[cursor:])
            self.quiet[sink] += mono.size - cursor
            if self.quiet[sink] > pause:
                self._ended(sink)

    def _ended(self, sink: str) -> None:
        """One phrase heard to its end: who hears it there acts on it."""
        sound = np.concatenate(self.burst[sink])
        self.burst[sink], self.quiet[sink] = [], 0
        nz = np.flatnonzero(np.abs(sound) > SILENCE)
        phrase, score = best_match(sound[nz[0]: nz[-1] + 1], self.clips)
        if phrase is None:  # for a failing test's message: how close it came, how long it was
            self.misses.append((sink, round(score, 2), round((nz[-1] - nz[0]) / self.rate, 2)))
        self.log.append((sink, phrase))
        self.heard_at.append(time.monotonic())
        for person in self.people:
            if sink in person.answers:
                person.heard.append((sink, phrase or "?"))
                self.lift(person)  # the table answered (or moved on): the piece comes off the reader
                if phrase in person.answers[sink]:
                    self.scan(person)
                elif person.pieces.get((sink, phrase or "?")):
                    uids = person.pieces[(sink, phrase or "?")]  # asked again: the last one again
                    self.scan(person, uids.pop(0) if len(uids) > 1 else uids[0])

    def scan(self, person: Person, uid: str | None = None) -> None:
        """Put a piece on the person's reader and leave it there until they hear the table's next
        phrase, as a player does: a piece lifted after a fixed 0.4 s could be gone before a reader
        starved on a loaded machine polled it."""
        reader = person.reader
        tag = Ntag213(uid) if uid else Ntag213(f"04{next(self._uids):012x}", "cmd:ok")
        if self._placed.pop(person.name, None) is not None:  # still on it (asked again with no word between)
            reader.remove()  # type: ignore[attr-defined]
        reader.place(tag)  # type: ignore[attr-defined]
        self._placed[person.name] = tag

    def lift(self, person: Person) -> None:
        if self._placed.pop(person.name, None) is not None:
            person.reader.remove()  # type: ignore[attr-defined]


def wait_for(pred, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return pred()
