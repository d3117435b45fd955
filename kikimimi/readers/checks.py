"""`kikimimi doctor` checks for real readers: is each one there, usable, unclaimed,
and does it answer (`kikimimi.readers.probe`, through the real driver)?

Each finding names its fix, because the person running doctor is setting up a
table, not debugging Python.
"""
from __future__ import annotations

import glob
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kikimimi.contract.finding import Check

BLACKLISTED = ("pn533", "pn533_usb", "port100", "nfc")
RULES = "99-kikimimi.rules"
RULES_DIRS = ("/etc/udev/rules.d", "/lib/udev/rules.d", "/usr/lib/udev/rules.d")
ADD_GROUP = "sudo usermod -aG plugdev $USER, then log in again"
INSTALL_RULES = (f"sudo cp udev/{RULES} /etc/udev/rules.d/ && sudo udevadm control --reload "
                 "&& sudo udevadm trigger (the rules are complete as shipped: nothing to fill in; "
                 "kikimimi table setup finds each seat's reader by its USB port, docs/table.md)")


def loaded_modules(proc_modules: str = "/proc/modules") -> set[str]:
    try:
        return {line.split()[0] for line in Path(proc_modules).read_text().splitlines() if line.strip()}
    except OSError:
        return set()


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


def _usb_reader(name: str, path: str, sys_usb: str) -> Check | str:
    """The /dev/bus/usb node of the reader a usb path names, or the finding why there is none."""
    from kikimimi.readers.usb_readers import PORT_PATH, at_port

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


def _reader_check(rid: str, section: Mapping[str, Any], sys_usb: str) -> Check:
    name = f"reader {rid}"
    driver, path = section.get("driver"), str(section.get("path", ""))
    if driver == "usb":
        found = _usb_reader(name, path, sys_usb)
        if isinstance(found, Check):
            return found
        path = found
    elif not os.path.exists(path):
        if _named_by_rules(path):
            return Check(name, False, f"{path} does not exist", f"plug the reader in; if it is, {INSTALL_RULES}")
        return Check(name, False, f"{path} does not exist",
                     "plug the reader in, or correct the path (ls /dev/ttyUSB* /dev/ttyACM* lists serial devices)")
    if not os.access(path, os.R_OK | os.W_OK):
        return Check(name, False, f"{path} is not readable and writable by this user",
                     f"{ADD_GROUP} (the udev rules give group plugdev mode 0660)")
    return Check(name, True, f"{driver} at {path}")


def doctor_checks(
    sections: Mapping[str, Mapping[str, Any]],
    proc_modules: str = "/proc/modules",
    rules_dirs: Sequence[str] = RULES_DIRS,
    sys_usb: str | None = None,
    probe: bool = True,
    proc: str = "/proc",
) -> list[Check]:
    """One check per configured reader (and, where it is there, whether it answers), readers
    sharing a device, then kernel modules and udev rules."""
    from kikimimi.readers.probe import probe as answers
    from kikimimi.readers.usb_readers import devices_dir

    sys_usb = sys_usb or str(devices_dir())  # /sys/bus/usb/devices, under $KIKIMIMI_SYSFS
    checks = []
    for rid, s in sections.items():
        found = _reader_check(rid, s, sys_usb)
        checks.append(found)
        if probe and found.ok and "not checked" not in found.detail:
            checks.append(answers(rid, s, proc))
    checks += _shared_paths(sections)
    if any(s.get("driver") == "usb" for s in sections.values()):
        checks += usb_checks(sys_usb)
    if any(s.get("driver") in ("usb", "pn532") for s in sections.values()):
        loaded = sorted(loaded_modules(proc_modules) & set(BLACKLISTED))
        if loaded:
            checks.append(Check("kernel NFC modules", False, f"loaded: {', '.join(loaded)} (they claim USB readers)",
                                f"sudo modprobe -r {' '.join(reversed(loaded))} && "
                                "sudo cp udev/kikimimi-blacklist.conf /etc/modprobe.d/"))
        else:
            checks.append(Check("kernel NFC modules", True, "none of pn533, pn533_usb, port100, nfc loaded"))
    installed = [d for d in rules_dirs if os.path.exists(os.path.join(d, RULES))]
    if installed:
        checks.append(Check("udev rules", True, os.path.join(installed[0], RULES)))
    elif any(_named_by_rules(str(s.get("path", ""))) for s in sections.values()):
        checks.append(Check("udev rules", False, f"{RULES} not installed (it names /dev/kikimimi-*)", INSTALL_RULES))
    elif usb := [rid for rid, s in sections.items() if s.get("driver") == "usb"]:
        # libusb opens /dev/bus/usb/BUS/DEV, root's alone (0664) until the rules give it to plugdev:
        # a service user, or the owner, could not open these readers
        checks.append(Check("udev rules", False, f"{RULES} not installed: USB reader{'s' * (len(usb) > 1)} "
                            f"{', '.join(usb)} can be opened by root only (/dev/bus/usb is root's)", INSTALL_RULES))
    else:
        checks.append(Check("udev rules", True, "not needed: no USB reader, no reader uses a /dev/kikimimi-* name"))
    return checks


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


def _named_by_rules(path: str) -> bool:
    """A /dev/kikimimi-* name exists only once the project's udev rules are installed."""
    return path.startswith("/dev/kikimimi-")


def _shared_paths(sections: Mapping[str, Mapping[str, Any]]) -> list[Check]:
    """Several readers configured on one device: only one of them could ever open it."""
    by_path: dict[str, list[str]] = {}
    for rid, section in sections.items():
        path = str(section.get("path", ""))
        if path:
            by_path.setdefault(os.path.realpath(path) if path.startswith("/") else path, []).append(rid)
    return [Check("reader paths", False, f"{', '.join(rids)} are all configured on {path}",
                  "give each reader its own device path (one board per port)")
            for path, rids in by_path.items() if len(rids) > 1]
