"""An RDM6300 (or ID-12LA) 125 kHz reader on a pseudo-terminal.

While a card rests it repeats the card's frame every `repeat_ms`; a host
listening at the wrong line speed gets noise.  It can send a frame with a bad
checksum, vanish (unplug) and come back, like `PN532Emulator`.
"""
from __future__ import annotations

import threading

from kikimimi.readers.serial_rfid import encode_frame
from kikimimi.testing.pty_device import PtyDevice


class Rdm6300Emulator(PtyDevice):
    kind = "rdm6300"

    def __init__(self, link: str, repeat_ms: int = 50, crlf: bool = False, speed: int = 9600) -> None:
        super().__init__(link)
        self.repeat_s = repeat_ms / 1000
        self.crlf = crlf
        self.speed = speed
        self.card: str | None = None
        self.frames_sent = 0
        self._lock = threading.Lock()

    def place(self, card: str) -> None:
        with self._lock:
            self.card = card

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
        while not self._stop.wait(self.repeat_s):
            with self._lock:
                if self.card is None or not self.link.present:
                    continue
                if self.link.line_speed() == self.speed:
                    self.link.write(encode_frame(self.card, self.crlf))
                else:
                    self.link.write(b"\xf0\x0f\xff\x80")  # what the wrong speed sounds like
                self.frames_sent += 1
