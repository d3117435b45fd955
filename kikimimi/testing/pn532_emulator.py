"""A PN532 on a pseudo-terminal, speaking the host frame protocol over HSU.

It answers nfcpy's own `nfc.clf.pn532` driver: normal and extended frames,
ACK, length and data checksums, the line-speed change (and the trap that a
chip left at 921600 baud ignores a host talking at 115200), and enough of the
chip's commands to open the device, poll ISO 14443-A, and talk to one NTAG213
through InCommunicateThru.  Tests place, remove and swap tags, make a tag
vanish in the middle of a read, unplug the reader and plug it back.
"""
from __future__ import annotations

import collections
import logging
import threading

from kikimimi.testing.ntag import Ntag213
from kikimimi.testing.pty_device import PtyDevice

log = logging.getLogger(__name__)

ACK_FRAME = bytes.fromhex("0000ff00ff00")
ERROR_FRAME = bytes.fromhex("0000ff01ff7f8100")  # application-level syntax error
BAUDS = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # PN532 v1.6, supports ISO A, B, 18092
REG_FIFO_DATA = 0x6339
SENS_REQ = 0x26


def frame(payload: bytes) -> bytes:
    """A chip-to-host information frame around TFI D5 + `payload`."""
    body = b"\xd5" + payload
    dcs = (-sum(body)) & 0xFF
    n = len(body)
    if n < 255:
        head = bytes([0, 0, 0xFF, n, (-n) & 0xFF])
    else:
        hi, lo = n >> 8, n & 0xFF
        head = bytes([0, 0, 0xFF, 0xFF, 0xFF, hi, lo, (-(hi + lo)) & 0xFF])
    return head + body + bytes([dcs, 0])


class PN532Emulator(PtyDevice):
    """One emulated PN532 breakout behind a USB-UART, at the path `link`."""
    kind = "pn532"

    def __init__(self, link: str, speed: int = 115200) -> None:
        super().__init__(link)
        self.speed = speed  # the chip's current UART speed
        self.tag: Ntag213 | None = None
        self.regs: dict[int, int] = collections.defaultdict(int)
        self.commands: collections.Counter[str] = collections.Counter()
        self.lose_tag_after_reads: int | None = None
        self._lock = threading.RLock()
        self._buf = bytearray()
        self.garbled = 0  # frames ignored because host and chip speeds differed

    # -- the table side -------------------------------------------------------
    def place(self, tag: Ntag213) -> None:
        """Put a tag on the reader (replacing any: a swap)."""
        with self._lock:
            tag.active = False
            self.tag = tag

    def remove(self) -> None:
        with self._lock:
            self.tag = None

    def vanish(self) -> None:
        """Unplug: the line goes dead and the device node disappears."""
        with self._lock:
            self.link.vanish()
            self._buf.clear()

    def come_back(self, speed: int = 115200) -> None:
        """Plug back in (a power cycle puts the chip back at `speed`)."""
        with self._lock:
            self.speed = speed
            self.link.appear()

    # -- the wire side --------------------------------------------------------
    def _serve(self) -> None:
        while not self._stop.is_set():
            if not self.link.present:
                self._stop.wait(0.01)
                continue
            try:
                data = self.link.read(0.02)
            except OSError:
                continue
            if not data:
                continue
            with self._lock:
                if self.link.line_speed() != self.speed:
                    self.garbled += 1  # noise at the wrong speed: the chip hears nothing
                    self._buf.clear()
                    continue
                self._buf += data
                self._parse()

    def _parse(self) -> None:
        buf = self._buf
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                del buf[:max(0, len(buf) - 1)]
                return
            del buf[:start]
            if len(buf) < 4:
                return
            ln, lcs = buf[2], buf[3]
            if ln == 0x00 and lcs == 0xFF:  # host ACK (cancels nothing we have pending)
                del buf[:5]
                continue
            if ln == 0xFF and lcs == 0xFF:  # extended frame
                if len(buf) < 7:
                    return
                n = buf[4] << 8 | buf[5]
                if (buf[4] + buf[5] + buf[6]) & 0xFF:
                    del buf[:2]
                    continue
                head = 7
            else:
                if (ln + lcs) & 0xFF:
                    del buf[:2]
                    continue
                n, head = ln, 4
            if len(buf) < head + n + 1:
                return
            body = bytes(buf[head:head + n])
            dcs = buf[head + n]
            del buf[:head + n + 1]
            if (sum(body) + dcs) & 0xFF or len(body) < 2 or body[0] != 0xD4:
                log.debug("pn532 emulator: bad frame %s", body.hex())
                continue
            self.link.write(ACK_FRAME)
            self._command(body[1], body[2:])

    def _command(self, code: int, params: bytes) -> None:
        handler = getattr(self, f"_cmd_{code:02x}", None)
        if handler is None:
            self.commands[f"unknown {code:02x}"] += 1
            self.link.write(ERROR_FRAME)
            return
        self.commands[handler.__doc__ or f"{code:02x}"] += 1
        reply = handler(params)
        if reply is not None:
            self.link.write(frame(bytes([code + 1]) + reply))
        after = getattr(self, "_after", None)
        if after:
            self._after = None
            after()

    def _cmd_00(self, p: bytes) -> bytes:
        """Diagnose"""
        if p[:1] in (b"\x01", b"\x02"):
            return b"\x00"
        return p  # communication line test: echo

    def _cmd_02(self, p: bytes) -> bytes:
        """GetFirmwareVersion"""
        return FIRMWARE

    def _cmd_06(self, p: bytes) -> bytes:
        """ReadRegister"""
        addrs = [p[i] << 8 | p[i + 1] for i in range(0, len(p) - 1, 2)]
        return bytes(self.regs[a] for a in addrs)

    def _cmd_08(self, p: bytes) -> bytes:
        """WriteRegister"""
        for i in range(0, len(p) - 2, 3):
            self.regs[p[i] << 8 | p[i + 1]] = p[i + 2]
        return b""

    def _cmd_10(self, p: bytes) -> bytes:
        """SetSerialBaudrate"""
        new = BAUDS[p[0]] if p and p[0] < len(BAUDS) else self.speed

        def switch() -> None:
            self.speed = new
        self._after = switch  # the answer still goes out at the old speed
        return b""

    def _cmd_12(self, p: bytes) -> bytes:
        """SetParameters"""
        return b""

    def _cmd_14(self, p: bytes) -> bytes:
        """SAMConfiguration"""
        return b""

    def _cmd_16(self, p: bytes) -> bytes:
        """PowerDown"""
        return b"\x00"

    def _cmd_32(self, p: bytes) -> bytes:
        """RFConfiguration"""
        if p[:1] == b"\x01" and len(p) > 1 and not p[1] & 0x01 and self.tag:
            self.tag.active = False  # field off: the tag powers down
        return b""

    def _cmd_4a(self, p: bytes) -> bytes:
        """InListPassiveTarget"""
        brty, wanted = (p[1] if len(p) > 1 else 0), p[2:]
        tag = self.tag
        self.regs[REG_FIFO_DATA] = SENS_REQ
        if brty != 0 or tag is None:
            return b"\x00"
        if len(wanted) == 8 and wanted[0] == 0x88:
            wanted = wanted[1:]  # cascade tag before a 7-byte uid
        if wanted and wanted != tag.uid:
            return b"\x00"
        self.regs[REG_FIFO_DATA] = 0
        tag.active = True
        return (b"\x01\x01" + tag.sens_res + bytes([tag.sel_res, len(tag.uid)]) + tag.uid)

    def _cmd_42(self, p: bytes) -> bytes:
        """InCommunicateThru"""
        tag = self.tag
        if tag is not None and p[:1] == b"\x30" and self.lose_tag_after_reads is not None:
            if self.lose_tag_after_reads <= 0:
                self.tag = tag = None  # pulled out in the middle of a read
                self.lose_tag_after_reads = None
            else:
                self.lose_tag_after_reads -= 1
        answer = tag.command(p) if tag is not None else None
        if answer is None:
            return b"\x01"  # timeout: the target has not answered
        return b"\x00" + answer
