"""From a table's `[readers.ID]` section to a driver and its runner settings.

One place checks every reader key, so a typo in the table file is one clear
line naming the reader and the key, not a traceback from a thread.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from typing import Any

from kikimimi.readers.base import Driver
from kikimimi.readers.runner import ReaderSettings

DRIVERS = ("pn532", "usb", "rdm6300")


def _int(reader_id: str, section: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = section.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"reader {reader_id}: {key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _path(reader_id: str, section: Mapping[str, Any]) -> str:
    path = section.get("path")
    if not isinstance(path, str) or not path:
        raise ValueError(f"reader {reader_id}: path is missing (e.g. path = \"/dev/kikimimi-hand-1\")")
    return path


def make_driver(reader_id: str, section: Mapping[str, Any],
                known: Collection[str] = ()) -> Driver:
    """The driver for one `[readers.ID]` table.  Raises a one-line ValueError for a bad section.

    `known`: the uids of the table's tag map; an NFC reader passes those on
    by uid alone, without reading the tag (the table maps them)."""
    kind = section.get("driver")
    if kind not in DRIVERS:
        raise ValueError(f"reader {reader_id}: driver must be one of {', '.join(DRIVERS)}, not {kind!r}")
    path = _path(reader_id, section)
    retry_ms = _int(reader_id, section, "retry_ms", 500, 10, 60_000)
    if kind == "rdm6300":
        from kikimimi.readers.serial_rfid import SerialRfidDriver
        return SerialRfidDriver(
            reader_id, path,
            baud=_int(reader_id, section, "baud", 9600, 1200, 921600),
            hold_ms=_int(reader_id, section, "hold_ms", 600, 20, 10_000),
            retry_ms=retry_ms,
            stops_after=_int(reader_id, section, "stops_after", 0, 0, 10_000),
        )
    from kikimimi.readers.nfc_driver import RF_MODES, NfcDriver, open_pn532
    poll_ms = _int(reader_id, section, "poll_ms", 30, 1, 1000)
    rf = section.get("rf", "wait")
    if rf not in RF_MODES:
        raise ValueError(f"reader {reader_id}: rf must be one of {', '.join(RF_MODES)}, not {rf!r}")
    rf_on_ms = _int(reader_id, section, "rf_on_ms", 100, 20, 10_000)
    rf_off_ms = _int(reader_id, section, "rf_off_ms", 100, 1, 10_000)
    opener: Callable[[], Any]
    if kind == "pn532":
        baud = _int(reader_id, section, "baud", 115200, 9600, 921600)
        opener = functools.partial(open_pn532, path, baud)
    else:
        from kikimimi.readers.usb_readers import NFCPY_PATH, PORT_PATH, open_usb_reader
        if not (PORT_PATH.fullmatch(path) or NFCPY_PATH.fullmatch(path)):
            raise ValueError(
                f"reader {reader_id}: path for a usb reader is usb: and the USB port it is plugged into "
                f"(e.g. usb:1-1.2; kikimimi table setup --driver usb writes it), not {path!r}")
        opener = functools.partial(open_usb_reader, path)
    return NfcDriver(reader_id, opener, path, poll_ms=poll_ms, retry_ms=retry_ms, known=known,
                     rf=rf, rf_on_ms=rf_on_ms, rf_off_ms=rf_off_ms)


def make_settings(reader_id: str, section: Mapping[str, Any]) -> ReaderSettings:
    """The runner settings of one `[readers.ID]` table (role, seat, debounce, ignore-at-connect)."""
    role = section.get("role")
    if role not in ("hand", "field"):
        raise ValueError(f"reader {reader_id}: role must be \"hand\" or \"field\", not {role!r}")
    seat = section.get("seat")
    if role == "hand":
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise ValueError(f"reader {reader_id}: a hand reader needs seat = 1, 2, …, not {seat!r}")
    elif seat is not None:
        raise ValueError(f"reader {reader_id}: a field reader has no seat (got {seat!r})")
    ignore = section.get("ignore_at_connect", True)
    if not isinstance(ignore, bool):
        raise ValueError(f"reader {reader_id}: ignore_at_connect must be true or false, not {ignore!r}")
    return ReaderSettings(
        reader=reader_id, role=role, seat=seat,
        debounce_ms=_int(reader_id, section, "debounce_ms", 150, 0, 10_000),
        ignore_at_connect=ignore,
    )
