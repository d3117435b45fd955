"""125 kHz serial RFID readers (RDM6300, ID-12LA) through pyserial.

They print a frame — STX, 10 hex digits of card data, 2 hex digits of
checksum (XOR of the 5 data bytes), maybe CR LF, ETX — over and over while a
card rests, and nothing when it leaves; so removal is inferred from
`hold_ms` of silence.  Frames with a bad checksum are dropped: at 9600 baud a
half-read card produces them.
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
        hold_ms: int = 250,
        retry_ms: int = 500,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reader = reader
        self.path = path
        self.baud = baud
        self.hold_s = hold_ms / 1000
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
        while not stop.is_set():
            data = port.read(256)
            now = self.clock()
            for card in self.parser.feed(data):
                if card != current:
                    if current is not None:
                        emit(RawEvent(self.reader, "removed", now, uid=current))
                    emit(RawEvent(self.reader, "placed", now, uid=card))
                    current = card
                last_seen = now
            if current is not None and now - last_seen > self.hold_s:
                emit(RawEvent(self.reader, "removed", last_seen, uid=current))
                current = None
