"""A USB-only table needs the udev rules: libusb opens /dev/bus/usb/BUS/DEV, which is root's
(0664) until 99-kikimimi.rules gives the reader to plugdev, so the service user could not
open it.  Doctor once said "udev rules: not needed" for such a table."""
from __future__ import annotations

from kikimimi.readers.checks import RULES, doctor_checks


def _rules(tmp_path, sections, rules_dir):
    checks = doctor_checks(sections, proc_modules=str(tmp_path / "none"), rules_dirs=[str(rules_dir)],
                           sys_usb=str(tmp_path / "usb"), probe=False)
    return next(c for c in checks if c.name == "udev rules")


def test_a_usb_only_table_is_told_to_install_the_rules(tmp_path, usb_only_table):
    sections = usb_only_table
    rules_dir = tmp_path / "rules.d"
    rules_dir.mkdir()
    missing = _rules(tmp_path, sections, rules_dir)
    assert not missing.ok and "not needed" not in missing.detail
    assert "/dev/bus/usb" in missing.detail and "hand-1, hand-2, hand-3, field" in missing.detail
    assert f"udev/{RULES}" in missing.fix and "udevadm trigger" in missing.fix
    (rules_dir / RULES).write_text("# installed\n")
    installed = _rules(tmp_path, sections, rules_dir)
    assert installed.ok and str(rules_dir / RULES) in installed.detail


def test_a_mixed_table_names_only_its_usb_readers(tmp_path, usb_only_table):
    sections = usb_only_table
    for s in (1, 2, 3):
        sections[f"hand-{s}"] = {"driver": "pn532", "path": f"/dev/serial/by-path/pci-0000:00:14.0-usb-0:1.{s}:1.0-port0"}
    found = _rules(tmp_path, sections, tmp_path)
    assert not found.ok and "USB reader field " in found.detail and "hand-1" not in found.detail


def test_serial_readers_by_path_need_no_rules(tmp_path):
    sections = {"hand-1": {"driver": "pn532", "path": "/dev/serial/by-path/pci-0000:00:14.0-usb-0:1.1:1.0-port0"}}
    found = _rules(tmp_path, sections, tmp_path)
    assert found.ok and "not needed" in found.detail
