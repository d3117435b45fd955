"""What a reader kind is: everything the table needs to know of one kind of reader, in one value.

A kind is one module (`kikimimi/readers/kinds/`, or another package's) exporting one
`ReaderKind`, and one row naming it (`kikimimi.readers.registry`, or an entry point in the
`kikimimi.readers` group), as nfcpy's `clf/device.py` names each driver module by one row.
The layers that handle readers (the table file's schema, `serve`, `doctor`, the spoken
set-up, `tags enroll`, `service install`) ask the kind, never its name, so a new kind
needs no edit anywhere else (docs/readers.md, "A new reader kind").

Nothing here imports a reader library: a kind's hooks import their driver when called, so
reading a table file, or listing the kinds, opens nothing and loads neither nfcpy nor pyserial.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers.base import Driver

#: Where udev names each serial adapter by the USB port it is plugged into.
BY_PATH = Path("/dev/serial/by-path")


@dataclass(frozen=True, slots=True)
class Key:
    """One key of a `[readers.ID]` section: what it may hold, checked when the table file loads
    (ranges and what they mean are the kind's `open` to check, with its defaults)."""

    check: Callable[[Any], bool]
    what: str  # "a whole number of milliseconds": said when the check fails


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


MILLISECONDS = Key(lambda v: _is_int(v) and v >= 0, "a whole number of milliseconds, not negative")
WHOLE = Key(_is_int, "a whole number")

#: Keys every reader has, whatever its kind: the runner's (role, seat, debounce, ignore at
#: connect), the kind's name, and a device's path and retry interval.
COMMON_KEYS: dict[str, Key] = {
    "role": Key(lambda v: v in ("hand", "field"), '"hand" or "field"'),
    "seat": Key(_is_int, "a seat number"),
    "path": Key(lambda v: isinstance(v, str) and bool(v.strip()), "a device path"),
    # the runner's own range (readers/factory.py), checked when the file loads, a simulated reader's too
    "debounce_ms": Key(lambda v: _is_int(v) and 0 <= v <= 10_000, "a whole number of milliseconds, 0-10000"),
    "retry_ms": MILLISECONDS,
    "ignore_at_connect": Key(lambda v: isinstance(v, bool), "true or false"),
}


@dataclass(frozen=True, slots=True)
class Where:
    """Where kinds look for their devices: the machine's own places on a table, a test's trees
    (an emulated sysfs, a by-path folder, a USB emulator for libusb) elsewhere."""

    serial_dir: Path = BY_PATH
    usb_devices: Path | None = None  # /sys/bus/usb/devices; None: under $KIKIMIMI_SYSFS
    proc: str = "/proc"
    usb_transport: Any = None  # what a USB reader is opened through instead of libusb


@dataclass(frozen=True, slots=True)
class Discovered:
    """A reader a set-up found by itself: its stable path, and its USB port as said aloud."""

    path: str  # what the table file writes (a by-path name, usb:1-1.2)
    port: str  # "1.2"


@dataclass(frozen=True, slots=True)
class Renumbered:
    """Paths the kernel numbers anew at a replug or a reboot (two seats could swap readers):
    how to tell one, and what doctor says of it.  Kinds that share one are said in one line."""

    pattern: re.Pattern[str]
    why: str  # "numbered in the order the adapters were found, ..."
    fix: str


Open = Callable[[str, Mapping[str, Any], Collection[str]], Driver]
Present = Callable[[str, Mapping[str, Any], Where], "Check | str"]
Probe = Callable[[str, Mapping[str, Any], Where], Check]
KindChecks = Callable[[Mapping[str, Mapping[str, Any]], Where], list[Check]]


@dataclass(frozen=True)
class ReaderKind:
    """One kind of reader: its name in the table file (`driver = NAME`), its keys, and a hook for
    each layer that handles it.  A hook left None is a thing this kind does not do (a simulated
    reader opens no device, an RDM6300 is not found by `--driver auto`)."""

    name: str
    summary: str  # one line a person reads: what it is ("PN532 boards on a serial line")
    keys: Mapping[str, Key] = field(default_factory=dict)  # its own keys, beyond COMMON_KEYS
    #: `serve`, the set-up and `tags enroll`: the driver for one section (a one-line ValueError
    #: for a bad one), given the uids of the table's tag map.  None: a simulated kind.
    open: Open | None = None
    #: The keyboard or a table script stands in for it (`serve` reads them; no device, no path).
    simulated: bool = False
    # -- `kikimimi table setup`
    discover: Callable[[Where], list[Discovered]] | None = None
    looked: Callable[[Where], str] = lambda where: "readers found"  # what was looked for where: "0 ..., 3 needed"
    among: Callable[[Where], str] | None = None  # the same beside the other auto kinds (default: `looked`)
    auto: bool = False  # found by `--driver auto` beside the other auto kinds
    tty: bool = False  # a serial tty udev can give a /dev/kikimimi-* name (`table setup --udev`)
    # -- `kikimimi doctor`
    present: Present | None = None  # the node to check access on, or the finding why there is none
    probe: Probe | None = None  # does it answer, through its real driver
    checks: KindChecks | None = None  # once for all readers of this kind (after each reader's own)
    system_checks: Callable[[], list[Check]] | None = None  # `doctor` with or without a table
    renumbered: Renumbered | None = None
    kernel_nfc: bool = False  # the kernel's NFC modules (pn533, port100) would claim its chip
    rules_needed: bool = False  # its node is root's alone until udev/99-kikimimi.rules gives it plugdev
    # -- `kikimimi service install`
    device_classes: Callable[[Mapping[str, Any]], Sequence[str]] = lambda section: ()
    address_families: tuple[str, ...] = ()  # beyond AF_UNIX (libusb's hotplug monitor: AF_NETLINK)
    # -- `kikimimi tags enroll --reader NAME:PATH`
    path_names_kind: bool = False  # the path itself starts with the name (usb:1-1.2)

    @property
    def needs_path(self) -> bool:
        return not self.simulated


# -- helpers a kind's `open` uses to read its section, one line for each bad value -------------
def whole(reader_id: str, section: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"reader {reader_id}: {key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def device_path(reader_id: str, section: Mapping[str, Any]) -> str:
    path = section.get("path")
    if not isinstance(path, str) or not path:
        raise ValueError(f"reader {reader_id}: path is missing (e.g. path = \"/dev/kikimimi-hand-1\")")
    return path


def retry_ms(reader_id: str, section: Mapping[str, Any]) -> int:
    """How often a lost reader is tried again: every device kind reads it the same way."""
    return whole(reader_id, section, "retry_ms", 500, 10, 60_000)
