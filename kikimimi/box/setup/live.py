"""The set-up dialogue on real devices: phrases into sound cards, scans from reader drivers.

Each card is played through `AudioOutput` (its own lane and stream, the
same path a game's phrases take), and each reader runs its real driver
under the one reader runner, so a scan during set-up is exactly a scan
during a game.  Every phrase is also printed, for a helper with a screen.
"""
from __future__ import annotations

import queue
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kikimimi.contract.phrases import Phrasebook
from kikimimi.readers.factory import make_driver
from kikimimi.readers.runner import ReaderInput, ReaderRunner, ReaderSettings
from kikimimi.box.setup.found import FoundCard, FoundReader
from kikimimi.contract.tagmap import NextScan, Scan
from kikimimi.voice.config import AudioSpec, OutputSpec
from kikimimi.voice.output import AudioOutput

#: Phrases said with a seat number are prepared for every seat up to this.
MAX_SEATS = 12
#: A breath after each line: lines said one after another (enrolment's "your set: 4 pieces",
#: then "scan the HINT tag") are heard as lines, not run together.
GAP_S = 0.6


class LiveIO:
    def __init__(self, cards: Sequence[FoundCard], readers: Sequence[FoundReader], *,
                 lang: str, rate: int | None = None, answer_s: float = 10.0, settle_s: float = 1.0,
                 cache_dir: Path | None = None, print_lines: bool = True) -> None:
        self.cards = {c.id: c for c in cards}
        self.lanes = {c.id: f"seat-{i}" for i, c in enumerate(cards, 1)}
        self.readers = {r.id: r for r in readers}
        self.answer_s, self.settle_s, self.print_lines = answer_s, settle_s, print_lines
        self.book = Phrasebook(lang, ("core", "setup"))
        outputs = {lane: OutputSpec(lane, self.cards[cid].device.index,
                                    (0, 1) if self.cards[cid].device.channels >= 2 else (0,))
                   for cid, lane in self.lanes.items()}
        self.audio = AudioOutput(AudioSpec(outputs, rate=rate), len(cards), lang,
                                 cache_dir=cache_dir, muted=("speaker",))
        self._scans: queue.Queue[str] = queue.Queue()
        self._placed: dict[str, queue.Queue[ReaderInput]] = {r.id: queue.Queue() for r in readers}
        settings = [ReaderSettings(reader=r.id, role="field", seat=None) for r in readers]
        self.runner = ReaderRunner(settings, self._on_input)
        self.runner.start([make_driver(r.id, {"driver": r.driver, "path": r.path}) for r in readers])

    def _on_input(self, ri: ReaderInput) -> None:
        if ri.kind == "placed":
            self._scans.put(ri.reader)
            self._placed[ri.reader].put(ri)

    def problems(self) -> dict[str, str]:
        """Cards that cannot play (device busy or gone), by card id."""
        return {cid: self.audio.problems[lane] for cid, lane in self.lanes.items() if lane in self.audio.problems}

    def prepare(self, ports: Sequence[str]) -> None:
        """Render every phrase the set-up may say, before the first one is needed."""
        texts = [t for k, t in self.book.phrases.items() if "{" not in t]
        for n in range(1, min(MAX_SEATS, len(self.cards)) + 1):  # a seat needs a card of its own
            for key in ("setup-seat-prompt", "setup-seat-next", "setup-you-are", "listen-seat"):
                texts.append(self.book.render(key, {"seat": n}))
        texts.append(self.book.render("setup-start", {"cards": len(self.cards), "readers": len(self.readers)}))
        texts += [self.book.render("setup-reader-silent", {"port": p}) for p in ports]
        self.audio.prepare(texts, progress=False)

    # -- SetupIO ------------------------------------------------------------
    def say(self, card: str, key: str, /, **params: Any) -> None:
        self.say_all([card], key, **params)

    def say_all(self, targets: Sequence[str], key: str, /, **params: Any) -> None:
        text = self.book.render(key, params)
        if self.print_lines:
            where = ", ".join(self.where(c) for c in targets)
            print(f"[{where}] {text}", flush=True)
        events = [{"type": "say", "to": "seat:" + self.lanes[c].split("-")[1], "key": key,
                   "params": params, "text": text} for c in targets]
        for line in self.audio.emit(events):
            print(f"kikimimi: {line}", file=sys.stderr, flush=True)
        self.audio.wait_idle(timeout=60)
        time.sleep(GAP_S)

    def where(self, card: str) -> str:
        """The card as a helper with a screen finds it: its number today and its USB port."""
        c = self.cards[card].card
        return f"card {c.number} at USB {c.usb_port}" if c.usb_port else f"card {c.number} {c.id}"

    def scans(self) -> list[str]:
        got: list[str] = []
        try:
            got.append(self._scans.get(timeout=self.answer_s))
        except queue.Empty:
            return []
        deadline = time.monotonic() + self.settle_s
        while (left := deadline - time.monotonic()) > 0:
            try:
                reader = self._scans.get(timeout=left)
            except queue.Empty:
                break
            if reader not in got:
                got.append(reader)
        return got

    # -- EnrolIO --------------------------------------------------------------
    def scans_of(self, reader: str) -> NextScan:
        """This reader's placements from now on (earlier ones answered a set-up question)."""
        placed = self._placed[reader]
        while not placed.empty():
            placed.get_nowait()

        def next_scan(left: float) -> Scan | None:
            deadline = time.monotonic() + left
            while (left := deadline - time.monotonic()) > 0:
                try:
                    ri = placed.get(timeout=left)
                except queue.Empty:
                    return None
                if ri.uid is not None:  # a placement known by name only cannot be enrolled by its uid
                    return ri.uid, ri.tag, ri.detail
            return None
        return next_scan

    def prepare_texts(self, texts: Sequence[str]) -> None:
        """Render these phrases now (the enrolment's, once its pieces are known)."""
        self.audio.prepare(texts, progress=False)

    def clear(self) -> None:
        while True:
            try:
                self._scans.get_nowait()
            except queue.Empty:
                return

    def close(self) -> None:
        self.runner.stop()
        self.audio.close()
