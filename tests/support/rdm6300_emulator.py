"""An RDM6300 (or ID-12LA) 125 kHz reader on a pseudo-terminal.

While a card rests it repeats the card's frame every `repeat_ms`; a host
listening at the wrong line speed gets noise.  It can send a frame with a bad
checksum, vanish (unplug) and come back, like `PN532Emulator`.

Real modules are less regular (arduino12/rdm6300 issues #14 and #17): some
repeat a held card unevenly (`gaps_ms`, cycled: e.g. 300-500 ms apart), and
some stop repeating after a few dozen frames while the card still rests
(`stops_after`); they start again only when a card is presented anew.
"""
from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Sequence

from kikimimi.readers.serial_rfid import encode_frame
from support.pty_device import PtyDevice


class Rdm6300Emulator(PtyDevice):
    kind = "rdm6300"

    def __init__(self, link: str, repeat_ms: int = 50, crlf: bool = False, speed: int = 9600,
                 gaps_ms: Sequence[int] | None = None, stops_after: int | None = None) -> None:
        super().__init__(link)
        self.repeat_s = repeat_ms / 1000
        self._gaps = itertools.cycle([g / 1000 for g in gaps_ms] if gaps_ms else [self.repeat_s])
        self.stops_after = stops_after
        self.run = 0  # frames sent for the card resting now
        self.crlf = crlf
        self.speed = speed
        self.card: str | None = None
        self.frames_sent = 0
        #: When the last good frame was sent (time.monotonic): a lift is defined from it.
        self.last_frame_at: float | None = None
        #: The longest it went between two frames of a resting card: a host starved by load
        #: can starve this thread too, and a real module never goes quiet that way.
        self.longest_silence = 0.0
        self._lock = threading.Lock()

    def place(self, card: str) -> None:
        with self._lock:
            self.card = card
            self.run = 0

    def remove(self) -> None:
        with self._lock:
            self.card = None

    def send_bad_frame(self, card: str) -> None:
        """One frame whose checksum is wrong (a half-read card)."""
        frame = bytearray(encode_frame(card, self.crlf))
        frame[11] = ord("0") if frame[11] != ord("0") else ord("1")
        with self._lock:
            self.link.write(bytes(frame))

    def vanish(self) -> None:
        with self._lock:
            self.link.vanish()

    def come_back(self) -> None:
        with self._lock:
            self.link.appear()

    def _serve(self) -> None:
        while not self._stop.wait(next(self._gaps)):
            with self._lock:
                if self.card is None or not self.link.present:
                    continue
                if self.stops_after is not None and self.run >= self.stops_after:
                    continue  # the module has gone quiet; the card still rests
                self.run += 1
                if self.link.line_speed() == self.speed:
                    now = time.monotonic()
                    if self.run > 1 and self.last_frame_at is not None:
                        self.longest_silence = max(self.longest_silence, now - self.last_frame_at)
                    self.last_frame_at = now  # before the write: never after the host read it
                    self.link.write(encode_frame(self.card, self.crlf))
                else:
                    self.link.write(b"\xf0\x0f\xff\x80")  # what the wrong speed sounds like
                self.frames_sent += 1
