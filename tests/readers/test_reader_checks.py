"""Doctor checks for readers, with /proc/modules, rules dirs and sysfs pointed at test files."""
from __future__ import annotations

import os

from kikimimi.readers.checks import doctor_checks


def test_reader_checks_find_each_problem_and_its_fix(pn532s, tmp_path):
    emu = pn532s()
    (tmp_path / "modules").write_text("snd_hda 1 0 - Live\npn533_usb 2 0 - Live\npn533 3 1 pn533_usb, Live\n")
    rules = tmp_path / "rules.d"
    rules.mkdir()
    locked = tmp_path / "locked"
    locked.write_text("")
    os.chmod(locked, 0)
    usb = tmp_path / "usb" / "1-1"
    usb.mkdir(parents=True)
    for f, v in {"idVendor": "054c", "idProduct": "06c3", "busnum": "1", "devnum": "5"}.items():
        (usb / f).write_text(v + "\n")
    sections = {
        "hand-1": {"driver": "pn532", "path": emu.path},
        "hand-2": {"driver": "pn532", "path": str(tmp_path / "missing")},
        "hand-3": {"driver": "rdm6300", "path": str(locked)},
        "field": {"driver": "usb", "path": "usb:072f:2200"},
    }
    checks = {c.name: c for c in doctor_checks(sections, proc_modules=str(tmp_path / "modules"),
                                                rules_dirs=[str(rules)], sys_usb=str(tmp_path / "usb"))}
    assert checks["reader hand-1"].ok
    assert not checks["reader hand-2"].ok and "does not exist" in checks["reader hand-2"].detail
    assert "correct the path" in checks["reader hand-2"].fix  # a plain path: the udev rules cannot help
    if os.geteuid() != 0:  # root reads anything
        assert not checks["reader hand-3"].ok and "plugdev" in checks["reader hand-3"].fix
    assert not checks["reader field"].ok and "072f:2200" in checks["reader field"].detail
    mods = checks["kernel NFC modules"]
    assert not mods.ok and "pn533_usb" in mods.detail and mods.fix.startswith("sudo modprobe -r pn533_usb pn533")
    # no /dev/kikimimi-* here, but a USB reader: its /dev/bus/usb node is root's without the rules
    assert not checks["udev rules"].ok and "field" in checks["udev rules"].detail
    named = {c.name: c for c in doctor_checks({"h": {"driver": "pn532", "path": "/dev/kikimimi-hand-9"}},
                                               proc_modules=str(tmp_path / "modules"), rules_dirs=[str(rules)])}
    assert "udevadm" in named["reader h"].fix
    assert not named["udev rules"].ok and "udevadm" in named["udev rules"].fix
    (rules / "99-kikimimi.rules").write_text("# installed\n")
    again = {c.name: c for c in doctor_checks({"x": {"driver": "rdm6300", "path": emu.path}},
                                               proc_modules=str(tmp_path / "nope"), rules_dirs=[str(rules)])}
    assert again["udev rules"].ok and again["reader x"].ok
    assert "kernel NFC modules" not in again  # only NFC readers care


def test_shipped_udev_files_cover_every_seat_and_module():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "udev")
    rules = open(os.path.join(root, "99-kikimimi.rules")).read()
    # seat names come from `kikimimi table setup --udev`, by USB port (tests/table), not hand-filled serials
    assert "FILL-IN" not in rules and "table setup" in rules
    assert rules.count('GROUP="plugdev", MODE="0660"') >= 5
    blacklist = open(os.path.join(root, "kikimimi-blacklist.conf")).read().split()
    for mod in ("pn533", "pn533_usb", "port100", "nfc"):
        assert mod in blacklist


def test_doctor_proves_each_reader_answers_through_the_real_driver(pn532s, rdm6300s, tmp_path):
    from kikimimi.readers.probe import holders, probe
    from support.chip_timing import REAL

    sleepy = pn532s("sleepy", timing=REAL, asleep=True)  # closed by the last serve: asleep
    silent = rdm6300s("silent")  # a serial line, but no PN532 behind it
    checks = {c.name: c for c in doctor_checks({"hand-1": {"driver": "pn532", "path": sleepy.path},
                                                "hand-2": {"driver": "pn532", "path": silent.path},
                                                "field": {"driver": "rdm6300", "path": silent.path}},
                                               proc_modules=str(tmp_path / "none"), rules_dirs=[])}
    assert checks["reader hand-1 answers"].ok and "PN532 firmware v1.6" in checks["reader hand-1 answers"].detail
    assert sleepy.wakeups == 1 and sleepy.asleep  # woken, asked, and put back to sleep by the close
    bad = checks["reader hand-2 answers"]
    assert not bad.ok and "no PN532 answers" in bad.detail and "HSU" in bad.fix and "\n" not in bad.detail
    with open(sleepy.path, "rb"):  # a process holds the line: it is not probed
        assert holders(sleepy.path) == []  # ourselves do not count
    import subprocess
    import sys
    holder = subprocess.Popen([sys.executable, "-c", f"import time; f = open({sleepy.path!r}, 'rb'); time.sleep(30)"])
    try:
        import time
        end = time.monotonic() + 10
        while not holders(sleepy.path) and time.monotonic() < end:
            time.sleep(0.05)
        held = probe("hand-1", {"driver": "pn532", "path": sleepy.path})
        assert held.ok and f"process {holder.pid}" in held.detail and "not probed" in held.detail
    finally:
        holder.kill()
        holder.wait()


def test_doctor_says_when_pcscd_holds_an_acr122u(tmp_path):
    from kikimimi.readers.probe import probe

    proc = tmp_path / "proc"
    (proc / "812").mkdir(parents=True)
    (proc / "812" / "comm").write_text("pcscd\n")
    check = probe("field", {"driver": "usb", "path": "usb:072f:2200"}, proc=str(proc))
    assert not check.ok and "pcscd (pid 812) holds the ACR122U" in check.detail
    assert "systemctl stop pcscd" in check.fix


def test_shipped_udev_rules_set_the_ftdi_latency_timer_low():
    root = os.path.join(os.path.dirname(__file__), "..", "..", "udev")
    rules = [line for line in open(os.path.join(root, "99-kikimimi.rules")) if line.strip() and line[0] != "#"]
    ftdi = [line for line in rules if "latency_timer" in line]
    assert len(ftdi) == 1
    assert 'SUBSYSTEM=="usb-serial"' in ftdi[0] and 'DRIVERS=="ftdi_sio"' in ftdi[0]
    assert 'ATTR{latency_timer}="1"' in ftdi[0]
