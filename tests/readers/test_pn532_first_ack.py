"""A Raspberry Pi's USB may hold a serial adapter's first data up to ~1 s after a
reopen; nfcpy then waits 1.5 s for the first ACK, but only for a port *named*
/dev/ttyUSB*.  A table names its readers by USB port (/dev/serial/by-path/...,
symlinks to /dev/ttyUSBn), so the driver follows the name to grant the wait.

The board is the one thing faked here (`board_model`): this machine is no Pi."""
from __future__ import annotations

import os
import time

import pytest

from kikimimi.readers import nfc_driver
from kikimimi.readers.nfc_driver import PI_FIRST_ACK_MS, close_quietly, device_names, first_ack_ms, open_pn532
from support.chip_timing import REAL

PI = "Raspberry Pi 4 Model B Rev 1.4"
BY_PATH = "platform-fd500000.pcie-pci-0000:01:00.0-usb-0:1.2:1.0-port0"


def _by_path(root, target: str) -> str:
    """/dev/serial/by-path/... -> ../../ttyUSB0 -> `target`, as udev lays them out (in `root`)."""
    dev = root / "dev"
    (dev / "serial" / "by-path").mkdir(parents=True)
    os.symlink(target, dev / "ttyUSB0")
    link = dev / "serial" / "by-path" / BY_PATH
    os.symlink("../../ttyUSB0", link)
    return str(link)


def test_a_by_path_name_on_a_pi_gets_the_first_ack_allowance(tmp_path):
    (tmp_path / "chardev").touch()
    link = _by_path(tmp_path, str(tmp_path / "chardev"))
    assert [os.path.basename(n) for n in device_names(link)] == [BY_PATH, "ttyUSB0", "chardev"]
    assert first_ack_ms(link, model=lambda: PI) == PI_FIRST_ACK_MS
    assert first_ack_ms(link, model=lambda: "") == 0  # not a Pi: nfcpy's own 100 ms
    os.symlink(str(tmp_path / "chardev"), tmp_path / "kikimimi-hand-1")  # not a USB serial name anywhere
    assert first_ack_ms(str(tmp_path / "kikimimi-hand-1"), model=lambda: PI) == 0


def test_a_symlink_loop_ends_the_walk(tmp_path):
    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    assert len(device_names(str(tmp_path / "a"))) <= 17
    assert first_ack_ms(str(tmp_path / "a"), model=lambda: PI) == 0


# a real-timing chip on a pseudo-terminal: a starved CPU can stretch a later answer past nfcpy's own
# 100 ms waits (as in test_pn532_real_timing.py); a run that fails twice is a bug
@pytest.mark.flaky(reruns=1)
@pytest.mark.parametrize("pi", [True, False], ids=["pi", "not-a-pi"])
def test_a_slow_first_ack_through_a_by_path_name_opens_without_the_speed_search(pn532s, tmp_path, monkeypatch, pi):
    emu = pn532s(timing=REAL)
    link = _by_path(tmp_path / "root", emu.path)
    monkeypatch.setattr(nfc_driver, "board_model", lambda: PI if pi else "")
    searched: list[int] = []
    real_search = nfc_driver._bring_back_to_115200

    def search(path: str, speed: int) -> bool:  # the real speed search, counted
        searched.append(speed)
        return real_search(path, speed)
    monkeypatch.setattr(nfc_driver, "_bring_back_to_115200", search)
    emu.hold_next_answer(0.4)  # the Pi's USB holds the first data after the reopen
    t0 = time.monotonic()
    try:
        clf = open_pn532(link)
    except OSError:
        clf = None
    try:
        if pi:  # the first ACK was waited for, not taken for a chip at another speed
            assert clf is not None and time.monotonic() - t0 >= 0.4
            assert searched == []
        else:  # what a by-path name got before: the 100 ms wait missed it; the speeds were searched
            assert searched
    finally:
        if clf is not None:
            close_quietly(clf)
