"""USB readers in the shipped files and the set-up paths: udev rules and blacklist against the
readers nfcpy drives, libusb in setup, table paths, set-up discovery and doctor's findings."""
from __future__ import annotations

import ctypes.util
import importlib.metadata
import re
from pathlib import Path

import nfc.clf.device
import pytest

from kikimimi.readers.checks import doctor_checks
from kikimimi.readers.factory import make_driver
from kikimimi.readers.usb_readers import MODELS, libusb_problem
from kikimimi.box.setup.found import find_readers, usb_nfc_readers
from support.usb_pn53x import Acr122uEmulator, Pn533Emulator
from support.usb_rcs380 import RcS380Emulator

ROOT = Path(__file__).resolve().parents[2]


def test_the_model_list_is_exactly_the_usb_readers_nfcpy_drives():
    assert {(int(v, 16), int(p, 16)) for v, p in MODELS} == set(nfc.clf.device.usb_device_map)
    assert ("054c", "02e1") in MODELS  # the RC-S330 the issue names


def test_udev_rules_give_plugdev_every_supported_reader_and_nothing_else():
    rules = (ROOT / "udev" / "99-kikimimi.rules").read_text()
    usb = [line for line in rules.splitlines() if line.startswith('SUBSYSTEM=="usb"')]
    pairs = set()
    for line in usb:
        m = re.fullmatch(r'SUBSYSTEM=="usb", ATTRS\{idVendor\}=="([0-9a-f]{4})", '
                         r'ATTRS\{idProduct\}=="([0-9a-f]{4})", GROUP="plugdev", MODE="0660"', line)
        assert m, line  # one exact vendor:product a line: no alternation to misread
        pairs.add(m.groups())
    assert pairs == set(MODELS)


def test_the_blacklist_covers_the_kernel_drivers_that_grab_these_readers():
    words = (ROOT / "udev" / "kikimimi-blacklist.conf").read_text().split()
    blacklisted = {words[i + 1] for i, w in enumerate(words[:-1]) if w == "blacklist"}
    assert {"port100", "pn533_usb", "pn533", "nfc"} <= blacklisted


def test_setup_installs_libusb_and_nfcpy_brings_its_python_binding():
    line = next(x for x in (ROOT / "scripts" / "setup").read_text().splitlines() if x.startswith("DEBIAN_PACKAGES="))
    assert "libusb-1.0-0" in line.split("#")[0].split()
    assert any(req.startswith("libusb1") for req in importlib.metadata.requires("nfcpy") or [])
    assert importlib.metadata.version("libusb1")


def test_libusb_problem_agrees_with_the_system():
    problem = libusb_problem()
    if ctypes.util.find_library("usb-1.0"):
        assert problem is None
    else:
        assert problem is not None and "libusb-1.0" in problem and "\n" not in problem


@pytest.mark.parametrize("path", ["usb:1-1.2", "usb:2-1", "usb:054c:06c3", "usb:001:004"])
def test_a_table_names_a_usb_reader_by_port_or_as_nfcpy_does(path):
    driver = make_driver("field", {"driver": "usb", "path": path})
    assert driver.where == path


@pytest.mark.parametrize("path", ["usb", "usb:1-", "/dev/ttyUSB0", "usb:1-1.2:1.0", "usb:054c"])
def test_a_bad_usb_path_is_one_line_naming_the_port_form(path):
    with pytest.raises(ValueError) as err:
        make_driver("field", {"driver": "usb", "path": path})
    assert "usb:1-1.2" in str(err.value) and "\n" not in str(err.value)


def fake_sysfs(tmp_path, monkeypatch) -> Path:
    sysfs = tmp_path / "sys"
    devices = sysfs / "bus" / "usb" / "devices"
    devices.mkdir(parents=True)
    monkeypatch.setenv("KIKIMIMI_SYSFS", str(sysfs))
    return devices


def test_table_setup_finds_usb_readers_by_port_in_port_order(tmp_path, monkeypatch):
    devices = fake_sysfs(tmp_path, monkeypatch)
    Pn533Emulator(devices, "1-2.10")
    RcS380Emulator(devices, "1-2.2")
    Acr122uEmulator(devices, "1-2.1")
    (devices / "usb1").mkdir()  # a root hub and an interface are not devices in a port
    (devices / "1-2.1:1.0").mkdir()
    found, looked = find_readers("usb")
    assert [(r.id, r.path, r.port) for r in found] == [
        ("r1", "usb:1-2.1", "2.1"), ("r2", "usb:1-2.2", "2.2"), ("r3", "usb:1-2.10", "2.10")]
    assert "USB" in looked
    assert usb_nfc_readers(devices) == found
    assert find_readers("pn532", tmp_path / "none")[0] == []  # serial set-ups still look in by-path


def test_doctor_lists_usb_readers_and_says_what_is_wrong_with_each(tmp_path, monkeypatch):
    devices = fake_sysfs(tmp_path, monkeypatch)
    RcS380Emulator(devices, "1-1.2")
    gone = Acr122uEmulator(devices, "1-1.3")
    gone.unplug()
    sections = {"hand-1": {"driver": "usb", "path": "usb:1-1.2"},
                "hand-2": {"driver": "usb", "path": "usb:1-1.3"}}
    checks = {c.name: c for c in doctor_checks(sections, proc_modules=str(tmp_path / "modules"),
                                                rules_dirs=[str(tmp_path)], sys_usb=str(devices), probe=False)}
    listed = checks["USB NFC readers"]
    assert listed.ok and listed.detail == "usb:1-1.2 Sony RC-S380 (054c:06c3)"
    assert not checks["reader hand-2"].ok and "nothing is plugged into USB port 1-1.3" in checks["reader hand-2"].detail
    # hand-1 is in sysfs, but this machine has no /dev/bus/usb node behind it: not usable, and why
    assert not checks["reader hand-1"].ok and "/dev/bus/usb/001/002 does not exist" in checks["reader hand-1"].detail
    assert checks["libusb"].ok == (libusb_problem() is None)
    assert "apt-get install libusb-1.0-0" in checks["libusb"].fix


def test_table_setup_takes_driver_usb_and_refuses_udev_names_for_it(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "table", "setup", str(tmp_path / "t.toml"),
                           "--driver", "usb", "--udev", str(tmp_path / "t.rules")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0 and "invalid choice" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--udev names serial readers" in lines[0], proc.stderr
    assert not (tmp_path / "t.toml").exists()


def test_doctor_proves_a_usb_reader_answers_through_nfcpys_driver(tmp_path, monkeypatch):
    from kikimimi.readers.probe import probe

    devices = fake_sysfs(tmp_path, monkeypatch)
    emu = RcS380Emulator(devices, "1-1.2")
    check = probe("hand-1", {"driver": "usb", "path": "usb:1-1.2"}, usb_transport=emu.transport)
    assert check.ok and check.detail == "SONY RC-S380/P NFC Port-100 v1.11 at usb:1-1.2"
    assert emu.commands["GetFirmwareVersion"] == 2 and emu.field_on is False  # opened and closed again
    emu.unplug()
    gone = probe("hand-1", {"driver": "usb", "path": "usb:1-1.2"}, usb_transport=emu.transport)
    assert not gone.ok and "nothing is plugged into USB port 1-1.2" in gone.detail and "lsusb -t" in gone.fix


def test_doctor_says_pcscd_holds_an_acr122u_named_by_its_port(tmp_path, monkeypatch):
    from kikimimi.readers.probe import probe

    devices = fake_sysfs(tmp_path, monkeypatch)
    emu = Acr122uEmulator(devices, "1-1.4")
    proc = tmp_path / "proc"
    (proc / "812").mkdir(parents=True)
    (proc / "812" / "comm").write_text("pcscd\n")
    check = probe("field", {"driver": "usb", "path": "usb:1-1.4"}, proc=str(proc), usb_transport=emu.transport)
    assert not check.ok and "pcscd (pid 812) holds the ACR122U" in check.detail and "systemctl stop pcscd" in check.fix
    assert emu.opens == 0  # not touched while pcscd has it
    (proc / "812" / "comm").write_text("bash\n")
    again = probe("field", {"driver": "usb", "path": "usb:1-1.4"}, proc=str(proc), usb_transport=emu.transport)
    assert again.ok and again.detail == "ACS ACR122U PN532v1.6 at usb:1-1.4"


def test_doctor_flags_a_usb_reader_named_by_its_device_number():
    from kikimimi.box.doctor import _reader_identity

    flagged = _reader_identity({"hand-1": {"driver": "usb", "path": "usb:001:004"},
                                "hand-2": {"driver": "usb", "path": "usb:1-1.2"}})
    assert len(flagged) == 1 and not flagged[0].ok
    assert "hand-1 (usb:001:004)" in flagged[0].detail and "hand-2" not in flagged[0].detail
    assert 'usb:1-1.2' in flagged[0].fix
    assert _reader_identity({"f": {"driver": "usb", "path": "usb:2-1"}})[0].ok
