"""Does each reader really answer?  `kikimimi doctor`'s proof, through the real driver.

A device node that exists proves little: a PN532 wired TX to TX, set to I2C
instead of HSU, asleep, or held by another process looks the same from the
file system.  So each reader is asked by its own kind (`ReaderKind.probe`),
opened as `serve` opens it: a PN532 is asked its firmware version, a USB
reader is opened through nfcpy, an RDM6300, which says nothing without a
card, is only opened.  A device another process holds is not touched (two
readers of one serial line steal each other's bytes): doctor says who holds
it.  And an ACR122U is usually claimed by pcscd, the smart-card daemon.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers import registry
from kikimimi.readers.device_nodes import holders, process_named
from kikimimi.readers.kind import Where

__all__ = ["holders", "probe", "process_named"]  # holders, process_named: device_nodes', here as ever


def probe(reader_id: str, section: Mapping[str, Any], proc: str = "/proc", usb_transport: Any = None) -> Check:
    """One line: the reader answered (and as what), or why not and what to do.

    `usb_transport`: what a USB reader is opened through instead of libusb (a test's emulator)."""
    name = f"reader {reader_id} answers"
    kind = registry.kind_of(section)
    if kind is None or kind.probe is None:
        probed = [k.name for k in registry.kinds() if k.probe is not None]
        return Check(name, False, f"unknown driver {section.get('driver')!r}", f"driver = {registry.listed(probed)}")
    return kind.probe(name, section, Where(proc=proc, usb_transport=usb_transport))
