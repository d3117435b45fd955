"""`driver = "rdm6300"`: a 125 kHz RDM6300 (or ID-12LA) module on a serial line, which sends a
card's id over and over while it rests and nothing otherwise (`readers.serial_rfid`)."""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers import device_nodes
from kikimimi.readers.base import Driver
from kikimimi.readers.kind import MILLISECONDS, WHOLE, Key, ReaderKind, Where, device_path, retry_ms, whole


def _open(reader_id: str, section: Mapping[str, Any], known: Collection[str]) -> Driver:
    from kikimimi.readers.serial_rfid import SerialRfidDriver

    path = device_path(reader_id, section)
    retry = retry_ms(reader_id, section)
    return SerialRfidDriver(
        reader_id, path,
        baud=whole(reader_id, section, "baud", 9600, 1200, 921600),
        hold_ms=whole(reader_id, section, "hold_ms", 600, 20, 10_000),
        retry_ms=retry,
        stops_after=whole(reader_id, section, "stops_after", 0, 0, 10_000),
    )


def _probe(name: str, section: Mapping[str, Any], where: Where) -> Check:
    """Only opened: an RDM6300 says nothing without a card."""
    path = str(section.get("path", ""))
    held = device_nodes.held(name, path, where.proc)
    if held:
        return held
    import serial

    try:
        serial.Serial(path, section.get("baud", 9600), timeout=0.05).close()
    except (OSError, serial.SerialException) as exc:
        return Check(name, False, f"{path} does not open ({str(exc).splitlines()[0]})",
                     "plug the reader in; check the path")
    return Check(name, True, f"{path} opens (an RDM6300 is silent without a card: hold one on it to hear it)")


KIND = ReaderKind(
    name="rdm6300",
    summary="RDM6300 125 kHz modules on serial adapters",
    keys={"baud": WHOLE, "hold_ms": MILLISECONDS, "stops_after": Key(WHOLE.check, "a whole number of frames")},
    open=_open,
    # it says nothing to tell it from a PN532 by: found only when named (--driver rdm6300)
    discover=lambda where: device_nodes.serial_by_port(where.serial_dir),
    looked=lambda where: f"serial readers found in {where.serial_dir}",
    tty=True,
    present=lambda name, section, where: device_nodes.present(name, str(section.get("path", ""))),
    probe=_probe,
    renumbered=device_nodes.SERIAL_RENUMBERED,
    device_classes=lambda section: device_nodes.serial_classes(str(section.get("path", ""))),
)
