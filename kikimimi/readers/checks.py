"""`kikimimi doctor` checks for real readers: is each one there, usable, unclaimed,
and does it answer (`kikimimi.readers.probe`, through the real driver)?

What is there and what answers is each kind's to say (`ReaderKind.present`, `probe`,
`checks`); this module asks every configured reader's kind, then what the table's readers
share: one device each, the kernel's NFC modules, the udev rules.  Each finding names its
fix, because the person running doctor is setting up a table, not debugging Python.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers import registry
from kikimimi.readers.device_nodes import ADD_GROUP, INSTALL_RULES, RULES, named_by_rules
from kikimimi.readers.kind import Where

__all__ = ["ADD_GROUP", "BLACKLISTED", "INSTALL_RULES", "RULES", "RULES_DIRS", "doctor_checks", "loaded_modules"]

BLACKLISTED = ("pn533", "pn533_usb", "port100", "nfc")
RULES_DIRS = ("/etc/udev/rules.d", "/lib/udev/rules.d", "/usr/lib/udev/rules.d")


def loaded_modules(proc_modules: str = "/proc/modules") -> set[str]:
    try:
        return {line.split()[0] for line in Path(proc_modules).read_text().splitlines() if line.strip()}
    except OSError:
        return set()


def _reader_check(rid: str, section: Mapping[str, Any], where: Where) -> Check:
    name = f"reader {rid}"
    kind = registry.kind_of(section)
    if kind is None or kind.present is None:
        return Check(name, False, f"driver {section.get('driver')!r} names no device kind",
                     f"driver = {registry.listed([k.name for k in registry.device_kinds()])}")
    found = kind.present(name, section, where)
    if isinstance(found, Check):
        return found
    if not os.access(found, os.R_OK | os.W_OK):
        return Check(name, False, f"{found} is not readable and writable by this user",
                     f"{ADD_GROUP} (the udev rules give group plugdev mode 0660)")
    return Check(name, True, f"{kind.name} at {found}")


def doctor_checks(
    sections: Mapping[str, Mapping[str, Any]],
    proc_modules: str = "/proc/modules",
    rules_dirs: Sequence[str] = RULES_DIRS,
    sys_usb: str | None = None,
    probe: bool = True,
    proc: str = "/proc",
) -> list[Check]:
    """One check per configured reader (and, where it is there, whether it answers), readers
    sharing a device, each kind's own checks, then kernel modules and udev rules."""
    from kikimimi.readers.probe import probe as answers

    where = Where(usb_devices=Path(sys_usb) if sys_usb else None, proc=proc)
    checks = []
    for rid, s in sections.items():
        found = _reader_check(rid, s, where)
        checks.append(found)
        if probe and found.ok and "not checked" not in found.detail:
            checks.append(answers(rid, s, proc))
    checks += _shared_paths(sections)
    grouped = list(registry.by_kind(sections))
    for kind, own in grouped:
        if kind.checks is not None:
            checks += kind.checks(own, where)
    if any(kind.kernel_nfc for kind, _ in grouped):
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
    elif any(named_by_rules(str(s.get("path", ""))) for s in sections.values()):
        checks.append(Check("udev rules", False, f"{RULES} not installed (it names /dev/kikimimi-*)", INSTALL_RULES))
    elif needing := [rid for kind, own in grouped if kind.rules_needed for rid in own]:
        # their nodes are root's alone (0664) until the rules give them to plugdev:
        # a service user, or the owner, could not open these readers
        needing.sort(key=list(sections).index)
        checks.append(Check("udev rules", False, f"{RULES} not installed: USB reader{'s' * (len(needing) > 1)} "
                            f"{', '.join(needing)} can be opened by root only (/dev/bus/usb is root's)", INSTALL_RULES))
    else:
        checks.append(Check("udev rules", True, "not needed: no USB reader, no reader uses a /dev/kikimimi-* name"))
    return checks


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
