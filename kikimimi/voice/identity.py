"""Which sound card is which, by something that survives a reboot and a replug.

Identical USB sound cards get their ALSA card numbers (and so their PortAudio
names, "USB Audio Device: - (hw:2,0)") in enumeration order, which changes
with a reboot or a replug: a table that names its earphones that way
whispers seat 1's hand into seat 2's earphone the day the order changes.
Only the USB port a card is plugged into (`usb = "1-1.3"`, the port chain
sysfs shows under /sys/bus/usb/devices) or a serial number, where the card
has one (`serial = "..."`), stays the same.  This module turns such an
identity into today's card number through sysfs, and the card number into
the PortAudio device that plays on it.

sysfs is read under `$KIKIMIMI_SYSFS` (default /sys), so a table without
USB sound cards (a container, CI) can be given a tree shaped like the
kernel's; the PortAudio side is always the real device list.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .config import OutputSpec
from .devices import Device, find_device

#: A USB port chain as sysfs names the device: bus-port[.port...], e.g. "1-1.3".
USB_PORT = re.compile(r"^[0-9]+-[0-9]+(\.[0-9]+)*$")
#: A serial number a table file can hold (voice/config.py checks the same).
PRINTABLE_SERIAL = re.compile(r"[\x21-\x7e]{1,126}")
_HW = re.compile(r"\(hw:([0-9]+),([0-9]+)\)")
SET_USB = 'name each earphone and the speaker by its USB port (usb = "1-1.3"; kikimimi table setup writes it)'


class IdentityError(ValueError):
    """One line: which output, what is wrong with its identity, and the fix."""


@dataclass(frozen=True, slots=True)
class SoundCard:
    number: int  # ALSA card number today (enumeration order)
    id: str  # ALSA card id today ("Device", "Device_1", ...): enumeration order too
    usb_port: str | None  # "1-1.3": the port the card is plugged into (stable)
    serial: str | None  # the USB serial number, where the card has one (stable)
    product: str = ""

    @property
    def identity(self) -> dict[str, str]:
        """What a table file should name this card by: its serial, else its port."""
        if self.serial and PRINTABLE_SERIAL.fullmatch(self.serial):
            return {"serial": self.serial}
        if self.usb_port:
            return {"usb": self.usb_port}
        return {"device": self.id}

    def describe(self) -> str:
        where = f"USB port {self.usb_port}" if self.usb_port else "not on USB"
        return f"card {self.number} {self.id!r} ({self.product or 'sound card'}, {where})"


def sysfs_root() -> Path:
    return Path(os.environ.get("KIKIMIMI_SYSFS", "/sys"))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()[:200] or None
    except OSError:
        return None


def sound_cards(root: Path | None = None) -> list[SoundCard]:
    """Every ALSA card the kernel shows, with its USB port and serial when it is a USB card."""
    base = (root or sysfs_root()) / "class" / "sound"
    cards = []
    try:
        entries = sorted(base.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    for entry in entries:
        m = re.fullmatch(r"card([0-9]+)", entry.name)
        if not m:
            continue
        number = int(m.group(1))
        card_id = _read(entry / "id") or f"card{number}"
        usb_dir = _usb_device(entry / "device")
        port = serial = None
        product = ""
        if usb_dir is not None:
            port = usb_dir.name
            serial = _read(usb_dir / "serial")
            product = _read(usb_dir / "product") or ""
        cards.append(SoundCard(number, card_id, port, serial, product))
    return cards


def _usb_device(device_link: Path) -> Path | None:
    """The USB device directory (named by its port chain) above a card's interface, if any."""
    try:
        here = device_link.resolve(strict=True)
    except OSError:
        return None
    for folder in (here, *here.parents):
        if USB_PORT.fullmatch(folder.name):  # the interface is "1-1.3:1.0", its device "1-1.3"
            return folder
        if re.fullmatch(r"usb[0-9]+", folder.name):  # the root hub: the card is not behind a port
            break
    return None


def card_device(card: SoundCard, devices: Iterable[Device]) -> Device:
    """The PortAudio device that plays on `card`: its first PCM (`… (hw:N,0)`), or, where
    an ALSA configuration puts a PCM named after the card's id in front of it (a dmix
    shared by several outputs), that PCM."""
    devices = list(devices)
    hw = [d for d in devices if (m := _HW.search(d.name)) and int(m.group(1)) == card.number]
    if hw:
        return min(hw, key=lambda d: int(_HW.search(d.name).group(2)))  # type: ignore[union-attr]
    named = [d for d in devices if d.name == card.id]
    if named:
        return named[0]
    raise LookupError(f"{card.describe()} has no PortAudio output device: is the sound server holding it?")


def _by_identity(out: OutputSpec, cards: list[SoundCard]) -> SoundCard:
    key, value = ("usb", out.usb) if out.usb else ("serial", out.serial)
    hits = [c for c in cards if (c.usb_port if key == "usb" else c.serial) == value]
    if not hits:
        plugged = ", ".join(f"{c.usb_port or '-'} ({c.id})" for c in cards if c.usb_port) or "none"
        raise LookupError(f"no sound card at {key} {value!r} (USB cards now in {plugged}): plug it back in "
                          "that port, or run kikimimi table setup again")
    if len(hits) > 1:
        raise IdentityError(f"audio.outputs.{out.name}.{key}: {value!r} names {len(hits)} cards "
                            f"({', '.join(c.describe() for c in hits)}): "
                            + ("name it by its USB port instead" if key == "serial" else
                               "give each card its own USB port"))
    return hits[0]


def resolve(out: OutputSpec, devices: list[Device], cards: list[SoundCard] | None = None) -> Device:
    """The device an output plays on today.

    LookupError (one line, with the fix) when it is not plugged in: the table
    runs without that output and says so.  IdentityError when the identity
    itself cannot be trusted: the table must not start."""
    if out.usb or out.serial:
        cards = sound_cards() if cards is None else cards
        return card_device(_by_identity(out, cards), devices)
    dev = find_device(out.device, devices)
    twins = _identical(dev, devices)
    if twins:
        raise IdentityError(
            f"audio.outputs.{out.name}.device: {out.device!r} is one of {len(twins) + 1} identical cards "
            f"({', '.join(repr(d.name) for d in [dev, *twins])}), numbered in the order they were found, "
            f"which a reboot or a replug changes: {SET_USB}")
    return dev


def _identical(dev: Device, devices: Iterable[Device]) -> list[Device]:
    """Other hardware devices whose name differs from `dev`'s only by the ALSA card number."""
    if not _HW.search(dev.name):
        return []
    stem = _HW.sub("", dev.name).strip()
    return [d for d in devices if d.index != dev.index and _HW.search(d.name)
            and _HW.sub("", d.name).strip() == stem]


def check_outputs(outputs: Mapping[str, OutputSpec], devices: list[Device],
                  cards: list[SoundCard] | None = None) -> dict[str, Device]:
    """Resolve every output; IdentityError (one line) for an ambiguous identity or two
    outputs that would play on the same channels of one device.  Outputs that are not
    plugged in are left out (the table runs and says what is missing)."""
    found: dict[str, Device] = {}
    for name, out in outputs.items():
        try:
            found[name] = resolve(out, devices, cards)
        except IdentityError:
            raise
        except LookupError:
            continue
    seen: dict[tuple[int, int], str] = {}
    for name, dev in found.items():
        for channel in outputs[name].channels:
            other = seen.get((dev.index, channel))
            if other is not None:
                raise IdentityError(
                    f"audio.outputs.{name}: plays on {dev.name!r} channel {channel + 1}, as "
                    f"audio.outputs.{other} does: one earphone would hear another's secrets; "
                    f"{SET_USB}, or give each its own channels")
            seen[(dev.index, channel)] = name
    return found
