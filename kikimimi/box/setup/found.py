"""What a table set-up can find by itself: readers by USB port, sound cards by USB port.

Each reader kind finds its own (`ReaderKind.discover`): a serial board is taken
from `/dev/serial/by-path`, where udev names each adapter by the port it is
plugged into, a USB NFC reader from sysfs (`usb:1-1.2`), so the path written in
the table file stays right after a reboot or a replug.  A real box mixes kinds
(three PN532 boards and an RC-S380, say), so a set-up looks for every kind that
can be told by itself in one pass (`auto`), and each reader found carries its
own kind into the table file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from kikimimi.readers import registry
from kikimimi.readers.kind import BY_PATH, ReaderKind, Where
from kikimimi.voice.devices import Device
from kikimimi.voice.identity import SoundCard, card_device, sound_cards


@dataclass(frozen=True, slots=True)
class FoundReader:
    id: str  # "r1", "r2", … in the order found (only for this set-up)
    path: str  # the by-path name (or usb:1-1.2): stable
    port: str  # "1.2": the USB port chain, as it is said aloud
    #: its kind (how serve opens it): what the table file writes for this reader; by default
    #: the registry's first kind, for a caller that found a serial reader by itself
    driver: str = field(default_factory=lambda: registry.names()[0])

    @property
    def id_path(self) -> str:
        """udev's ID_PATH for this adapter (the by-path name without its "-portN")."""
        return re.sub(r"-port[0-9]+$", "", Path(self.path).name)


@dataclass(frozen=True, slots=True)
class FoundCard:
    id: str  # "c1", "c2", …
    card: SoundCard
    device: Device


def _found(kind: ReaderKind, where: Where) -> list[FoundReader]:
    assert kind.discover is not None
    return [FoundReader(f"r{i}", d.path, d.port, kind.name) for i, d in enumerate(kind.discover(where), 1)]


def usb_nfc_readers(devices: Path | None = None) -> list[FoundReader]:
    """Every USB NFC reader nfcpy drives, by port: `find_readers("usb")`'s readers."""
    return find_readers("usb", devices=devices)[0]


#: `--driver auto`: every kind a set-up can tell by itself, found in one pass.
AUTO = "auto"


def discoverable() -> tuple[str, ...]:
    """What `table setup --driver` takes: auto, and every kind a set-up can find."""
    return (AUTO, *(k.name for k in registry.kinds() if k.discover is not None))


def find_readers(driver: str, serial_dir: Path = BY_PATH,
                 devices: Path | None = None) -> tuple[list[FoundReader], str]:
    """The readers a set-up for `driver` can use, and where they were looked for (for a message).

    `auto` takes every kind marked so (PN532 boards on serial adapters, USB readers nfcpy
    drives; an RDM6300 says nothing to tell it by: name it with `--driver rdm6300`), each
    kind's by port, in the registry's order."""
    where = Where(serial_dir=serial_dir, usb_devices=devices)
    if driver != AUTO:
        kind = registry.kind(driver)
        if kind is None or kind.discover is None:
            raise ValueError(f"--driver {driver}: a set-up finds only {registry.listed(discoverable())}")
        return _found(kind, where), kind.looked(where)
    kinds = [k for k in registry.kinds() if k.auto and k.discover is not None]
    both = [r for k in kinds for r in _found(k, where)]
    found = [FoundReader(f"r{i}", r.path, r.port, r.driver) for i, r in enumerate(both, 1)]
    looked = ", ".join((k.among or k.looked)(where) for k in kinds)
    return found, f"readers found ({looked})"


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
