"""The USB NFC readers nfcpy drives itself (RC-S380, RC-S330, ACR122U, PN533 boards),
named and opened by the USB port they are plugged into.

nfcpy's own names for a USB reader do not survive a table's life:
`usb:054c:06c3` opens *the first* RC-S380 (two seats with the same model
cannot be told apart), and `usb:BUS:DEVICE` changes at every replug (the
kernel numbers devices in the order they arrive).  So a table names a USB
reader `usb:1-1.2`: the kernel's name for the port it is plugged into (the
name `/sys/bus/usb/devices` and `lsusb -t` show, and the one sound cards
are named by), which stays put across reboots and replugs.  Opening reads
today's bus and device number for that port from sysfs and hands them to
nfcpy's driver for the model found there.

sysfs is read under `$KIKIMIMI_SYSFS` (default /sys), like for the sound cards.
"""
from __future__ import annotations

import errno
import importlib
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nfc
import nfc.clf.device
import nfc.clf.transport

#: Every USB reader nfcpy 1.0.4 drives (its `nfc/clf/device.py` usb_device_map),
#: by (vendor, product) as lsusb prints them, with the name a person knows it by.
MODELS: dict[tuple[str, str], str] = {
    ("054c", "06c1"): "Sony RC-S380",
    ("054c", "06c3"): "Sony RC-S380",
    ("054c", "02e1"): "Sony RC-S330/360/370",
    ("072f", "2200"): "ACS ACR122U",
    ("04cc", "2533"): "NXP PN533",
    ("04e6", "5591"): "SCM SCL3711 (PN533)",
    ("04e6", "5593"): "SCM SCL3712 (PN533)",
    ("054c", "0193"): "Sony PN531",
    ("04cc", "0531"): "SCM SCL3710 (PN531)",
}
ACR122U = ("072f", "2200")
PORT = re.compile(r"[0-9]{1,3}-[0-9]{1,3}(?:\.[0-9]{1,3}){0,6}")  # "1-1.2": bus 1, port 1, then port 2
PORT_PATH = re.compile(r"usb:(" + PORT.pattern + r")")
NFCPY_PATH = re.compile(r"usb:(?:[0-9a-fA-F]{4}:[0-9a-fA-F]{4}|[0-9]{1,3}:[0-9]{1,3})")
INSTALL_LIBUSB = "sudo apt-get install libusb-1.0-0 (nfcpy talks to USB readers through it)"

# A transport for (bus, device number): nfcpy's libusb one, or a test's emulated device.
Transport = Callable[[int, int], Any]


def devices_dir() -> Path:
    """Where the kernel lists USB devices by port: /sys/bus/usb/devices (under $KIKIMIMI_SYSFS)."""
    return Path(os.environ.get("KIKIMIMI_SYSFS", "/sys")) / "bus" / "usb" / "devices"


@dataclass(frozen=True, slots=True)
class UsbReader:
    port: str  # "1-1.2"
    vid: str
    pid: str
    bus: int
    dev: int  # the device number today (changes at every replug)

    @property
    def path(self) -> str:
        """The name a table file gives it: stable."""
        return f"usb:{self.port}"

    @property
    def model(self) -> str:
        return MODELS.get((self.vid, self.pid), f"USB device {self.vid}:{self.pid}")

    @property
    def node(self) -> str:
        """The device node libusb opens."""
        return f"/dev/bus/usb/{self.bus:03d}/{self.dev:03d}"

    @property
    def supported(self) -> bool:
        return (self.vid, self.pid) in MODELS


def _read(path: Path) -> str:
    return path.read_text(encoding="ascii", errors="replace").strip()[:16]


def at_port(port: str, devices: Path | None = None) -> UsbReader | None:
    """The USB device plugged into `port` now, if any (a reader or not: see `supported`)."""
    if not PORT.fullmatch(port):
        return None
    folder = (devices or devices_dir()) / port
    try:
        return UsbReader(port, _read(folder / "idVendor").lower(), _read(folder / "idProduct").lower(),
                         int(_read(folder / "busnum")), int(_read(folder / "devnum")))
    except (OSError, ValueError):
        return None


def _port_key(port: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.split(r"[-.]", port))


def usb_readers(devices: Path | None = None) -> list[UsbReader]:
    """Every plugged-in USB NFC reader nfcpy drives, in port order (not the order found)."""
    folder = devices or devices_dir()
    try:
        names = [n for n in os.listdir(folder) if PORT.fullmatch(n)]
    except OSError:
        return []
    found = (at_port(n, folder) for n in sorted(names, key=_port_key))
    return [r for r in found if r is not None and r.supported]


def libusb_problem() -> str | None:
    """None when libusb-1.0 loads; else one line saying why not (the fix is INSTALL_LIBUSB)."""
    try:
        import usb1  # type: ignore[import-untyped]
        usb1.loadLibrary()  # what nfcpy's first USB call does; only the first success loads it
    except (ImportError, OSError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)  # not the list of file names tried
        return f"libusb-1.0 cannot be loaded ({why.splitlines()[0][:80]})"
    return None


class LibusbMissing(OSError):
    """libusb-1.0 is not installed: no USB reader can open until it is."""


# What nfcpy's USB drivers raise when a reader answers nonsense: they log the bad
# frame, return None, and the caller then indexes or unpacks it.
NONSENSE: tuple[type[Exception], ...] = (TypeError, IndexError, KeyError, struct.error)


def _nonsense(exc: Exception) -> OSError:
    return OSError(errno.EIO, f"the reader answered nonsense ({type(exc).__name__}: {str(exc)[:80]})")


class UsbFrontend(nfc.ContactlessFrontend):
    """nfcpy's frontend for a USB reader, for a reader that may answer anything or vanish.

    A reader's nonsense (a frame nfcpy's driver rejects) becomes an OSError, which
    the driver treats as a reader fault (lost, reopened), never a crashed thread.
    Closing also lets go of the USB device when the reader is already gone
    (nfcpy's close then fails before it reaches the transport)."""

    device: Any
    # How the driver finds pieces on this reader with the fewest commands, when nfcpy's
    # `sense` is not it and the chip is no PN53x (`CardWait`): the RC-S380's `Rcs380Poll`.
    finder: Callable[[Any, float], Any] | None = None

    def sense(self, *targets: Any, **options: Any) -> Any:
        try:
            return super().sense(*targets, **options)
        except NONSENSE as exc:
            raise _nonsense(exc) from exc

    def exchange(self, send_data: Any, timeout: float) -> Any:
        try:
            return super().exchange(send_data, timeout)
        except NONSENSE as exc:
            raise _nonsense(exc) from exc

    def close(self) -> None:
        chipset = getattr(self.device, "chipset", None)
        transport = getattr(chipset, "transport", None)
        try:
            super().close()
        except NONSENSE as exc:
            self.device = None
            raise _nonsense(exc) from exc
        finally:
            if transport is not None and getattr(chipset, "transport", None) is not None:
                try:
                    transport.close()
                except (OSError, AttributeError):
                    pass


def open_usb_reader(path: str, devices: Path | None = None,
                    transport: Transport | None = None) -> nfc.ContactlessFrontend:
    """Open the USB reader a table names `usb:PORT` (or nfcpy's `usb:VID:PID` / `usb:BUS:DEV`).

    Raises OSError with a one-line reason: nothing in that port, not a reader
    nfcpy drives, no permission, libusb missing, or what the device said.
    `transport` replaces nfcpy's libusb transport (a test's emulated device)."""
    if transport is None:
        problem = libusb_problem()
        if problem is not None:
            raise LibusbMissing(errno.ENOENT, f"{problem}: {INSTALL_LIBUSB}")
    m = PORT_PATH.fullmatch(path)
    if m is None:
        if not NFCPY_PATH.fullmatch(path):
            raise OSError(errno.EINVAL, f"{path!r} is not a USB reader path (usb:1-1.2, the port it is in)")
        from kikimimi.readers.nfc_driver import open_usb
        return open_usb(path)
    port = m.group(1)
    reader = at_port(port, devices)
    if reader is None:
        raise OSError(errno.ENODEV, f"nothing is plugged into USB port {port}")
    if not reader.supported:
        raise OSError(errno.ENODEV, f"USB port {port} holds {reader.vid}:{reader.pid}, not an NFC reader nfcpy drives")
    if transport is None:
        if not os.access(reader.node, os.R_OK | os.W_OK):
            raise OSError(errno.EACCES, f"{reader.node} ({reader.model}) is not readable and writable by this "
                                        "user: install udev/99-kikimimi.rules, join group plugdev")
        transport = nfc.clf.transport.USB
    module = nfc.clf.device.usb_device_map[(int(reader.vid, 16), int(reader.pid, 16))]
    driver = importlib.import_module("nfc.clf." + module)
    line = transport(reader.bus, reader.dev)
    try:
        device = driver.init(line)
    except NONSENSE as exc:
        line.close()
        raise _nonsense(exc) from exc
    except BaseException:
        line.close()
        raise
    device._path = path
    clf = UsbFrontend()
    clf.device = device
    if module == "rcs380":
        from kikimimi.readers.rcs380_poll import Rcs380Poll
        clf.finder = Rcs380Poll
    return clf
