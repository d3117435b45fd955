"""`driver = "usb"`: the USB NFC readers nfcpy drives itself (RC-S380, RC-S330, ACR122U, PN533),
named by the USB port they are plugged into (`usb:1-1.2`, `kikimimi.readers.usb_readers`)."""
from __future__ import annotations

import functools
import glob
import os
import re
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers import device_nodes
from kikimimi.readers.base import Driver
from kikimimi.readers.kind import Discovered, ReaderKind, Renumbered, Where
from kikimimi.readers.kinds.pn532 import NFC_KEYS, nfc_driver

STOP_PCSCD = ("sudo systemctl stop pcscd.socket pcscd && sudo systemctl disable pcscd.socket pcscd "
              "(kikimimi talks to the ACR122U itself)")
LOOKED = "USB NFC readers (RC-S380, ACR122U, PN533…) plugged in"


def _open(reader_id: str, section: Mapping[str, Any], known: Collection[str]) -> Driver:
    def opener(path: str) -> Callable[[], Any]:
        from kikimimi.readers.usb_readers import NFCPY_PATH, PORT_PATH, open_usb_reader

        if not (PORT_PATH.fullmatch(path) or NFCPY_PATH.fullmatch(path)):
            raise ValueError(
                f"reader {reader_id}: path for a usb reader is usb: and the USB port it is plugged into "
                f"(e.g. usb:1-1.2; kikimimi table setup --driver usb writes it), not {path!r}")
        return functools.partial(open_usb_reader, path)
    return nfc_driver(reader_id, section, known, opener)


def _discover(where: Where) -> list[Discovered]:
    """Every USB NFC reader nfcpy drives, by port (sorted by port, not by the order found)."""
    from kikimimi.readers.usb_readers import usb_readers

    return [Discovered(r.path, r.port.split("-", 1)[1]) for r in usb_readers(where.usb_devices)]


def _usb_node(vid: str, pid: str, sys_usb: str) -> str | None:
    """The /dev/bus/usb node of the first device with this vendor:product, if plugged in."""
    for dev in glob.glob(os.path.join(sys_usb, "*")):
        try:
            v = Path(dev, "idVendor").read_text().strip()
            p = Path(dev, "idProduct").read_text().strip()
            if (v, p) == (vid.lower(), pid.lower()):
                bus = int(Path(dev, "busnum").read_text())
                num = int(Path(dev, "devnum").read_text())
                return f"/dev/bus/usb/{bus:03d}/{num:03d}"
        except (OSError, ValueError):
            continue
    return None


def _sys_usb(where: Where) -> str:
    from kikimimi.readers.usb_readers import devices_dir

    return str(where.usb_devices or devices_dir())  # /sys/bus/usb/devices, under $KIKIMIMI_SYSFS


def _present(name: str, section: Mapping[str, Any], where: Where) -> Check | str:
    """The /dev/bus/usb node of the reader a usb path names, or the finding why there is none."""
    from kikimimi.readers.usb_readers import PORT_PATH, at_port

    path, sys_usb = str(section.get("path", "")), _sys_usb(where)
    m = PORT_PATH.fullmatch(path)
    if m is not None:
        reader = at_port(m.group(1), Path(sys_usb))
        if reader is None:
            return Check(name, False, f"nothing is plugged into USB port {m.group(1)}",
                         "plug the reader into that port (lsusb -t shows ports), or run kikimimi table setup again")
        if not reader.supported:
            return Check(name, False, f"USB port {reader.port} holds {reader.vid}:{reader.pid}, "
                         "not an NFC reader nfcpy drives", "plug the reader into that port")
        if not os.path.exists(reader.node):
            return Check(name, False, f"{reader.model} is in USB port {reader.port}, but its node {reader.node} "
                         "does not exist", "replug it; in a container, pass /dev/bus/usb in")
        return reader.node
    parts = path.split(":")
    if len(parts) != 3 or not all(len(p) == 4 for p in parts[1:]):
        return Check(name, True, f"{path} (by bus:device; not checked)")
    node = _usb_node(parts[1], parts[2], sys_usb)
    if node is None:
        return Check(name, False, f"no USB device {parts[1]}:{parts[2]} plugged in",
                     "plug the reader in (lsusb lists it)")
    return node


def _probe(name: str, section: Mapping[str, Any], where: Where) -> Check:
    """A USB reader opened through nfcpy's driver for the model in its port.  An ACR122U is
    usually claimed by pcscd, the smart-card daemon: said, with the fix."""
    from kikimimi.readers.nfc_driver import DEVICE_FAULTS, close_quietly, describe
    from kikimimi.readers.usb_readers import (ACR122U, INSTALL_LIBUSB, PORT_PATH, at_port, libusb_problem,
                                              open_usb_reader)

    path, transport = str(section.get("path", "")), where.usb_transport
    m = PORT_PATH.fullmatch(path)
    found = at_port(m.group(1)) if m else None
    model = (found.vid, found.pid) if found else tuple(path.split(":")[1:])
    pcscd = device_nodes.process_named("pcscd", where.proc)
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


def usb_checks(sys_usb: str) -> list[Check]:
    """For USB readers: libusb loads (nfcpy opens them through it), and which are plugged in where."""
    from kikimimi.readers.usb_readers import INSTALL_LIBUSB, libusb_problem, usb_readers

    problem = libusb_problem()
    out = [Check("libusb", problem is None, problem or "libusb-1.0 loads", INSTALL_LIBUSB)]
    found = usb_readers(Path(sys_usb))
    listed = ", ".join(f"{r.path} {r.model} ({r.vid}:{r.pid})" for r in found)
    out.append(Check("USB NFC readers", bool(found), listed or "none plugged in",
                     "plug them in (lsusb lists them; docs/readers.md names the models)"))
    return out


def _system_checks() -> list[Check]:
    """nfcpy reaches USB readers through libusb-1.0; serial ones need none, so its absence is a
    fault only for a table with USB readers (`usb_checks` says so there)."""
    from kikimimi.readers.usb_readers import INSTALL_LIBUSB, libusb_problem

    problem = libusb_problem()
    if problem is None:
        return [Check("usb library", True, "libusb-1.0 loads")]
    return [Check("usb library", True, f"{problem}: needed only for USB NFC readers ({INSTALL_LIBUSB})")]


KIND = ReaderKind(
    name="usb",
    summary="USB readers (RC-S380, RC-S330, ACR122U, PN533)",
    keys=NFC_KEYS,
    open=_open,
    discover=_discover,
    looked=lambda where: LOOKED,
    auto=True,
    present=_present,
    probe=_probe,
    checks=lambda sections, where: usb_checks(_sys_usb(where)),
    system_checks=_system_checks,
    # nfcpy's usb:BUS:DEVICE: the kernel numbers a device anew at every replug
    renumbered=Renumbered(re.compile(r"usb:[0-9]{1,3}:[0-9]{1,3}"),
                          "a USB device number, which the kernel gives anew at every replug and reboot",
                          "name each by its USB port: path = \"usb:1-1.2\" (kikimimi doctor lists the readers' ports)"),
    kernel_nfc=True,
    rules_needed=True,  # libusb opens /dev/bus/usb/BUS/DEV, root's alone (0664) until the rules give it to plugdev
    device_classes=lambda section: ("char-usb_device",),  # /dev/bus/usb/BBB/DDD, libusb's way to a USB reader
    # libusb starts its hotplug monitor (a netlink socket) when it starts, and fails without one;
    # each reopen scans sysfs anew, so the events themselves need not arrive
    address_families=("AF_NETLINK",),
    path_names_kind=True,
)
