"""`kikimimi doctor` on a Raspberry Pi reports the firmware's under-voltage and throttling
flags (kikimimi/box/pi_power.py), read from a sysfs folder of the test's own and from a
vcgencmd of its own on PATH; anywhere else it says nothing about them."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kikimimi.cli import main
from kikimimi.box.pi_power import doctor_checks

FIRMWARE = "devices/platform/soc/soc:firmware/get_throttled"


def _pi(tmp_path: Path, model: str = "Raspberry Pi 4 Model B Rev 1.5", flags: str | None = None) -> Path:
    sysfs = tmp_path / "sys"
    base = sysfs / "firmware/devicetree/base"
    base.mkdir(parents=True)
    (base / "model").write_bytes(model.encode() + b"\0")
    if flags is not None:
        (sysfs / FIRMWARE).parent.mkdir(parents=True)
        (sysfs / FIRMWARE).write_text(flags + "\n")
    return sysfs


def _vcgencmd(tmp_path: Path, monkeypatch, answer: str, code: int = 0) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "vcgencmd"
    program.write_text(f'#!/bin/sh\n[ "$1" = get_throttled ] || exit 2\necho "{answer}"\nexit {code}\n')
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


def test_a_healthy_pi_is_ok_with_its_model(tmp_path):
    [check] = doctor_checks(_pi(tmp_path, flags="0"))
    assert check.ok and "Raspberry Pi 4 Model B" in check.detail and "no under-voltage" in check.detail


def test_under_voltage_since_boot_asks_for_a_better_supply_and_a_powered_hub(tmp_path):
    [check] = doctor_checks(_pi(tmp_path, flags="50005"))
    assert not check.ok
    assert "under-voltage now" in check.detail and "since boot: under-voltage, throttling" in check.detail
    assert "powered USB hub" in check.fix and "docs/pi.md" in check.fix


def test_throttling_from_heat_alone_asks_for_cooling(tmp_path):
    [check] = doctor_checks(_pi(tmp_path, flags="80008"))
    assert not check.ok and "soft temperature limit" in check.detail and "cool the Pi" in check.fix


def test_vcgencmd_is_asked_when_the_firmware_file_is_absent(tmp_path, monkeypatch):
    _vcgencmd(tmp_path, monkeypatch, "throttled=0x10000")
    [check] = doctor_checks(_pi(tmp_path))
    assert not check.ok and "since boot: under-voltage" in check.detail and "vcgencmd" in check.detail


@pytest.mark.parametrize("answer, code", [("VCHI initialization failed", 255), ("throttled=banana", 0)])
def test_a_vcgencmd_that_cannot_answer_is_one_finding(tmp_path, monkeypatch, answer, code):
    _vcgencmd(tmp_path, monkeypatch, answer, code)
    [check] = doctor_checks(_pi(tmp_path))
    assert not check.ok and "could not be read" in check.detail and "group video" in check.fix


def test_garbage_in_the_firmware_file_is_not_read_as_flags(tmp_path):
    [check] = doctor_checks(_pi(tmp_path, flags="\x00\xff" * 500))
    assert not check.ok and "not a flags value" in check.detail and len(check.detail) < 300


def test_another_board_or_a_pc_gets_no_pi_finding(tmp_path, monkeypatch):
    _vcgencmd(tmp_path, monkeypatch, "throttled=0x50005")
    assert doctor_checks(_pi(tmp_path, model="Pine64 RockPro64", flags="50005")) == []
    assert doctor_checks(tmp_path / "no-sys") == []


def test_doctor_prints_the_pi_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KIKIMIMI_SYSFS", str(_pi(tmp_path, flags="50000")))
    main(["doctor"])
    out = capsys.readouterr().out
    assert "[FIX] pi power: Raspberry Pi 4 Model B Rev 1.5: 0x50000: since boot: under-voltage, throttling" in out
