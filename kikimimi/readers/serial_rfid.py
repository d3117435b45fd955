"""125 kHz serial RFID readers (RDM6300, ID-12LA) through pyserial.

They print a frame — STX, 10 hex digits of card data, 2 hex digits of
checksum (XOR of the 5 data bytes), maybe CR LF, ETX — over and over while a
card rests, and nothing when it leaves; so removal is inferred from silence.
Frames with a bad checksum are dropped: at 9600 baud a half-read card
produces them.

How long a silence means "lifted" is learnt per module: real modules repeat
unevenly (300-500 ms apart on some, arduino12/rdm6300 #14, #17), so the hold
grows to 1.3x the longest gap seen between frames of a resting card, up to
`HOLD_CAP_S`, and never below `hold_ms`.  The removal carries the time the
silence was judged, not the last frame's, so the runner's debounce applies
on top (a backdated removal slipped past it).  A module that stops repeating
after `stops_after` frames (some do after ~28) cannot tell a lift from its own
silence: a silence that begins at that count is taken as "still resting",
and the lift is heard when another card, or the same one anew, is read.
"""
from __future__ import annotations

import logging
import termios
import threading
import time
from collections.abc import Callable

import serial

from kikimimi.readers.base import Emit, RawEvent

log = logging.getLogger(__name__)

STX, ETX = 0x02, 0x03
FAULTS: tuple[type[BaseException], ...] = (OSError, termios.error, serial.SerialException)
#: The longest a learnt hold grows: with the runner's 150 ms debounce a lift is heard within a second.
HOLD_CAP_S = 0.8
#: A silence this many frames short of `stops_after` is still the module's own (frames lost to noise).
STOP_SLACK = 2


def encode_frame(card: str, crlf: bool = False) -> bytes:
    """The frame a reader sends for the 10-hex-digit `card` (for emulators and tests)."""
    data = bytes.fromhex(card)
    if len(data) != 5:
        raise ValueError(f"a 125 kHz card id is 10 hex digits, not {card!r}")
    check = 0
    for b in data:
        check ^= b
    body = (card.upper() + f"{check:02X}").encode("ascii")
    return bytes([STX]) + body + (b"\r\n" if crlf else b"") + bytes([ETX])


class FrameParser:
    """Bytes in, card ids (lowercase hex) out; bad frames counted and dropped."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.bad = 0

    def feed(self, data: bytes) -> list[str]:
        self.buf += data
        cards: list[str] = []
        while True:
            start = self.buf.find(bytes([STX]))
            if start < 0:
                self.buf.clear()
                return cards
            end = self.buf.find(bytes([ETX]), start + 1)
            if end < 0:
                del self.buf[:start]
                if len(self.buf) > 64:  # no ETX in sight: noise
                    self.buf.clear()
                return cards
            body = bytes(self.buf[start + 1:end]).rstrip(b"\r\n")
            del self.buf[:end + 1]
            card = self._check(body)
            if card is None:
                self.bad += 1
            else:
                cards.append(card)

    @staticmethod
    def _check(body: bytes) -> str | None:
        if len(body) != 12:
            return None
        try:
            raw = bytes.fromhex(body.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            return None
        check = 0
        for b in raw[:5]:
            check ^= b
        return raw[:5].hex() if check == raw[5] else None


class SerialRfidDriver:
    """One RDM6300-style reader on a serial path; reopens it after faults."""

    def __init__(
        self,
        reader: str,
        path: str,
        baud: int = 9600,
        hold_ms: int = 600,
        retry_ms: int = 500,
        clock: Callable[[], float] = time.monotonic,
        stops_after: int = 0,
    ) -> None:
        self.reader = reader
        self.path = path
        self.baud = baud
        self.hold_s = hold_ms / 1000
        self.stops_after = stops_after
        self.longest_gap = 0.0  # between two frames of one resting card
        self.retry_s = retry_ms / 1000
        self.clock = clock
        self.parser = FrameParser()

    def __repr__(self) -> str:
        return f"SerialRfidDriver({self.reader!r} at {self.path})"

    def run(self, emit: Emit, stop: threading.Event) -> None:
        lost = False
        while not stop.is_set():
            try:
                port = serial.Serial(self.path, self.baud, timeout=0.02)
            except FAULTS as exc:
                if not lost:
                    emit(RawEvent(self.reader, "lost", self.clock(),
                                  detail=f"cannot open {self.path}: {exc}".splitlines()[0]))
                    lost = True
                stop.wait(self.retry_s)
                continue
            try:
                self._serve(port, emit, stop)
                lost = False
            except FAULTS as exc:
                emit(RawEvent(self.reader, "lost", self.clock(),
                              detail=f"{exc.__class__.__name__}: {exc}".splitlines()[0]))
                lost = True
                stop.wait(self.retry_s)
            finally:
                try:
                    port.close()
                except FAULTS:
                    pass

    def _serve(self, port: serial.Serial, emit: Emit, stop: threading.Event) -> None:
        self.parser = FrameParser()
        port.reset_input_buffer()
        # whatever is heard within one hold time was resting at connect
        opened = self.clock()
        present: dict[str, float] = {}
        while self.clock() - opened < self.hold_s and not stop.is_set():
            for card in self.parser.feed(port.read(256)):
                present[card] = self.clock()
        current = max(present, key=present.__getitem__) if present else None
        last_seen = present.get(current, 0.0) if current else 0.0
        emit(RawEvent(self.reader, "connected", self.clock(),
                      present=((current, None),) if current else ()))
        run = 0  # frames of `current` since it was (re)presented
        quiet = False  # `current` rests on a module that stopped repeating
        while not stop.is_set():
            data = port.read(256)
            now = self.clock()
            for card in self.parser.feed(data):
                if card != current:
                    if current is not None:
                        emit(RawEvent(self.reader, "removed", now, uid=current))
                    emit(RawEvent(self.reader, "placed", now, uid=card))
                    current, run = card, 0
                elif not quiet and run:
                    self.longest_gap = max(self.longest_gap, now - last_seen)
                run, quiet = (1, False) if quiet else (run + 1, quiet)
                last_seen = now
            if current is not None and not quiet and now - last_seen > self.hold():
                if self.stops_after and run >= self.stops_after - STOP_SLACK:
                    quiet = True  # the module's own silence, not a lift
                    continue
                emit(RawEvent(self.reader, "removed", now, uid=current))
                current, run = None, 0

    def hold(self) -> float:
        """Silence that means "lifted": `hold_ms`, or more for a module seen repeating slowly."""
        return max(self.hold_s, min(HOLD_CAP_S, 1.3 * self.longest_gap))
