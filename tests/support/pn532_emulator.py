"""A PN532 on a pseudo-terminal, speaking the host frame protocol over HSU.

It answers nfcpy's own `nfc.clf.pn532` driver: normal and extended frames,
ACK, length and data checksums, the line-speed change (and the trap that a
chip left at 921600 baud ignores a host talking at 115200), and enough of the
chip's commands to open the device, poll ISO 14443-A for one or two targets,
and talk to NTAG213s through InCommunicateThru and InDataExchange.  Tests
place, remove and swap tags, make a tag vanish in the middle of a read,
unplug the reader and plug it back.

The chip can wait for a card (PN532 User Manual §7.3.1): RFConfiguration
CfgItem 0x05 sets MxRtyPassiveActivation; at 0xFF (the power-on value) an
InListPassiveTarget with no tag in the field stays pending, and is answered
the moment a tag is placed.  A host ACK frame aborts a pending command with
no response.  A tag that arrives just as the host's abort crosses it on the
wire is `place_at_abort`: the answer is already on its way, the abort finds
nothing to abort, and the late answer reaches the host after its ACK.

With `timing` (a `ChipTiming`, see tests/support/chip_timing.py) the chip
also takes a real chip's time: every byte its UART time at the current
speed, every command the chip's processing, every answer the USB-serial
adapter's latency, in order.  Without it, answers are instant (the protocol
without the clock: quick tests).

In both, PowerDown really sleeps: the chip hears nothing until a 0x55 byte
arrives on HSU (if HSU is among the wake-up sources), then nothing for
`wake_s` more (PN532 User Manual §7.2.11 as libnfc's pn532_uart.c applies
it).  Several tags may rest in the field at once, and they answer in the
order a real chip's anticollision finds them, by uid, not by when they were
placed (`anticollision_order`).  InListPassiveTarget lists up to MaxTg = 2
of them (PN532 User Manual UM0701-02 §7.3.5), each under its Tg number for
InDataExchange.  The RF field's on-time is counted (`field_on_seconds`).
"""
from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable
from typing import Self

from support.chip_timing import REAL, ChipTiming, DelayLine
from support.ntag import Ntag213
from support.pty_device import PtyDevice

log = logging.getLogger(__name__)

ACK_FRAME = bytes.fromhex("0000ff00ff00")
ERROR_FRAME = bytes.fromhex("0000ff01ff7f8100")  # application-level syntax error
BAUDS = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # PN532 v1.6, supports ISO A, B, 18092
REG_FIFO_DATA = 0x6339
SENS_REQ = 0x26
MAX_RETRIES_AT_POWER_ON = bytes([0xFF, 0x01, 0xFF])  # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
WAIT_FOREVER = 0xFF
HSU_WAKE = 0x10  # PowerDown WakeUpEnable bit of the HSU line
WAKE_BYTE = 0x55
MAX_TG = 2  # InListPassiveTarget lists at most two targets (UM0701-02 §7.3.5)
STATUS_TIMEOUT = 0x01  # the target did not answer (UM0701-02 §7.1, error codes)


def _reversed_bits(byte: int) -> int:
    return int(f"{byte:08b}"[::-1], 2)


def anticollision_order(tags: list[Ntag213]) -> list[Ntag213]:
    """The order in which a PCD's anticollision selects the tags in its field.

    ISO/IEC 14443-3 §6.4.3.1: each tag sends its UID CLn bit by bit, bytes in
    order and each byte least significant bit first; at the first bit where
    they collide the PCD sends the bits before it "followed by a (0)b or (1)b,
    decided by the PCD.  A typical implementation adds a (1)b" (step 7), and
    only tags matching go on.  We model that typical choice: the tag with a 1
    at the first differing bit, in transmission order, is selected first; the
    chip then halts it and finds the next the same way.  UM0701-02 does not
    say which bit the PN532 adds; what matters to a host is that the answer
    depends on the uids, not on which tag was placed first.  (For 7-byte uids
    the cascade tag 0x88 is common to all, so the uid bytes decide.)"""
    return sorted(tags, key=lambda t: [_reversed_bits(b) for b in t.uid], reverse=True)


def listed_targets(tags: list[Ntag213], params: bytes, max_tg: int = MAX_TG) -> list[Ntag213]:
    """The tags an InListPassiveTarget with `params` (MaxTg, BrTy, InitiatorData) lists,
    in anticollision order; at most `max_tg` (the chip's limit) and MaxTg of them.
    Shared by every emulated PN53x (serial and USB): the chip is the same."""
    wanted_tg = min(params[0], max_tg) if params else 1
    brty, wanted = (params[1] if len(params) > 1 else 0), params[2:]
    if brty != 0 or not tags or wanted_tg < 1:
        return []
    if len(wanted) == 8 and wanted[0] == 0x88:
        wanted = wanted[1:]  # cascade tag before a 7-byte uid
    return anticollision_order([t for t in tags if not wanted or t.uid == wanted])[:wanted_tg]


def list_answer(found: list[Ntag213]) -> bytes:
    """InListPassiveTarget's answer for `found`: NbTg, then per target Tg, SENS_RES,
    SEL_RES, NFCIDLength, NFCID (UM0701-02 §7.3.5)."""
    out = bytes([len(found)])
    for tg, tag in enumerate(found, 1):
        out += bytes([tg]) + tag.sens_res + bytes([tag.sel_res, len(tag.uid)]) + tag.uid
    return out


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

    def __init__(self, link: str, speed: int = 115200, timing: ChipTiming | None = None,
                 asleep: bool = False) -> None:
        super().__init__(link)
        self.speed = speed  # the chip's current UART speed
        self.timing = timing
        self.tags: list[Ntag213] = []  # in the field, in the order they were placed
        self._selected: Ntag213 | None = None  # the tag the last InListPassiveTarget activated
        self._listed: list[Ntag213] = []  # the targets of the last InListPassiveTarget, Tg 1, 2
        self.regs: dict[int, int] = collections.defaultdict(int)
        self.commands: collections.Counter[str] = collections.Counter()
        self.lose_tag_after_reads: int | None = None
        self._lock = threading.RLock()
        self._buf = bytearray()
        self.garbled = 0  # frames ignored because host and chip speeds differed
        self.max_retries = MAX_RETRIES_AT_POWER_ON
        self.pending: bytes | None = None  # the parameters of an InListPassiveTarget still waiting
        self.aborted = 0  # pending commands a host ACK cancelled
        self.late_answers = 0  # answers that crossed the host's abort on the wire
        self.late_answer_out = threading.Event()  # the instant chip has written a late answer
        self._at_abort: Ntag213 | None = None
        self.crossing_delay = 0.003  # s the late answer takes to reach the host after the ACK (instant chip)
        self._hold_next = 0.0  # `hold_next_answer`
        # InDataExchange to a listed target that is not the selected one selects it first (as we read
        # UM0701-02 §7.3.12); False: it does not, and the exchange times out (a chip that reads it otherwise)
        self.selects_on_exchange = True
        # sleep (PowerDown) and wake-up
        self.asleep = asleep
        self.wakes_on_hsu = True
        self.unheard_asleep = 0  # bytes a sleeping chip did not hear
        self.wakeups = 0
        self._deaf_until = 0.0  # monotonic time before which arriving bytes are lost (waking up)
        # the wire's clock: when the chip's receiver, processor and transmitter are next free
        self._rx_free = self._busy_until = self._tx_free = 0.0
        self._line: DelayLine | None = None
        self._after: Callable[[], None] | None = None  # what a command does once its answer is out
        # the RF field, for field-on time per minute
        self.field_on = False
        self._field_since = 0.0
        self._field_total = 0.0

    # -- compatibility: the one tag tests usually mean --------------------------
    @property
    def tag(self) -> Ntag213 | None:
        """The tag in the field (the first placed, if several)."""
        with self._lock:
            return self.tags[0] if self.tags else None

    @tag.setter
    def tag(self, tag: Ntag213 | None) -> None:
        with self._lock:
            self.tags = [tag] if tag is not None else []

    @property
    def waiting_for_card(self) -> bool:
        """True while an InListPassiveTarget waits for a tag (MxRtyPassiveActivation 0xFF)."""
        with self._lock:
            return self.pending is not None

    def field_on_seconds(self) -> float:
        """Seconds the RF field has been on since the emulator started."""
        with self._lock:
            extra = time.monotonic() - self._field_since if self.field_on else 0.0
            return self._field_total + extra

    def command_count(self) -> int:
        with self._lock:
            return sum(self.commands.values())

    # -- the table side -------------------------------------------------------
    def place(self, tag: Ntag213) -> None:
        """Put a tag on the reader (replacing any: a swap)."""
        with self._lock:
            tag.active = False
            self.tags = [tag]
            self._answer_pending()

    def add(self, *tags: Ntag213) -> None:
        """Put one more tag (or several at the same instant) in the field beside those resting there."""
        with self._lock:
            for tag in tags:
                tag.active = False
                self.tags.append(tag)
            self._answer_pending()

    def hold_next_answer(self, seconds: float) -> None:
        """The adapter holds the chip's next answer (and so all behind it) `seconds`
        longer: the Raspberry Pi's USB quirk nfcpy describes, up to ~1 s on the first
        data after a serial port is reopened (nfc/clf/pn532.py, init).  Needs `timing`."""
        if self.timing is None:
            raise ValueError("hold_next_answer needs a timing model (the instant chip has no wire)")
        with self._lock:
            self._hold_next = seconds

    def place_at_abort(self, tag: Ntag213) -> None:
        """Place `tag` at the instant the host's next abort (ACK) reaches the chip,
        so the chip's answer is already on the wire: the race a host timeout can lose."""
        with self._lock:
            self._at_abort = tag

    def remove(self, tag: Ntag213 | None = None) -> None:
        """Lift `tag` (every tag when None)."""
        with self._lock:
            self.tags = [t for t in self.tags if tag is not None and t is not tag]
            if self._selected is not None and self._selected not in self.tags:
                self._selected = None
            self._listed = [t for t in self._listed if t in self.tags]

    def vanish(self) -> None:
        """Unplug: the line goes dead and the device node disappears."""
        with self._lock:
            self.link.vanish()
            if self._line is not None:
                self._line.clear()
            self._buf.clear()
            self.pending = None
            self._set_field(False)

    def come_back(self, speed: int = 115200) -> None:
        """Plug back in (a power cycle puts the chip back at `speed`, awake)."""
        with self._lock:
            self.speed = speed
            self.max_retries = MAX_RETRIES_AT_POWER_ON
            self.pending = None
            self.asleep = False
            self.link.appear()

    def start(self) -> Self:
        if self.timing is not None:
            self._line = DelayLine(self._write_now, self.path)
        return super().start()

    def stop(self) -> None:
        super().stop()
        if self._line is not None:
            self._line.close()

    # -- the wire side --------------------------------------------------------
    def _byte_s(self) -> float:
        return (self.timing or REAL).byte_s(self.speed)

    def _write_now(self, data: bytes) -> None:
        with self._lock:
            self.link.write(data)

    def _send(self, data: bytes, ready: float | None = None) -> None:
        """One answer from the chip: at once, or after its UART time and the adapter's latency."""
        if self.timing is None:
            self.link.write(data)
            return
        start = max(ready if ready is not None else time.monotonic(), self._tx_free)
        self._tx_free = start + len(data) * self._byte_s()
        assert self._line is not None
        hold, self._hold_next = self._hold_next, 0.0
        self._line.send(data, self._tx_free + self.timing.adapter_latency_s + hold)

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
                per = self._byte_s()
                base = max(time.monotonic(), self._rx_free)  # arrival of the chunk's first byte
                self._rx_free = base + len(data) * per
                data = self._heard(data, base, per)
                if data:
                    self._buf += data
                    self._parse()

    def _heard(self, data: bytes, base: float, per: float) -> bytes:
        """The bytes of a chunk the chip hears: none while asleep until a 0x55, none while waking."""
        if self.asleep:
            at = data.find(WAKE_BYTE) if self.wakes_on_hsu else -1
            if at < 0:
                self.unheard_asleep += len(data)
                return b""
            self.asleep = False
            self.wakeups += 1
            self._deaf_until = base + (at + 1) * per + (self.timing or REAL).wake_s
            self.unheard_asleep += at + 1
            data, base = data[at + 1:], base + (at + 1) * per
        if self._deaf_until > base:
            lost = min(len(data), int((self._deaf_until - base) / per) + 1)
            self.unheard_asleep += lost
            data = data[lost:]
        return data

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
            begin = max(self._rx_free, self._busy_until)
            timing = self.timing
            self._send(ACK_FRAME, begin + (timing.ack_s if timing else 0.0))
            self._command(body[1], body[2:], begin)

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
        self.tags = [crossing]
        answer = self._list(self.pending)
        self.pending = None
        self.late_answers += 1
        if self.timing is not None:
            self._send(frame(b"\x4b" + answer))  # the delay line brings it after the ACK
            return
        timer = threading.Timer(self.crossing_delay, self._write_late, (frame(b"\x4b" + answer),))
        timer.daemon = True
        timer.start()

    def _write_late(self, data: bytes) -> None:
        self._write_now(data)
        self.late_answer_out.set()

    def _answer_pending(self) -> None:
        if self.pending is None:
            return
        answer = self._list(self.pending)
        if answer != b"\x00":  # the placed tag is one the command waits for
            self.pending = None
            ready = time.monotonic() + (self.timing.list_found_s if self.timing else 0.0)
            self._send(frame(b"\x4b" + answer), ready)

    def _cost(self, code: int, params: bytes, reply: bytes | None) -> float:
        """The chip's time for one command, frame in to answer out (the timing model)."""
        t = self.timing
        if t is None:
            return 0.0
        if code == 0x4A:
            found = reply[0] if reply else 0
            if not found:
                return t.list_empty_s
            # asked for two: the first halted, then one more anticollision loop or a REQA unanswered
            wanted = min(params[0], MAX_TG) if params else 1
            return t.list_found_s + (found - 1) * t.next_target_s + (wanted - found) * t.no_next_target_s
        if code in (0x40, 0x42):
            over_air = len(params) + 2 + (len(reply) + 1 if reply and len(reply) > 1 else 0)
            return t.exchange_s + over_air * t.rf_byte_s
        return t.local_s

    def _command(self, code: int, params: bytes, begin: float) -> None:
        handler = getattr(self, f"_cmd_{code:02x}", None)
        if handler is None:
            self.commands[f"unknown {code:02x}"] += 1
            self._send(ERROR_FRAME, begin + (self.timing.local_s if self.timing else 0.0))
            return
        self.commands[handler.__doc__ or f"{code:02x}"] += 1
        reply = handler(params)
        if reply is not None:
            ready = begin + self._cost(code, params, reply)
            out = frame(bytes([code + 1]) + reply)
            self._send(out, ready)
            if self.timing is not None:
                self._busy_until = self._tx_free
        after = self._after
        if after:
            self._after = None
            after()

    def _set_field(self, on: bool) -> None:
        now = time.monotonic()
        if on and not self.field_on:
            self._field_since = now
        elif not on and self.field_on:
            self._field_total += now - self._field_since
        self.field_on = on

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
        wake = p[0] if p else 0

        def sleep() -> None:  # after the answer: the chip sleeps until woken as the manual says
            self.asleep = True
            self.wakes_on_hsu = bool(wake & HSU_WAKE)
            self._set_field(False)
            for tag in self.tags:
                tag.active = False
        self._after = sleep
        return b"\x00"

    def _cmd_32(self, p: bytes) -> bytes:
        """RFConfiguration"""
        if p[:1] == b"\x05" and len(p) >= 4:
            self.max_retries = bytes(p[1:4])
        if p[:1] == b"\x01" and len(p) > 1 and not p[1] & 0x01:
            self._set_field(False)
            for tag in self.tags:
                tag.active = False  # field off: the tags power down
        return b""

    def _cmd_4a(self, p: bytes) -> bytes | None:
        """InListPassiveTarget"""
        self._set_field(True)
        answer = self._list(p)
        if answer == b"\x00" and self.max_retries[2] == WAIT_FOREVER and p[1:2] == b"\x00":
            self.pending = bytes(p)  # retry until a target answers: no response yet
            return None
        return answer

    def _list(self, p: bytes) -> bytes:
        """InListPassiveTarget's answer with the tags in the field now: NbTg, then
        per target Tg, SENS_RES, SEL_RES, NFCIDLength, NFCID (UM0701-02 §7.3.5)."""
        self.regs[REG_FIFO_DATA] = SENS_REQ
        found = listed_targets(self.tags, p)
        if not found:
            return b"\x00"
        self.regs[REG_FIFO_DATA] = 0
        for other in self.tags:
            other.active = False
        found[-1].active = True  # the ones before it were halted to find the next
        self._selected = found[-1]
        self._listed = found
        return list_answer(found)

    def _cmd_40(self, p: bytes) -> bytes:
        """InDataExchange"""
        self._set_field(True)
        tg = p[0] & 0x3F if p else 0
        tag = self._listed[tg - 1] if 1 <= tg <= len(self._listed) else None
        if tag is not None and tag is not self._selected and not self.selects_on_exchange:
            return bytes([STATUS_TIMEOUT])
        if tag is not None and tag in self.tags and tag is not self._selected:
            for other in self.tags:  # the chip re-selects the target it is told to talk to
                other.active = False
            tag.active = True
            self._selected = tag
        if tag is not None and p[1:2] == b"\x30":
            tag = self._maybe_lose(tag)
        answer = tag.command(p[1:]) if tag is not None and tag in self.tags else None
        if answer is None:
            return bytes([STATUS_TIMEOUT])
        return b"\x00" + (answer[:-2] if len(answer) > 2 else answer)  # the chip checks and strips CRC_A

    def _maybe_lose(self, tag: Ntag213) -> Ntag213 | None:
        """`lose_tag_after_reads`: the tag is pulled out in the middle of a read."""
        if self.lose_tag_after_reads is None:
            return tag
        if self.lose_tag_after_reads <= 0:
            self.remove(tag)
            self.lose_tag_after_reads = None
            return None
        self.lose_tag_after_reads -= 1
        return tag

    def _cmd_42(self, p: bytes) -> bytes:
        """InCommunicateThru"""
        self._set_field(True)
        tag = self._selected
        if tag is not None and p[:1] == b"\x30":
            tag = self._maybe_lose(tag)
        answer = tag.command(p) if tag is not None else None
        if answer is None:
            return b"\x01"  # timeout: the target has not answered
        return b"\x00" + answer
