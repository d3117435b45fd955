"""What a table set-up can find by itself: readers by USB port, sound cards by USB port.

Readers are taken from `/dev/serial/by-path`, where udev names each serial
adapter by the port it is plugged into (`pci-0000:00:14.0-usb-0:1.2:1.0-port0`),
so the path written in the table file stays right after a reboot or a replug,
also for adapters with no serial number (the common CH340 boards).

USB NFC readers nfcpy drives itself (RC-S380, ACR122U, PN533…) have no serial
device: they are found in sysfs and named `usb:1-1.2`, by port too
(`kikimimi.readers.usb_readers`).  A real box mixes both kinds (three PN532
boards and an RC-S380, say), so a set-up looks for both in one pass (`auto`)
and each reader found carries its own driver into the table file.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from kikimimi.voice.devices import Device
from kikimimi.voice.identity import SoundCard, card_device, sound_cards

BY_PATH = Path("/dev/serial/by-path")
_PORT = re.compile(r"-usb-[0-9]+:([0-9.]+):[0-9]+\.[0-9]+")


@dataclass(frozen=True, slots=True)
class FoundReader:
    id: str  # "r1", "r2", … in the order found (only for this set-up)
    path: str  # the by-path name (or usb:1-1.2): stable
    port: str  # "1.2": the USB port chain, as it is said aloud
    driver: str = "pn532"  # how serve opens it: what the table file writes for this reader

    @property
    def id_path(self) -> str:
        """udev's ID_PATH for this adapter (the by-path name without its "-portN")."""
        return re.sub(r"-port[0-9]+$", "", Path(self.path).name)


@dataclass(frozen=True, slots=True)
class FoundCard:
    id: str  # "c1", "c2", …
    card: SoundCard
    device: Device


def serial_readers(folder: Path = BY_PATH, driver: str = "pn532") -> list[FoundReader]:
    """Every serial adapter udev named by USB port (sorted by name: the port, not the order found)."""
    try:
        names = sorted(p for p in os.listdir(folder) if _PORT.search(p))
    except OSError:
        return []
    out = []
    for i, name in enumerate(names, 1):
        m = _PORT.search(name)
        assert m is not None
        out.append(FoundReader(f"r{i}", str(folder / name), m.group(1), driver))
    return out


def usb_nfc_readers(devices: Path | None = None) -> list[FoundReader]:
    """Every USB NFC reader nfcpy drives, by port (sorted by port, not by the order found)."""
    from kikimimi.readers.usb_readers import usb_readers

    return [FoundReader(f"r{i}", r.path, r.port.split("-", 1)[1], "usb")
            for i, r in enumerate(usb_readers(devices), 1)]


#: `--driver auto`: PN532 boards on serial adapters and USB NFC readers, found in one pass.
AUTO = "auto"


def find_readers(driver: str, serial_dir: Path = BY_PATH,
                 devices: Path | None = None) -> tuple[list[FoundReader], str]:
    """The readers a set-up for `driver` can use, and where they were looked for (for a message).

    `auto` takes both kinds: every serial adapter by port is taken for a PN532 (an RDM6300
    says nothing to tell it by: name it with `--driver rdm6300`), every USB reader nfcpy
    drives for itself; serial first, then USB, each by port."""
    usb_looked = "USB NFC readers (RC-S380, ACR122U, PN533…) plugged in"
    if driver == "usb":
        return usb_nfc_readers(devices), usb_looked
    if driver != AUTO:
        return serial_readers(serial_dir, driver), f"serial readers found in {serial_dir}"
    both = serial_readers(serial_dir) + usb_nfc_readers(devices)
    found = [FoundReader(f"r{i}", r.path, r.port, r.driver) for i, r in enumerate(both, 1)]
    return found, f"readers found (PN532 boards in {serial_dir}, {usb_looked})"


def usb_cards(devices: list[Device], cards: list[SoundCard] | None = None) -> tuple[list[FoundCard], list[str]]:
    """The sound cards a table can bind, each with its PortAudio device; and one line for
    each card that cannot play (no PortAudio device: held by another program)."""
    found: list[FoundCard] = []
    problems: list[str] = []
    for card in sound_cards() if cards is None else cards:
        try:
            dev = card_device(card, devices)
        except LookupError as exc:
            problems.append(str(exc))
            continue
        found.append(FoundCard(f"c{len(found) + 1}", card, dev))
    return found, problems
