"""A PN532 on a pseudo-terminal, speaking the host frame protocol over HSU.

It answers nfcpy's own `nfc.clf.pn532` driver: normal and extended frames,
ACK, length and data checksums, the line-speed change (and the trap that a
chip left at 921600 baud ignores a host talking at 115200), and enough of the
chip's commands to open the device, poll ISO 14443-A, and talk to one NTAG213
through InCommunicateThru.  Tests place, remove and swap tags, make a tag
vanish in the middle of a read, unplug the reader and plug it back.

The chip can wait for a card (PN532 User Manual §7.3.1): RFConfiguration
CfgItem 0x05 sets MxRtyPassiveActivation; at 0xFF (the power-on value) an
InListPassiveTarget with no tag in the field stays pending, and is answered
the moment a tag is placed.  A host ACK frame aborts a pending command with
no response.  A tag that arrives just as the host's abort crosses it on the
wire is `place_at_abort`: the answer is already on its way, the abort finds
nothing to abort, and the late answer reaches the host after its ACK.
"""
from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable

from kikimimi.testing.ntag import Ntag213
from kikimimi.testing.pty_device import PtyDevice

log = logging.getLogger(__name__)

ACK_FRAME = bytes.fromhex("0000ff00ff00")
ERROR_FRAME = bytes.fromhex("0000ff01ff7f8100")  # application-level syntax error
BAUDS = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # PN532 v1.6, supports ISO A, B, 18092
REG_FIFO_DATA = 0x6339
SENS_REQ = 0x26
MAX_RETRIES_AT_POWER_ON = bytes([0xFF, 0x01, 0xFF])  # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
WAIT_FOREVER = 0xFF


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
        self.max_retries = MAX_RETRIES_AT_POWER_ON
        self._after: Callable[[], None] | None = None  # what a command does once its answer is out
        self.pending: bytes | None = None  # the parameters of an InListPassiveTarget still waiting
        self.aborted = 0  # pending commands a host ACK cancelled
        self.late_answers = 0  # answers that crossed the host's abort on the wire
        self._at_abort: Ntag213 | None = None
        self.crossing_delay = 0.003  # s the late answer takes to reach the host after the ACK

    @property
    def waiting_for_card(self) -> bool:
        """True while an InListPassiveTarget waits for a tag (MxRtyPassiveActivation 0xFF)."""
        with self._lock:
            return self.pending is not None

    # -- the table side -------------------------------------------------------
    def place(self, tag: Ntag213) -> None:
        """Put a tag on the reader (replacing any: a swap)."""
        with self._lock:
            tag.active = False
            self.tag = tag
            self._answer_pending()

    def place_at_abort(self, tag: Ntag213) -> None:
        """Place `tag` at the instant the host's next abort (ACK) reaches the chip,
        so the chip's answer is already on the wire: the race a host timeout can lose."""
        with self._lock:
            self._at_abort = tag

    def remove(self) -> None:
        with self._lock:
            self.tag = None

    def vanish(self) -> None:
        """Unplug: the line goes dead and the device node disappears."""
        with self._lock:
            self.link.vanish()
            self._buf.clear()
            self.pending = None

    def come_back(self, speed: int = 115200) -> None:
        """Plug back in (a power cycle puts the chip back at `speed`)."""
        with self._lock:
            self.speed = speed
            self.max_retries = MAX_RETRIES_AT_POWER_ON
            self.pending = None
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
            if ln == 0x00 and lcs == 0xFF:  # host ACK: aborts the command in progress
                del buf[:5]
                self._abort()
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
            if self.pending is not None:
                self.pending = None  # a new command supersedes the wait
                self.aborted += 1
            self.link.write(ACK_FRAME)
            self._command(body[1], body[2:])

    def _abort(self) -> None:
        if self.pending is None:
            return
        crossing, self._at_abort = self._at_abort, None
        if crossing is None:
            self.pending = None
            self.aborted += 1
            return
        # the tag arrived first: the chip's answer left before the ACK came in
        crossing.active = False
        self.tag = crossing
        answer = self._list(self.pending)
        self.pending = None
        self.late_answers += 1
        timer = threading.Timer(self.crossing_delay, self._send, (frame(b"\x4b" + answer),))
        timer.daemon = True
        timer.start()

    def _send(self, data: bytes) -> None:
        with self._lock:
            self.link.write(data)

    def _answer_pending(self) -> None:
        if self.pending is None:
            return
        answer = self._list(self.pending)
        if answer != b"\x00":  # the placed tag is one the command waits for
            self.pending = None
            self.link.write(frame(b"\x4b" + answer))

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
        after = self._after
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
        if p[:1] == b"\x05" and len(p) >= 4:
            self.max_retries = bytes(p[1:4])
        if p[:1] == b"\x01" and len(p) > 1 and not p[1] & 0x01 and self.tag:
            self.tag.active = False  # field off: the tag powers down
        return b""

    def _cmd_4a(self, p: bytes) -> bytes | None:  # None: no answer yet, the chip waits for a tag
        """InListPassiveTarget"""
        answer = self._list(p)
        if answer == b"\x00" and self.max_retries[2] == WAIT_FOREVER and p[1:2] == b"\x00":
            self.pending = bytes(p)  # retry until a target answers: no response yet
            return None
        return answer

    def _list(self, p: bytes) -> bytes:
        """InListPassiveTarget's answer with the tag in the field now."""
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
