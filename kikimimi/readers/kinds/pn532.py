"""`driver = "pn532"`: a PN532 breakout board on a serial line (HSU), opened through nfcpy's
driver with kikimimi's own wake-up, card-wait and line-speed recovery (`readers.nfc_driver`)."""
from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers import device_nodes
from kikimimi.readers.base import Driver
from kikimimi.readers.kind import MILLISECONDS, WHOLE, Key, ReaderKind, Where, device_path, retry_ms, whole

#: The keys an NFC reader (PN532 or USB) reads: how often a resting tag is checked, the RF field.
NFC_KEYS: dict[str, Key] = {
    "poll_ms": MILLISECONDS,
    "rf": Key(lambda v: v in ("wait", "duty", "poll"), '"wait", "duty" or "poll"'),
    "rf_on_ms": MILLISECONDS,
    "rf_off_ms": MILLISECONDS,
}


def nfc_driver(reader_id: str, section: Mapping[str, Any], known: Collection[str],
               opener: Callable[[str], Callable[[], Any]]) -> Driver:
    """An NFC reader's driver from its section's NFC keys (the PN532's and the USB readers');
    `opener` makes the device opener from the path, once the common keys are found good."""
    from kikimimi.readers.nfc_driver import RF_MODES, NfcDriver

    path = device_path(reader_id, section)
    retry = retry_ms(reader_id, section)
    poll_ms = whole(reader_id, section, "poll_ms", 30, 1, 1000)
    rf = section.get("rf", "wait")
    if rf not in RF_MODES:
        raise ValueError(f"reader {reader_id}: rf must be one of {', '.join(RF_MODES)}, not {rf!r}")
    rf_on_ms = whole(reader_id, section, "rf_on_ms", 100, 20, 10_000)
    rf_off_ms = whole(reader_id, section, "rf_off_ms", 100, 1, 10_000)
    return NfcDriver(reader_id, opener(path), path, poll_ms=poll_ms, retry_ms=retry, known=known,
                     rf=rf, rf_on_ms=rf_on_ms, rf_off_ms=rf_off_ms)


def _open(reader_id: str, section: Mapping[str, Any], known: Collection[str]) -> Driver:
    from kikimimi.readers.nfc_driver import open_pn532

    def opener(path: str) -> Callable[[], Any]:
        return functools.partial(open_pn532, path, whole(reader_id, section, "baud", 115200, 9600, 921600))
    return nfc_driver(reader_id, section, known, opener)


def _present(name: str, section: Mapping[str, Any], where: Where) -> Check | str:
    return device_nodes.present(name, str(section.get("path", "")))


def _probe(name: str, section: Mapping[str, Any], where: Where) -> Check:
    """Opened exactly as `serve` opens it (the wake-up, nfcpy's init, the line-speed recovery)
    and asked its firmware version: a board wired TX to TX, set to I2C, or asleep says nothing."""
    path = str(section.get("path", ""))
    held = device_nodes.held(name, path, where.proc)
    if held:
        return held
    from kikimimi.readers.nfc_driver import DEVICE_FAULTS, close_quietly, describe, open_pn532

    baud = section.get("baud", 115200)
    try:
        clf = open_pn532(path, baud if isinstance(baud, int) else 115200)
    except DEVICE_FAULTS as exc:
        return Check(name, False, f"no PN532 answers at {path} ({describe(exc)})",
                     "check the board's mode switch is HSU (UART), TX to RX and RX to TX, "
                     "and its power; then unplug and replug it")
    try:
        ic, ver, rev, _ = clf.device.chipset.get_firmware_version()
        return Check(name, True, f"PN5{ic:02x} firmware v{ver}.{rev} at {path}")
    except DEVICE_FAULTS as exc:
        return Check(name, False, f"the PN532 at {path} opened but did not answer ({describe(exc)})",
                     "unplug and replug the reader")
    finally:
        close_quietly(clf)


KIND = ReaderKind(
    name="pn532",
    summary="PN532 boards on serial adapters",
    keys={**NFC_KEYS, "baud": WHOLE},
    open=_open,
    discover=lambda where: device_nodes.serial_by_port(where.serial_dir),
    looked=lambda where: f"serial readers found in {where.serial_dir}",
    among=lambda where: f"PN532 boards in {where.serial_dir}",
    auto=True,
    tty=True,
    present=_present,
    probe=_probe,
    renumbered=device_nodes.SERIAL_RENUMBERED,
    kernel_nfc=True,
    device_classes=lambda section: device_nodes.serial_classes(str(section.get("path", ""))),
)
