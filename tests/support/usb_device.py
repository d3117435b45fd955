"""A USB NFC reader emulated at the USB transport: bulk frames in, bulk frames out.

nfcpy's USB drivers (`nfc.clf.rcs380`, `acr122`, `pn533`) talk to a reader
only through an `nfc.clf.transport.USB` object: `write(frame)` is one bulk
OUT transfer, `read(timeout_ms)` one bulk IN transfer, and libusb's errors
arrive as IOError (ENODEV once the device is unplugged, ETIMEDOUT when
nothing came in time, EBUSY when another process claimed it).  `EmulatedUsb`
is such an object whose other end is an emulated reader, so the drivers'
own code (framing, checksums, command sequence, tag activation) runs
unchanged; only libusb and the wire are replaced.

A reader sits in a USB port of a sysfs tree like the kernel's
(`bus/usb/devices/1-1.2/{idVendor,idProduct,busnum,devnum}`), so the path a
table names (`usb:1-1.2`) is resolved the way it is on a real machine.
Unplugging removes that entry and kills every open transport; plugging back
gives the next device number, as the kernel does.
"""
from __future__ import annotations

import collections
import errno
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Self

import nfc.clf.transport

from support.ntag import Ntag213, crc_a

# A host waiting "forever" (libusb timeout 0) is answered ETIMEDOUT after this
# long, so a test whose emulated reader never answers fails instead of hanging.
FOREVER_S = 5.0


class UsbReaderEmulator:
    """One emulated USB reader: its port, its plug, its bulk pipes, the tags in its field.

    Subclasses say what the reader answers: `bulk_out(data)` gets each bulk OUT
    transfer and queues the bulk IN transfers with `answer(data)`."""

    vid = "0000"
    pid = "0000"
    manufacturer = "Emulated"
    product = "USB reader"

    def __init__(self, devices: Path | str, port: str = "1-1", plugged: bool = True) -> None:
        self.devices = Path(devices)  # the test's /sys/bus/usb/devices
        self.port = port
        self.bus = int(port.split("-")[0])
        self.devnum = 1  # the kernel's device number: a new one at every plug
        self.generation = 0  # which plug-in an open transport belongs to
        self.plugged = False
        self.tags: list[Ntag213] = []
        self.commands: collections.Counter[str] = collections.Counter()
        self.opens = 0
        self._claimed: EmulatedUsb | None = None
        self._armed: tuple[str, tuple[Ntag213, ...]] | None = None  # `add_after`
        self.armed_counts: collections.Counter[str] = collections.Counter()  # the commands when they went down
        self.armed_placed = threading.Event()
        #: (command, reply): the next answer to that command (by name) is `reply` instead, once,
        #: the way a reader's short or garbled frame reaches the host (`mangled`)
        self.mangle_once: tuple[str, bytes] | None = None
        self._inbox: collections.deque[bytes] = collections.deque()
        self._cond = threading.Condition(threading.RLock())
        if plugged:
            self.plug()

    # -- the table side ---------------------------------------------------------
    @property
    def folder(self) -> Path:
        return self.devices / self.port

    @property
    def path(self) -> str:
        """The path a table file names this reader by."""
        return f"usb:{self.port}"

    def plug(self) -> Self:
        """Plug in (a power cycle: the chip starts afresh under a new device number)."""
        with self._cond:
            self.devnum += 1
            self.generation += 1
            self._inbox.clear()
            self.power_on()
            self.folder.mkdir(parents=True, exist_ok=True)
            for name, value in (("idVendor", self.vid), ("idProduct", self.pid), ("busnum", str(self.bus)),
                                ("devnum", str(self.devnum)), ("product", self.product),
                                ("manufacturer", self.manufacturer)):
                (self.folder / name).write_text(value + "\n")
            self.plugged = True
            self._cond.notify_all()
        return self

    def unplug(self) -> None:
        """Pull the cable: the sysfs entry goes, every open transport fails with ENODEV."""
        with self._cond:
            self.plugged = False
            self._claimed = None
            self._inbox.clear()
            shutil.rmtree(self.folder, ignore_errors=True)
            self._cond.notify_all()

    def place(self, tag: Ntag213) -> None:
        """Put a tag on the reader (replacing any: a swap)."""
        with self._cond:
            tag.active = False
            self.tags = [tag]
            self.tag_moved()

    def add(self, *tags: Ntag213) -> None:
        """Put one more tag (or several at the same instant) in the field beside those resting there."""
        with self._cond:
            for tag in tags:
                tag.active = False
                self.tags.append(tag)
            self.tag_moved()

    def add_after(self, command: str, *tags: Ntag213) -> threading.Event:
        """Put `tags` down the moment the reader has answered its next `command` (by
        name, e.g. the RFConfiguration that turns an empty reader's field off), so a
        test knows exactly which commands came after: `armed_counts` holds the
        counts at that moment.  The event is set once they are down."""
        with self._cond:
            self.armed_placed.clear()
            self._armed = (command, tags)
        return self.armed_placed

    def command_count(self) -> int:
        """Reader commands received so far (a host's ACK frame is not a command)."""
        with self._cond:
            return sum(n for name, n in self.commands.items() if name != "ACK")

    def remove(self, tag: Ntag213 | None = None) -> None:
        """Lift `tag` (every tag when None)."""
        with self._cond:
            self.tags = [t for t in self.tags if tag is not None and t is not tag]
            self.tag_moved()

    @property
    def tag(self) -> Ntag213 | None:
        with self._cond:
            return self.tags[0] if self.tags else None

    def transport(self, bus: int, dev: int) -> EmulatedUsb:
        """What nfcpy's `transport.USB(bus, dev)` would open (the factory a test hands the opener)."""
        return EmulatedUsb(self, bus, dev)

    # -- for subclasses -----------------------------------------------------------
    def power_on(self) -> None:
        """The chip's state after power-up."""

    def tag_moved(self) -> None:
        """A tag was placed or removed (under the lock)."""

    def bulk_out(self, data: bytes) -> None:
        raise NotImplementedError

    def mangled(self, command: str | None, reply: bytes) -> bytes:
        """The answer to `command` as sent: `mangle_once`'s, once, else `reply` itself."""
        if self.mangle_once is not None and command == self.mangle_once[0]:
            reply, self.mangle_once = self.mangle_once[1], None
        return reply

    def answer(self, data: bytes) -> None:
        """Queue one bulk IN transfer for the host."""
        with self._cond:
            self._inbox.append(bytes(data))
            self._cond.notify_all()

    # -- the wire side (EmulatedUsb) ------------------------------------------------
    def _alive(self, line: EmulatedUsb) -> None:
        if not self.plugged or line.generation != self.generation:
            raise OSError(errno.ENODEV, os.strerror(errno.ENODEV))

    def _open(self, line: EmulatedUsb, bus: int, dev: int) -> None:
        with self._cond:
            if not self.plugged or (bus, dev) != (self.bus, self.devnum):
                raise OSError(errno.ENODEV, os.strerror(errno.ENODEV))
            if self._claimed is not None:
                raise OSError(errno.EBUSY, os.strerror(errno.EBUSY))  # libusb's claimInterface
            self._claimed = line
            line.generation = self.generation
            self.opens += 1

    def _release(self, line: EmulatedUsb) -> None:
        with self._cond:
            if self._claimed is line:
                self._claimed = None

    def _write(self, line: EmulatedUsb, data: bytes) -> None:
        with self._cond:
            self._alive(line)
            armed = self._armed
            before = self.commands[armed[0]] if armed else 0
            self.bulk_out(data)
            if armed and self.commands[armed[0]] > before:
                self._armed = None
                self.add(*armed[1])
                self.armed_counts = collections.Counter(self.commands)
                self.armed_placed.set()

    def _read(self, line: EmulatedUsb, timeout_ms: int) -> bytearray:
        wait_s = timeout_ms / 1000 if timeout_ms > 0 else FOREVER_S
        deadline = time.monotonic() + wait_s
        with self._cond:
            while True:
                self._alive(line)
                if self._inbox:
                    return bytearray(self._inbox.popleft())
                left = deadline - time.monotonic()
                if left <= 0:
                    raise OSError(errno.ETIMEDOUT, os.strerror(errno.ETIMEDOUT))
                self._cond.wait(left)


class EmulatedUsb(nfc.clf.transport.USB):
    """nfcpy's USB transport with an emulated reader at the far end of the cable."""

    def __init__(self, device: UsbReaderEmulator, bus: int, dev: int) -> None:  # no libusb context
        self.context = None
        self.usb_dev = self.usb_out = self.usb_inp = None
        self.device: UsbReaderEmulator | None = device
        self.generation = -1
        device._open(self, bus, dev)
        self._manufacturer_name = device.manufacturer
        self._product_name = device.product

    def __del__(self) -> None:
        self.close()

    def open(self, usb_bus: int, dev_adr: int) -> None:
        raise OSError(errno.EINVAL, "an emulated transport is opened by its emulator")

    def close(self) -> None:
        device, self.device = getattr(self, "device", None), None
        if device is not None:
            device._release(self)

    def read(self, timeout: int = 0) -> bytearray:
        if self.device is None:
            raise OSError(errno.EBADF, "transport closed")
        return self.device._read(self, timeout)

    def write(self, frame: bytes | bytearray, timeout: int = 0) -> None:
        if self.device is None:
            raise OSError(errno.EBADF, "transport closed")
        self.device._write(self, bytes(frame))


# -- ISO/IEC 14443-3 type A over the air: what a raw-RF reader (the RC-S380) sends itself ---------
REQA, WUPA = 0x26, 0x52
SEL = (0x93, 0x95, 0x97)  # cascade levels 1, 2, 3


def cascade(uid: bytes) -> list[bytes]:
    """The uid's cascade-level parts as the tag sends them in anticollision (ISO 14443-3 §6.5.4):
    a 7-byte uid is CT 88 + uid0..2, then uid3..6; each with its BCC."""
    parts = [b"\x88" + uid[:3], uid[3:7]] if len(uid) == 7 else [uid[:4]]
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


class Collision(Exception):
    """Two tags answered one anticollision with different bits: the reader hears a collision."""


class AirA:
    """The tags in one reader's field, answering ISO 14443-A activation and then Type 2 commands.

    Every tag that hears REQA (or WUPA) answers ATQA (NTAGs all send the same, so
    several do not collide) and takes part in anticollision; at each cascade level
    the tags still in it send their part of the uid at once: if the parts differ
    the reader hears a `Collision` (no bit-wise anticollision is modelled).  A
    SELECT keeps only the tag whose part it names; the others drop out until the
    next REQA.  Anything but anticollision and SELECT to a tag being selected
    sends it back to idle (ISO/IEC 14443-3 §6.3, the READY state).  The field
    going off powers every tag down (they must be activated again)."""

    def __init__(self, reader: UsbReaderEmulator) -> None:
        self.reader = reader
        self.level: int | None = None  # cascade level the tags being selected have reached (after REQA)
        self.ready: list[Ntag213] = []  # the tags still in anticollision / selection

    def field_off(self) -> None:
        self.level, self.ready = None, []
        for tag in self.reader.tags:
            tag.active = False

    def tags_moved(self) -> None:
        self.ready = [t for t in self.ready if t in self.reader.tags]
        if not self.ready:
            self.level = None

    def exchange(self, data: bytes) -> bytes | None:
        """The tags' answer over the air (CRC included where a tag sends one), None for silence;
        raises `Collision` when the tags' answers differ."""
        tags = self.reader.tags
        if not data:
            return None
        if len(data) == 1 and data[0] in (REQA, WUPA):
            for t in tags:
                t.active = False
            self.ready = list(tags)
            self.level = 0 if tags else None
            return None if not tags else tags[0].sens_res[::-1]  # ATQA, low byte first
        if self.ready and self.level is not None and len(data) >= 2 and data[0] in SEL:
            level = SEL.index(data[0])
            if level != self.level:
                self.ready = []
                return None
            parts = {t.uid_hex: cascade(t.uid) for t in self.ready}
            if data[1] == 0x20:  # anticollision: every tag still in it sends its part of the uid
                sent = {p[level] for p in parts.values() if level < len(p)}
                if len(sent) > 1:
                    raise Collision()
                return sent.pop() if sent else None
            if data[1] == 0x70:  # select: only the tag whose part it names stays
                self.ready = [t for t in self.ready if level < len(parts[t.uid_hex])
                              and parts[t.uid_hex][level] == data[2:7]]
                if not self.ready:
                    return None
                tag = self.ready[0]
                last = level == len(parts[tag.uid_hex]) - 1
                sak = bytes([tag.sel_res if last else 0x04])  # 0x04: uid not complete
                if last:
                    tag.active = True
                    self.ready, self.level = [], None
                else:
                    self.level = level + 1
                return sak + crc_a(sak)
            return None
        self.ready, self.level = [], None  # anything else: the tags being selected go idle
        active = next((t for t in tags if t.active), None)
        return active.command(data) if active is not None else None
