"""Does each reader really answer?  `kikimimi doctor`'s proof, through the real driver.

A device node that exists proves little: a PN532 wired TX to TX, set to I2C
instead of HSU, asleep, or held by another process looks the same from the
file system.  So a PN532 is opened exactly as `serve` opens it (the wake-up,
nfcpy's init, the line-speed recovery) and asked its firmware version; a
USB reader is opened through nfcpy; an RDM6300, which says nothing without a
card, is only opened.  A device another process holds is not touched (two
readers of one serial line steal each other's bytes): doctor says who holds
it.  And an ACR122U is usually claimed by pcscd, the smart-card daemon.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kikimimi.contract.finding import Check

STOP_PCSCD = ("sudo systemctl stop pcscd.socket pcscd && sudo systemctl disable pcscd.socket pcscd "
              "(kikimimi talks to the ACR122U itself)")


def process_named(name: str, proc: str = "/proc") -> int | None:
    """The pid of a running process called `name`, if any."""
    for entry in os.scandir(proc):
        if entry.name.isdigit():
            try:
                if Path(entry.path, "comm").read_text().strip() == name:
                    return int(entry.name)
            except OSError:
                continue
    return None


def holders(path: str, proc: str = "/proc") -> list[int]:
    """Pids (other than ours) with `path` open."""
    try:
        target = os.path.realpath(path)
    except OSError:
        return []
    found = []
    for entry in os.scandir(proc):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            fds = os.scandir(os.path.join(entry.path, "fd"))
        except OSError:
            continue
        with fds:
            for fd in fds:
                try:
                    if os.readlink(fd.path) == target:
                        found.append(int(entry.name))
                        break
                except OSError:
                    continue
    return found


def _held(name: str, path: str, proc: str) -> Check | None:
    pids = holders(path, proc)
    if not pids:
        return None
    who = ", ".join(f"{pid} ({_comm(pid, proc)})" for pid in pids)
    return Check(name, True, f"{path} is open in process {who}: not probed (a running serve holds its readers)")


def _comm(pid: int, proc: str) -> str:
    try:
        return Path(proc, str(pid), "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()[:60]
    except OSError:
        return "?"


def _probe_usb(name: str, path: str, proc: str, transport: Any = None) -> Check:
    """A USB reader opened through nfcpy's driver for the model in its port."""
    from kikimimi.readers.nfc_driver import DEVICE_FAULTS, close_quietly, describe
    from kikimimi.readers.usb_readers import (ACR122U, INSTALL_LIBUSB, PORT_PATH, at_port, libusb_problem,
                                              open_usb_reader)

    m = PORT_PATH.fullmatch(path)
    found = at_port(m.group(1)) if m else None
    model = (found.vid, found.pid) if found else tuple(path.split(":")[1:])
    pcscd = process_named("pcscd", proc)
    if pcscd is not None and model == ACR122U:
        return Check(name, False, f"pcscd (pid {pcscd}) holds the ACR122U, so nfcpy cannot open it", STOP_PCSCD)
    problem = libusb_problem() if transport is None else None
    if problem is not None:
        return Check(name, False, problem, INSTALL_LIBUSB)
    try:
        clf = open_usb_reader(path, transport=transport)
    except DEVICE_FAULTS as exc:
        return Check(name, False, f"no NFC reader answers at {path} ({describe(exc)})",
                     "plug it into that port (lsusb -t shows ports); the udev rules give plugdev access")
    try:
        said = str(clf.device)  # nfcpy's "VENDOR PRODUCT CHIP at PATH"
        return Check(name, True, said if said.endswith(f" at {path}") else f"{said} ({path})")
    finally:
        close_quietly(clf)


def probe(reader_id: str, section: Mapping[str, Any], proc: str = "/proc", usb_transport: Any = None) -> Check:
    """One line: the reader answered (and as what), or why not and what to do.

    `usb_transport`: what a USB reader is opened through instead of libusb (a test's emulator)."""
    name = f"reader {reader_id} answers"
    driver, path = section.get("driver"), str(section.get("path", ""))
    if driver == "pn532":
        held = _held(name, path, proc)
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
    if driver == "usb":
        return _probe_usb(name, path, proc, usb_transport)
    if driver == "rdm6300":
        held = _held(name, path, proc)
        if held:
            return held
        import serial
        try:
            serial.Serial(path, section.get("baud", 9600), timeout=0.05).close()
        except (OSError, serial.SerialException) as exc:
            return Check(name, False, f"{path} does not open ({str(exc).splitlines()[0]})",
                         "plug the reader in; check the path")
        return Check(name, True, f"{path} opens (an RDM6300 is silent without a card: hold one on it to hear it)")
    return Check(name, False, f"unknown driver {driver!r}", "driver = pn532, usb or rdm6300")
