"""NFC readers through nfcpy: a PN532 on any serial path, and nfcpy's USB readers.

Only ISO 14443-A at 106 kbps is polled (the pieces carry NTAG21x tags); a tag
is identified by an NDEF text record `SET:NAME` when it carries one, else by
its uid, which the table maps through its tag map.

Why the PN532 is opened by hand rather than with `ContactlessFrontend('tty:…')`:
nfcpy's `tty:` paths only match names directly under /dev, and a udev alias
like /dev/kikimimi-hand-1 (or a test's pty symlink) must work.  And nfcpy
raises the chip's line speed to 921600 baud; a process that dies without
closing leaves the chip there, so opening must find the chip's speed again.

While its reader is empty, a PN532 on a serial line waits for a card itself
(`CardWait`) instead of being polled: one chip command a second instead of
four every poll, and a tag is seen the moment it answers, not at the next poll.
The RF field is then on all the time; `rf = "duty"` or `"poll"` trades
latency for field-on time (docs/readers.md has the measured table).

A placement costs as few chip commands as the piece allows: a uid the table's
tag map knows is the piece, so the waiting InListPassiveTarget's answer is
the whole read (one command); only an unknown uid is read for an NDEF name,
and on a PN532 that read is a few Type 2 READs of the tag the chip already
selected (`read_type2_name`), not nfcpy's full activation.

A PN532 lists up to two targets at once (MaxTg = 2), so two pieces put down
together are both heard, and a piece put beside a resting one cannot hide it:
anticollision answers by uid, and with one target asked for, the newcomer
could win and the resting piece looked lifted.

The USB readers built on the same chip family (ACR122U: a PN532; PN533 boards;
RC-S330: Sony's RC-S956) take the same commands through nfcpy's USB drivers,
whose `chipset.command` does the USB framing: `CardWait` polls them.  The
RC-S380 does not list targets itself; its frontend brings its own `Finder`
(`UsbFrontend.finder`: kikimimi/readers/rcs380_poll.py).

The chip may be asleep whenever we open it (nfcpy's `close()` ends with
PowerDown; so does every reader fault we recover from).  On HSU a sleeping
PN532 hears nothing until a 0x55 byte and a pause (PN532 User Manual §7.2.11,
as libnfc's pn532_uart.c applies it); nfcpy sends zeros, so `HsuLine` sends
the wake-up first.
"""
from __future__ import annotations

import errno
import logging
import os
import struct
import termios
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Protocol

import ndef
import nfc
import nfc.clf
import nfc.clf.pn532
import nfc.clf.pn53x
import nfc.clf.rcs380
import nfc.clf.rcs956
import nfc.clf.transport
import nfc.tag

from kikimimi.readers.base import Emit, RawEvent
from kikimimi.contract.tagmap import NAME as TAG_NAME  # the runtime's own rule for piece names

log = logging.getLogger(__name__)

RECOVERY_SPEEDS = (921600, 460800, 230400, 115200)
# Anything nfcpy or the serial line throws when a device is unplugged or
# answers nonsense.  termios.error is not an OSError, and is what a dead
# serial line raises from the flush nfcpy does before every write.
DEVICE_FAULTS: tuple[type[BaseException], ...] = (
    OSError, termios.error, nfc.clf.Error, nfc.clf.pn532.Chipset.Error,
    nfc.clf.rcs380.StatusError, nfc.clf.rcs380.CommunicationError,  # an RC-S380's status answers
)
# What nfcpy's drivers raise when a reader's frame is short or garbled: they index, unpack or
# look up what the frame should have held (an RC-S380's status of fewer than four bytes is a
# struct.error in CommunicationError itself).  The reader is then lost and reopened, never dead.
NONSENSE: tuple[type[Exception], ...] = (TypeError, IndexError, KeyError, struct.error)

# RFConfiguration CfgItem 0x05 (MaxRetries): MxRtyATR, MxRtyPSL, MxRtyPassiveActivation.
MAX_RETRIES = 0x05
WAIT_FOR_CARD = b"\x01\x00\xff"  # 0xFF: InListPassiveTarget retries until a target answers
ONE_TRY = b"\x01\x00\x01"  # nfcpy's own setting at init: answer "no target" at once
# After the host's timeout aborted a waiting InListPassiveTarget, how long an
# answer that crossed the abort on the wire may still take to arrive (a 7-byte
# uid's answer is ~25 bytes: ~2 ms at 115200 baud).  A busy host does not make
# it longer: the bytes wait in the kernel's buffer, and the reset drops them.
DRAIN_S = 0.01
# The HSU wake-up: 0x55 0x55, then zeros that fill the chip's wake-up time on the
# line itself (24 bytes are 2.1 ms at 115200 baud), then a pause for faster lines.
WAKE_PREAMBLE = b"\x55\x55" + bytes(22)
WAKE_S = 0.002
POWER_DOWN, IN_LIST, IN_DATA_EXCHANGE = 0x16, 0x4A, 0x40
# A frame lost or late on the line (nfcpy: no ACK within its 100 ms, a checksum error, an
# answer to another command) is not an unplugged reader: `CardWait.resync` aborts what the
# chip is doing and asks for its firmware version (an answer no other command gives) until
# it comes, at most this many times, each with nfcpy's own wait for an ACK: ~1 s, what the
# reopen it spares costs (retry_ms 500 + nfcpy's open).  A host starved by load held
# every pseudo-terminal's bytes up to 0.63 s at once (bench/reader_latency.py, docs/readers.md).
GET_FIRMWARE_VERSION, RESYNC_TRIES = 0x02, 10
FIRMWARE_PROBE = b"\x00\x00\xff\x02\xfe\xd4\x02\x2a\x00"
LINE_HICCUPS = (errno.EIO, errno.ETIMEDOUT)
# Resyncs in a row (no round of the reader completed between them) before the reader is
# lost: the round after a resync can meet the tail of a late probe's answer that the next
# command's input flush cut in two ("invalid frame start sequence"), and resyncs again.
RESYNCS_IN_A_ROW = 3
# A reader's first open whose chip does not answer is tried this many times (retry_ms apart)
# before the table hears it lost: a table boots with its host at its busiest (the voice,
# the sound devices, every reader opening at once), and a host that reads late never makes
# a real chip late, but nfcpy's open gives the chip's ACK only 100 ms.  A device the OS
# says is not there (no such file, no permission) is said at once (`_not_there`).
FIRST_OPEN_TRIES = 3
NOT_THERE = (errno.ENOENT, errno.EACCES, errno.ENOTDIR, errno.EPERM)
MAX_TARGETS = 2  # InListPassiveTarget's MaxTg: a PN532 lists at most two (UM0701-02 §7.3.5)
# The RC-S956 (Sony RC-S330/360/370) is asked for one: nfcpy's rcs956 driver declares one
# (`in_list_passive_target_max_target`), and Sony's command reference is not public.
ONE_TARGET_CHIPS: tuple[type, ...] = (nfc.clf.rcs956.Chipset,)
SYNTAX_ERROR = 0x7F  # the chip's error frame (UM0701-02 §6.2.1.5): it refuses the command as sent
READ, READ_TIMEOUT_S = 0x30, 0.1  # Type 2 READ: 4 pages (16 bytes) from the one named
MAX_READS = 64  # 1 KiB: more than any NTAG21x's data area; a CC claiming more is not believed
# nfcpy gives the first ACK after opening 1.5 s (not 0.1 s) on a Raspberry Pi when the
# port's name is /dev/ttyUSB*: the Pi's USB can hold a serial adapter's first data up to
# ~1 s after a reopen (nfc/clf/pn532.py, init).  We grant it to any path that leads there.
PI_FIRST_ACK_MS = 1500
USB_SERIAL_NAMES = ("ttyUSB", "ttyACM")
BOARD_MODEL = "/proc/device-tree/model"
RF_MODES = ("wait", "duty", "poll")

# (uid, name on the tag) -> the name to write on it now, or None to leave it
Labeller = Callable[[str, str | None], str | None]


def describe(exc: BaseException) -> str:
    """A one-line reason for a device fault."""
    text = str(exc) or exc.__class__.__name__
    return f"{exc.__class__.__name__}: {text}".splitlines()[0]


class HsuLine(nfc.clf.transport.TTY):
    """nfcpy's serial transport, for a chip that may sleep and a line that may lag.

    - The first command after opening, and the first after a PowerDown, goes
      behind the HSU wake-up preamble (a sleeping chip ignores nfcpy's zeros).
    - An InListPassiveTarget answer that arrives when another command's
      answer is due is the late answer to a wait the host aborted, delayed by
      the USB-serial adapter past the drain: it is dropped (the tag is still
      in the field; the next wait finds it at once), not taken as the answer.
    """

    asleep = True  # until our first write: a chip we did not wake may be in PowerDown
    strays = 0
    first_read_ms = 0  # the least wait for the first answer after opening (`first_ack_ms`)

    def open(self, port: str, baudrate: int = 115200) -> None:
        super().open(port, baudrate)
        self._last_cmd: int | None = getattr(self, "_last_cmd", None)
        self._first_read = True

    def write(self, frame: bytes) -> None:
        tty = self.tty
        if self.asleep and tty is not None:
            super().write(WAKE_PREAMBLE)
            tty.flush()
            time.sleep(max(0.0, WAKE_S - len(WAKE_PREAMBLE) * 10 / (tty.baudrate or 115200)) + 0.0005)
            self.asleep = False
        super().write(frame)
        code = _command_code(bytes(frame))
        if code is not None:
            self._last_cmd = code
            if code == POWER_DOWN:
                self.asleep = True

    def read(self, timeout: int) -> bytearray:
        if getattr(self, "_first_read", False):
            self._first_read = False
            timeout = max(timeout, self.first_read_ms)
        while True:
            frame = super().read(timeout)
            code = _answer_code(bytes(frame))
            # (a resync's probes answer late the same way)
            if code in (IN_LIST + 1, GET_FIRMWARE_VERSION + 1) and code != (self._last_cmd or 0) + 1:
                self.strays += 1
                log.debug("dropped a late InListPassiveTarget answer on %s", self.port)
                continue
            return frame


def _command_code(frame: bytes) -> int | None:
    """The command code of a host frame (after its preamble), None for an ACK or noise."""
    start = frame.find(b"\x00\xff")
    if start < 0 or len(frame) < start + 6:
        return None
    body = start + (7 if frame[start + 2:start + 4] == b"\xff\xff" else 4)
    return frame[body + 1] if len(frame) > body + 1 and frame[body] == 0xD4 else None


def _answer_code(frame: bytes) -> int | None:
    """The answer code of a chip information frame, None for an ACK or anything else."""
    if not frame.startswith(b"\x00\x00\xff") or len(frame) < 7 or frame[3:5] == b"\x00\xff":
        return None
    body = 8 if frame[3:5] == b"\xff\xff" else 5
    return frame[body + 1] if len(frame) > body + 1 and frame[body] == 0xD5 else None


# -- opening ---------------------------------------------------------------------
def board_model() -> str:
    """The board's model from the device tree ("Raspberry Pi 4 Model B Rev 1.4"), "" elsewhere."""
    try:
        with open(BOARD_MODEL, "rb") as fh:
            return fh.read(200).strip(b"\x00").decode("ascii", "replace")
    except OSError:
        return ""


def device_names(path: str, limit: int = 16) -> list[str]:
    """`path` and every name its symlinks lead through, in order (bounded: a loop ends it)."""
    names = [path]
    for _ in range(limit):
        try:
            target = os.readlink(names[-1])
        except OSError:
            break
        names.append(os.path.normpath(os.path.join(os.path.dirname(names[-1]), target)))
    return names


def first_ack_ms(path: str, model: Callable[[], str] | None = None) -> int:
    """How long the first answer after opening `path` may take, in ms (0: nfcpy's own).

    nfcpy waits 1.5 s on a Raspberry Pi only for a port *named* /dev/ttyUSB*;
    the names a table uses (/dev/serial/by-path/..., /dev/kikimimi-hand-1) are
    symlinks to it, so the name is followed to where it leads."""
    if not (model or board_model)().startswith("Raspberry Pi"):
        return 0
    if any(os.path.basename(name).startswith(USB_SERIAL_NAMES) for name in device_names(path)):
        return PI_FIRST_ACK_MS
    return 0


def _wrap(device: nfc.clf.device.Device, path: str) -> nfc.ContactlessFrontend:
    device._path = path  # nfcpy's connect() sets these; __str__ needs them
    device._device_name = getattr(device, "_device_name", "PN532")
    clf = nfc.ContactlessFrontend()
    clf.device = device
    return clf


def _bring_back_to_115200(path: str, speed: int) -> bool:
    """If a PN532 answers at `speed`, tell it to go back to 115200 baud."""
    transport = HsuLine(path)
    transport.first_read_ms = first_ack_ms(path)
    try:
        transport.open(path, speed)
        chipset = nfc.clf.pn532.Chipset(transport, logger=log)
        chipset.get_firmware_version()
        if speed != 115200:
            chipset.set_serial_baudrate(115200)
        return True
    except DEVICE_FAULTS as exc:
        log.debug("no PN532 at %d baud on %s: %s", speed, path, describe(exc))
        return False
    finally:
        _close_transport(transport)


def _close_transport(transport: nfc.clf.transport.TTY) -> None:
    tty = transport.tty
    transport.tty = None
    if tty is not None:
        try:
            tty.close()
        except DEVICE_FAULTS:
            pass


def open_pn532(path: str, baud: int = 115200) -> nfc.ContactlessFrontend:
    """Open a PN532 on the serial device at `path` (any path, symlinks too).

    Tries nfcpy's own initialisation (which starts at 115200 and then raises
    the speed); if the chip is silent, looks for it at `baud` and the speeds
    nfcpy may have left it at, brings it back to 115200 and tries again.
    """
    slow_first_ack = first_ack_ms(path)

    def attempt() -> nfc.ContactlessFrontend:
        transport = HsuLine(path)
        transport.first_read_ms = slow_first_ack
        try:
            return _wrap(nfc.clf.pn532.init(transport), path)
        except BaseException:
            _close_transport(transport)
            raise

    try:
        return attempt()
    except DEVICE_FAULTS as exc:
        if isinstance(exc, OSError) and exc.errno in (errno.ENOENT, errno.EACCES):
            raise
        first = exc
    speeds = [baud] + [s for s in RECOVERY_SPEEDS if s != baud]
    for speed in speeds:
        if _bring_back_to_115200(path, speed):
            log.info("PN532 on %s was at %d baud; reset to 115200", path, speed)
            return attempt()
    raise OSError(errno.ENODEV, f"no PN532 answers on {path} ({describe(first)})")


def _not_there(exc: BaseException) -> bool:
    """The OS's own answer that there is no device to open: no retry makes one appear."""
    return isinstance(exc, OSError) and exc.errno in NOT_THERE


def open_usb(path: str) -> nfc.ContactlessFrontend:
    """Open one of nfcpy's USB readers (PN533, ACR122U, RC-S380) at `usb:…`."""
    clf = nfc.ContactlessFrontend()
    if not clf.open(path):
        raise OSError(errno.ENODEV, f"no NFC reader at {path}")
    return clf


def close_quietly(clf: nfc.ContactlessFrontend) -> None:
    """Close a frontend whose device may already be gone."""
    device = clf.device
    try:
        clf.close()  # puts a PN532 back to 115200 baud and to sleep
    except DEVICE_FAULTS as exc:
        log.debug("close failed: %s", describe(exc))
        chipset = getattr(device, "chipset", None)
        transport = getattr(chipset, "transport", None)
        if isinstance(transport, nfc.clf.transport.TTY):
            _close_transport(transport)
        clf.device = None


# -- talking to tags ---------------------------------------------------------------
def sense(clf: nfc.ContactlessFrontend, uid: bytes | None = None) -> nfc.clf.RemoteTarget | None:
    """One ISO 14443-A poll (optionally for one uid only)."""
    target = nfc.clf.RemoteTarget("106A")
    if uid is not None:
        target.sel_req = bytearray(uid)
    return clf.sense(target)


def name_in(records: list) -> str | None:
    """The piece name an NDEF message carries, if any."""
    for record in records:
        if isinstance(record, ndef.TextRecord) and TAG_NAME.match(record.text.strip()):
            return record.text.strip()
    return None


class TagGone(Exception):
    """The tag left the field before it could be read."""


def identify(clf: nfc.ContactlessFrontend, target: nfc.clf.RemoteTarget) -> str | None:
    """The name written on the tag, None when it carries none.

    nfcpy reports a tag pulled out mid-read as "no NDEF", not as an error, so
    "no NDEF" is believed only if the tag still answers afterwards.
    """
    uid = bytes(target.sdd_res)
    tag = nfc.tag.activate(clf, target)
    name = None
    if tag is not None:
        try:
            if tag.ndef is not None:
                name = name_in(tag.ndef.records)
                if name is not None:
                    return name
        except (nfc.tag.TagCommandError, ndef.DecodeError):  # a broken record: known by its uid
            pass
    if sense(clf, uid) is None:
        raise TagGone(uid.hex())
    return name


def write_name(clf: nfc.ContactlessFrontend, target: nfc.clf.RemoteTarget, name: str) -> str:
    """Write `name` as the tag's NDEF text record; say what happened."""
    tag = nfc.tag.activate(clf, target)
    if tag is None:
        return "not an NFC Forum tag: uid only"
    try:
        if tag.ndef is None and not tag.format():
            return "not formatted for NDEF: uid only"
        if tag.ndef is None or not tag.ndef.is_writeable:
            return "read-only: uid only"
        tag.ndef.records = [ndef.TextRecord(name)]
    except (nfc.tag.TagCommandError, ValueError, AttributeError) as exc:
        return f"write failed ({describe(exc)}): uid only"
    again = sense(clf, bytes(target.sdd_res))
    if again is None:
        return "tag left during the write: uid only"
    written = identify(clf, again)
    return "written" if written == name else f"read back {written!r}: uid only"


@dataclass(frozen=True)
class Listed:
    """A target the chip listed: its number for InDataExchange (`tg`, 0 when the
    target came through nfcpy's `sense`) and nfcpy's RemoteTarget."""
    tg: int
    target: nfc.clf.RemoteTarget

    @property
    def uid(self) -> str:
        return bytes(self.target.sdd_res).hex()

    @property
    def type2(self) -> bool:
        """SEL_RES says Type 2 (NFC Forum Digital: bits 6 and 7 of SAK clear), as nfcpy decides."""
        return not self.target.sel_res[0] & 0x60


def parse_targets(rsp: bytes) -> list[Listed]:
    """The targets of a 106 kbps type A InListPassiveTarget answer: NbTg, then for each
    Tg, SENS_RES, SEL_RES, NFCIDLength, NFCID and, for ISO-DEP targets, the ATS
    (UM0701-02 §7.3.5).  A malformed answer is a protocol error, not a guess."""
    if not rsp or rsp[0] > MAX_TARGETS:
        raise nfc.clf.ProtocolError(f"InListPassiveTarget answer {rsp[:8].hex()!r}")
    out, i = [], 1
    for _ in range(rsp[0]):
        if len(rsp) < i + 5 or rsp[i + 4] not in (4, 7, 10) or len(rsp) < i + 5 + rsp[i + 4]:
            raise nfc.clf.ProtocolError(f"InListPassiveTarget answer {rsp.hex()!r}")
        tg, sens_res, sel_res, n = rsp[i], rsp[i + 1:i + 3], rsp[i + 3:i + 4], rsp[i + 4]
        uid = rsp[i + 5:i + 5 + n]
        i += 5 + n
        if sel_res[0] & 0x20:  # ISO-DEP: the ATS follows, its first byte its length
            if len(rsp) <= i or rsp[i] < 1:
                raise nfc.clf.ProtocolError(f"InListPassiveTarget answer {rsp.hex()!r}")
            i += rsp[i]
        out.append(Listed(tg, nfc.clf.RemoteTarget("106A", sens_res=sens_res[::-1], sel_res=sel_res,
                                                    sdd_res=uid)))
    return out


# -- a Type 2 tag's name, read directly ---------------------------------------------------
class ReadFailed(Exception):
    """A Type 2 READ got no good answer (the tag left, or the air was noisy)."""


def _tlv_scan(data: bytes) -> tuple[str, bytes | int]:
    """Walk the TLVs of a Type 2 data area read so far (NFC Forum Type 2 Tag spec §2.3).

    ("ndef", message) once the first NDEF Message TLV is whole, ("none", 0)
    at a Terminator or nonsense before one, ("more", n) when the first `n`
    bytes are not yet enough to say.  Lock and Memory Control TLVs are stepped
    over; on NTAG21x the areas they reserve lie after the data area."""
    i = 0
    while i < len(data):
        kind = data[i]
        if kind == 0x00:  # NULL TLV
            i += 1
            continue
        if kind == 0xFE:  # Terminator: no NDEF message
            return "none", 0
        if i + 2 > len(data):
            return "more", i + 2
        n, head = data[i + 1], 2
        if n == 0xFF:
            if i + 4 > len(data):
                return "more", i + 4
            n, head = data[i + 2] << 8 | data[i + 3], 4
        if kind == 0x03:
            if i + head + n > len(data):
                return "more", i + head + n
            return "ndef", data[i + head:i + head + n]
        if kind not in (0x01, 0x02, 0xFD):
            return "none", 0
        i += head + n
    return "more", i + 1


def read_type2_name(read: Callable[[int], bytes]) -> str | None:
    """The piece name on a Type 2 tag, from its capability container and NDEF TLV.

    `read(page)` is one Type 2 READ (16 bytes from `page`) of the tag the
    reader has selected: InDataExchange on a PN532 (`_read_page`); any
    reader that can send a READ to a selected tag will do.  Reads start at page 3 (the CC and the first 12 data bytes)
    and go on only as far as the NDEF TLV needs: two READs for a piece name on
    an NTAG213.  None: readable, but no NFC Forum NDEF name on it.  A READ
    that fails raises `ReadFailed`."""
    first = read(3)
    cc, data = first[:4], bytearray(first[4:])
    if cc[0] != 0xE1 or cc[1] >> 4 != 1 or cc[3] >> 4 != 0:  # not NDEF, other major version, no read access
        return None
    size = min(cc[2] * 8, MAX_READS * 16 - 4)  # MAX_READS READs at most, the first also carrying the CC
    page = 7
    while True:
        state, got = _tlv_scan(bytes(data[:size]))
        if state == "ndef":
            assert isinstance(got, bytes)
            try:
                return name_in(list(ndef.message_decoder(got, errors="relax")))
            except ndef.DecodeError:  # a broken record: known by its uid
                return None
        if state == "none" or len(data) >= size:
            return None
        data += read(page)
        page += 4


def _read_page(chipset: nfc.clf.pn532.Chipset, tg: int, page: int) -> bytes:
    """One Type 2 READ through InDataExchange to target `tg` (UM0701-02 §7.3.8):
    the chip adds and checks CRC_A itself.  With two targets listed, we take the
    chip to select the one `tg` names (as InSelect, §7.3.12, would); if it did
    not, the READ fails and `CardWait.read_name` lists the tag alone and reads again."""
    try:
        rsp = chipset.command(IN_DATA_EXCHANGE, bytes([tg, READ, page]), timeout=READ_TIMEOUT_S)
    except OSError as exc:
        if exc.errno != errno.ETIMEDOUT:
            raise
        raise ReadFailed(f"no answer to READ {page}") from exc
    if not rsp or rsp[0] & 0x3F or len(rsp) != 17:
        raise ReadFailed(f"READ {page}: status {bytes(rsp[:1]).hex() or 'none'}, {len(rsp or b'')} bytes")
    return bytes(rsp[1:])


class Finder(Protocol):
    """What the driver asks a reader that finds pieces with the fewest commands:
    `CardWait` (a PN53x) or a USB reader's own (`UsbFrontend.finder`: the RC-S380's)."""

    def wait(self, stop: threading.Event) -> list[Listed]: ...

    def present(self, reset: bool = True, uid: bytes = b"") -> list[Listed]: ...

    def may_hide(self, found: list[Listed]) -> bool: ...

    def still_there(self, uid: str) -> bool: ...

    def read_name(self, listed: Listed) -> str | None: ...

    def one_try(self) -> None: ...


class CardWait:
    """A PN53x (a PN532 on a serial line, or a USB reader whose chip lists targets
    itself) that finds cards with the fewest chip commands.

    `wait` (rf = "wait"): with MxRtyPassiveActivation 0xFF (PN532 User Manual
    §7.3.1) one InListPassiveTarget retries in the chip until a target
    answers; its answer is the placement, nothing else is sent.  nfcpy gives
    that command 1 s; on timeout it sends an ACK (which aborts the chip's
    command) and raises ETIMEDOUT: still no tag, go round again, which also
    lets the driver notice `stop` within a second.  A tag that answered just
    as the ACK left sends a late answer: the line is drained, and `HsuLine`
    drops one that an adapter's latency brings after the drain.

    rf = "duty": the same wait for `on_s`, then the field off for `off_s`.
    rf = "poll": one try every `poll_s`, the field off in between (two commands).

    Every InListPassiveTarget asks for two targets (MaxTg = 2; `max_targets`):
    the chip's anticollision picks tags by uid, so asking for one would hear
    whichever uid wins, not every piece there.

    USB readers with a PN53x (ACR122U, PN533 boards, RC-S330) get the same
    commands through nfcpy's USB drivers (only the framing differs, which the
    driver's `chipset.command` does), polled (rf = "poll": the card-wait is not
    built for USB, where a pending InListPassiveTarget and its abort, through
    the ACR122U's CCID controller above all, are modelled by no emulator here).
    A chip that refuses MaxTg = 2 (its syntax error frame) is asked for one
    from then on.

    `present` (the resting tags still there?) is the field off, then one try:
    two commands, where nfcpy's `sense` takes four.  The checks, nfcpy's
    reads and enrolment run with one try per poll, as nfcpy sets it:
    `one_try` before any of them (the first check after a wait: one more
    command).
    """

    def __init__(self, clf: nfc.ContactlessFrontend, rf: str = "wait",
                 on_s: float = 0.1, off_s: float = 0.1, max_targets: int = MAX_TARGETS) -> None:
        self.clf = clf
        self.chipset = clf.device.chipset
        self.rf = rf
        self.on_s, self.off_s = on_s, off_s
        self.max_targets = max_targets
        self.waiting: bool | None = False  # the chip is set to wait for a card (None: not known)
        self.resyncs = 0

    @classmethod
    def of(cls, clf: nfc.ContactlessFrontend, rf: str = "wait", on_s: float = 0.1,
           off_s: float = 0.1, poll_s: float = 0.03) -> CardWait | None:
        """The wait for a PN532 on a serial line; a poll (every `poll_s`) for a PN53x on
        USB; None for readers whose chip does not list targets itself (the RC-S380)."""
        device = clf.device
        chipset = getattr(device, "chipset", None)
        transport = getattr(chipset, "transport", None)
        if isinstance(device, nfc.clf.pn532.Device) and isinstance(transport, nfc.clf.transport.TTY):
            return cls(clf, rf, on_s, off_s)
        if isinstance(device, nfc.clf.pn53x.Device) and isinstance(transport, nfc.clf.transport.USB):
            one = isinstance(chipset, ONE_TARGET_CHIPS)
            return cls(clf, "poll", on_s, poll_s, max_targets=1 if one else MAX_TARGETS)
        return None

    def wait(self, stop: threading.Event) -> list[Listed]:
        """The tags that entered the field (one or two), or none after a while.

        The chip is left waiting (MxRtyPassiveActivation 0xFF): an enrolled
        piece's placement goes out with no further command, and the direct
        READs do not care; `present` and nfcpy's own polls come after
        `one_try`, which puts the chip back to one try."""
        if self.rf == "poll":
            if stop.wait(self.off_s):
                return []
            found = self.present(reset=False)  # the field is off since the last try
            if not found:
                self.clf.device.mute()
            return found
        if self.waiting is not True:
            self.chipset.rf_configuration(MAX_RETRIES, WAIT_FOR_CARD)
            self.waiting = True
        timeout = 1.0 if self.rf == "wait" else self.on_s
        try:
            rsp = self.chipset.command(IN_LIST, bytes([self.max_targets, 0]), timeout=timeout)
        except OSError as exc:
            if exc.errno != errno.ETIMEDOUT:
                raise
            self._drain()
            if self.rf == "duty":
                self.clf.device.mute()  # field off until the next window
                stop.wait(self.off_s)
            return []
        return parse_targets(bytes(rsp or b"\x00"))

    def present(self, reset: bool = True, uid: bytes = b"") -> list[Listed]:
        """One try for the tags in the field (the field reset first, so tags
        activated or halted before answer again); only `uid`'s, if given."""
        self.one_try()
        if reset:
            self.clf.device.mute()
        if uid:
            wanted = (b"\x88" + uid) if len(uid) > 4 else uid  # cascade tags, as nfcpy's sense_tta sends them
            if len(wanted) > 8:
                wanted = wanted[:4] + b"\x88" + wanted[4:]
            rsp = self.chipset.command(IN_LIST, b"\x01\x00" + wanted, timeout=1.0)
        else:
            try:
                rsp = self.chipset.command(IN_LIST, bytes([self.max_targets, 0]), timeout=1.0)
            except nfc.clf.pn532.Chipset.Error as exc:
                if self.max_targets == 1 or exc.errno != SYNTAX_ERROR:
                    raise
                log.info("the chip refuses to list two targets: asking for one (pieces heard one at a time)")
                self.max_targets = 1
                rsp = self.chipset.command(IN_LIST, b"\x01\x00", timeout=1.0)
        return parse_targets(bytes(rsp or b"\x00"))

    def may_hide(self, found: list[Listed]) -> bool:
        """A full answer may leave a resting tag out (the chip lists no more than asked)."""
        return len(found) >= self.max_targets

    def still_there(self, uid: str) -> bool:
        """Whether the tag with `uid` answers (asked by its uid: two commands)."""
        return any(t.uid == uid for t in self.present(uid=bytes.fromhex(uid)))

    def read_name(self, listed: Listed) -> str | None:
        """The name on a tag the chip just listed, by direct Type 2 READs.

        A READ that fails may be the tag leaving or a noisy field: if the tag
        still answers it is read once more, and a second failure leaves it
        known by its uid, as a tag with no name on it is.  TagGone if it left."""
        for _ in range(2):
            try:
                return read_type2_name(lambda page: _read_page(self.chipset, listed.tg, page))
            except ReadFailed as exc:
                log.debug("%s: %s", listed.uid, exc)
            again = self.present(uid=bytes(listed.target.sdd_res))
            if not again:
                raise TagGone(listed.uid)
            listed = again[0]
        return None

    def one_try(self) -> None:
        """Back to nfcpy's one try: a poll of an empty reader answers at once."""
        if self.waiting is not False:
            self.chipset.rf_configuration(MAX_RETRIES, ONE_TRY)
            self.waiting = False

    @property
    def on_serial(self) -> bool:
        """A PN532 on a serial line (HSU), where a frame can be late or garbled on the wire."""
        return isinstance(self.chipset.transport, nfc.clf.transport.TTY)

    def resync(self) -> None:
        """Back in step with the chip after a frame was lost or came late, on the open line.

        Closing the reader for it (as any fault was handled) turned a busy machine's
        late ACK into seconds: the reader lost, PowerDown, a reopen 0.5 s later, "reader
        lost" and "back" said on the speaker ahead of the game's phrases, and a piece lifted
        and put back meanwhile never heard (docs/readers.md).  Here an ACK aborts whatever
        the chip still does and GetFirmwareVersion is sent until its answer comes: the line
        is in order, so every byte the chip sent before that answer has been read, and
        HsuLine drops a later probe's answer.  The chip's MaxRetries is then not known
        (`waiting` None): the next wait or check sets it.  A chip that never answers raises
        (the reader is lost, as before); so does a dead line, at the first write."""
        self.waiting = None
        transport = self.chipset.transport
        frames = 0
        for _ in range(RESYNC_TRIES):
            transport.write(nfc.clf.pn53x.Chipset.ACK)
            transport.write(FIRMWARE_PROBE)
            try:
                while _answer_code(bytes(transport.read(100))) != GET_FIRMWARE_VERSION + 1:
                    frames += 1  # the ACK, and what the chip sent before it; not noise for ever
                    if frames > 4 * RESYNC_TRIES:
                        raise OSError(errno.EIO, "the PN532's line brings only frames that answer nothing")
            except OSError as exc:
                if exc.errno != errno.ETIMEDOUT:
                    raise
                continue
            self.resyncs += 1
            return
        raise OSError(errno.EIO, f"the PN532 did not answer {RESYNC_TRIES} times after a missed frame")

    def _drain(self) -> None:
        time.sleep(DRAIN_S)
        tty = getattr(self.chipset.transport, "tty", None)
        if tty is not None:
            tty.reset_input_buffer()


# -- the driver -------------------------------------------------------------------
class NfcDriver:
    """Watches one nfcpy frontend; emits connected/placed/removed/lost; reopens after faults.

    An empty PN532 on a serial line finds cards through `CardWait`; resting
    tags are checked every `poll_ms` until they leave; other readers are
    polled every `poll_ms`: a PN53x on USB through `CardWait` too, an
    RC-S380 through its own `Finder` (kikimimi/readers/rcs380_poll.py), any
    other reader with nfcpy's own `sense`.  A PN532, ACR122U or PN533 hears
    up to two pieces at once, the RC-S330 and RC-S380 one; on all of them a
    resting piece is reported lifted only when its own uid no longer answers.

    `known` (uids the table's tag map names): such a tag is not read at all;
    its uid goes to the table, which maps it (as for a tag with no name on
    it).  Others are read for an NDEF name.

    `labeller`, when set, is asked about each newly placed tag and may return
    a name to write on it (enrolment); the placement then carries the name
    read back from the tag and `detail` says whether the write took.
    """

    def __init__(
        self,
        reader: str,
        opener: Callable[[], nfc.ContactlessFrontend],
        where: str,
        poll_ms: int = 30,
        retry_ms: int = 500,
        clock: Callable[[], float] = time.monotonic,
        known: Collection[str] = (),
        rf: str = "wait",
        rf_on_ms: int = 100,
        rf_off_ms: int = 100,
    ) -> None:
        if rf not in RF_MODES:
            raise ValueError(f"rf must be one of {', '.join(RF_MODES)}, not {rf!r}")
        self.reader = reader
        self.opener = opener
        self.where = where
        self.poll_s = poll_ms / 1000
        self.retry_s = retry_ms / 1000
        self.clock = clock
        self.known = frozenset(known)
        self.rf = rf
        self.rf_on_s, self.rf_off_s = rf_on_ms / 1000, rf_off_ms / 1000
        self.labeller: Labeller | None = None

    def __repr__(self) -> str:
        return f"NfcDriver({self.reader!r} at {self.where})"

    def run(self, emit: Emit, stop: threading.Event) -> None:
        lost = False
        opened = False
        silent = 0  # first opens in a row whose chip did not answer
        while not stop.is_set():
            try:
                clf = self.opener()
            except DEVICE_FAULTS as exc:
                silent += 1
                if not opened and silent < FIRST_OPEN_TRIES and not _not_there(exc):
                    log.info("%s: no answer to the first open (%s); trying again", self.where, describe(exc))
                    stop.wait(self.retry_s)
                    continue
                if not lost:
                    emit(RawEvent(self.reader, "lost", self.clock(),
                                  detail=f"cannot open {self.where}: {describe(exc)}"))
                    lost = True
                stop.wait(self.retry_s)
                continue
            opened = True
            try:
                self._serve(clf, emit, stop)
            except DEVICE_FAULTS as exc:
                emit(RawEvent(self.reader, "lost", self.clock(), detail=describe(exc)))
                lost = True
                stop.wait(self.retry_s)
            except NONSENSE as exc:  # a frame nfcpy could not take apart: the reader, not the driver
                log.warning("%s: a frame nfcpy could not read; the reader is reopened", self.where, exc_info=True)
                emit(RawEvent(self.reader, "lost", self.clock(),
                              detail=f"the reader answered nonsense ({describe(exc)[:120]})"))
                lost = True
                stop.wait(self.retry_s)
            else:
                lost = False
            finally:
                close_quietly(clf)

    def _look(self, clf: nfc.ContactlessFrontend, listed: Listed,
              waiter: Finder | None = None) -> tuple[str, str | None, str] | None:
        """(uid, name, detail) of a tag the reader just listed, None if it left while read.

        A uid in `known` needs nothing more.  Otherwise the tag is read: by a
        `waiter` (a PN53x, an RC-S380) with direct Type 2 READs of the listed target; on
        other readers, and for enrolment and tags that are not Type 2, through
        nfcpy's activation (a target found by `CardWait` is sensed through
        nfcpy again first, which readies the chip the way nfcpy expects)."""
        uid = listed.uid
        if self.labeller is None and uid in self.known:
            return uid, None, ""
        try:
            if waiter is not None and self.labeller is None and listed.type2:
                return uid, waiter.read_name(listed), ""
            target = listed.target
            if waiter is not None:
                waiter.one_try()  # nfcpy's polls must answer "no target" at once, not wait
                target = sense(clf, bytes(target.sdd_res))
                if target is None:
                    raise TagGone(uid)
            name = identify(clf, target)
            detail = ""
            if self.labeller is not None:
                label = self.labeller(uid, name)
                if label is not None:
                    again = sense(clf, bytes(target.sdd_res))
                    if again is None:
                        raise TagGone(uid)
                    detail = write_name(clf, again, label)
                    if detail == "written":
                        name = label
        except TagGone:
            return None
        return uid, name, detail

    def _serve(self, clf: nfc.ContactlessFrontend, emit: Emit, stop: threading.Event) -> None:
        off_s = self.poll_s if self.rf == "poll" else self.rf_off_s
        waiter: Finder | None = CardWait.of(clf, self.rf, self.rf_on_s, off_s, self.poll_s)
        own = getattr(clf, "finder", None)  # a USB reader's own (the RC-S380's)
        if waiter is None and own is not None:
            waiter = own(clf, self.poll_s)

        def listed_now() -> list[Listed]:
            if waiter is not None:
                return waiter.present()
            target = sense(clf)
            return [Listed(0, target)] if target is not None else []

        resting: dict[str, str | None] = {}  # uid -> name, of the tags the table was told about
        for there in listed_now():
            seen = self._look(clf, there, waiter)
            if seen is not None:
                resting[seen[0]] = seen[1]
        emit(RawEvent(self.reader, "connected", self.clock(), present=tuple(resting.items())))
        resynced = 0  # resyncs since a round last completed
        while not stop.is_set():
            try:
                if self._round(clf, waiter, resting, emit, stop, listed_now):
                    break
            except OSError as exc:
                if not isinstance(waiter, CardWait) or not waiter.on_serial or resynced >= RESYNCS_IN_A_ROW \
                        or exc.errno not in LINE_HICCUPS:
                    raise
                log.info("%s: %s; the line is resynchronised, the reader stays open", self.reader, describe(exc))
                waiter.resync()  # raises if the chip does not answer: the reader is lost
                resynced += 1
            else:
                resynced = 0

    def _round(self, clf: nfc.ContactlessFrontend, waiter: Finder | None, resting: dict[str, str | None],
               emit: Emit, stop: threading.Event, listed_now: Callable[[], list[Listed]]) -> bool:
        """One wait or poll of the reader, and what it changed; True when `stop` is set."""
        if not resting and waiter is not None:
            found = waiter.wait(stop)
            if not found:
                return False  # still empty (and a chance to see `stop`)
        elif stop.wait(self.poll_s):
            return True
        else:
            found = listed_now()
        uids = [t.uid for t in found]
        for uid in list(resting):
            if uid in uids:
                continue
            # a full answer may leave a resting tag out: only its own silence means it left
            if waiter is not None and waiter.may_hide(found) and waiter.still_there(uid):
                continue
            emit(RawEvent(self.reader, "removed", self.clock(), uid=uid))
            del resting[uid]
        for target in found:
            if target.uid in resting:
                continue  # resting
            seen = self._look(clf, target, waiter)
            if seen is None or seen[0] != target.uid:
                continue  # it left while being read; the next poll decides
            emit(RawEvent(self.reader, "placed", self.clock(), uid=seen[0], tag=seen[1], detail=seen[2]))
            resting[seen[0]] = seen[1]
        return False
