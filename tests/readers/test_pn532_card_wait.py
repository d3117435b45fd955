"""The PN532 waiting for a card itself (MaxRetries 0xFF): the emulator's model of
the chip, checked through nfcpy's own chipset calls, and the driver built on it."""
from __future__ import annotations

import errno
import threading
import time

import pytest

from kikimimi.readers.factory import make_driver
from kikimimi.readers.nfc_driver import (
    MAX_RETRIES, ONE_TRY, WAIT_FOR_CARD, close_quietly, open_pn532)
from kikimimi.readers.runner import ReaderSettings
from support.collect import Table
from support.ntag import Ntag213

HEART3 = Ntag213("04a1b2c3d4e5f6", "trident:heart-3")


def _until(pred, timeout: float = 3.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.005)


@pytest.fixture
def chip(pn532s):
    emu = pn532s()
    clf = open_pn532(emu.path)
    yield emu, clf.device.chipset
    close_quietly(clf)


# -- the emulated chip --------------------------------------------------------------
def test_max_retries_are_stored_and_power_cycle_restores_the_default(chip):
    emu, chipset = chip
    assert emu.max_retries == ONE_TRY  # what nfcpy's init sets
    chipset.rf_configuration(MAX_RETRIES, WAIT_FOR_CARD)
    assert emu.max_retries == WAIT_FOR_CARD
    emu.vanish()
    emu.come_back()
    assert emu.max_retries[2] == 0xFF  # the chip's power-on value (User Manual §7.3.1)


def test_one_try_answers_no_target_at_once(chip):
    emu, chipset = chip
    assert chipset.in_list_passive_target(1, 0, b"") is None  # answered: a chip that waited would time out
    assert not emu.waiting_for_card


def test_waiting_list_is_answered_the_moment_a_tag_is_placed(chip):
    emu, chipset = chip
    chipset.rf_configuration(MAX_RETRIES, WAIT_FOR_CARD)
    got: list = []
    th = threading.Thread(target=lambda: got.append(chipset.in_list_passive_target(1, 0, b"")))
    th.start()
    _until(lambda: emu.waiting_for_card)
    time.sleep(0.2)
    assert th.is_alive()  # no answer while the field is empty
    emu.place(HEART3)
    th.join(0.5)
    assert not th.is_alive()
    assert got[0][-7:] == HEART3.uid  # sens_res, sel_res, uid length, uid
    assert not emu.waiting_for_card


def test_waiting_for_one_uid_ignores_another_tag(chip):
    emu, chipset = chip
    chipset.rf_configuration(MAX_RETRIES, WAIT_FOR_CARD)
    got: list = []
    th = threading.Thread(target=lambda: got.append(chipset.in_list_passive_target(1, 0, b"\x88" + HEART3.uid)))
    th.start()
    _until(lambda: emu.waiting_for_card)
    emu.place(Ntag213("04000000000001"))
    time.sleep(0.1)
    assert emu.waiting_for_card and not got
    emu.place(HEART3)
    th.join(0.5)
    assert got and got[0][-7:] == HEART3.uid


def test_host_ack_aborts_the_wait_with_no_answer(chip):
    emu, chipset = chip
    chipset.rf_configuration(MAX_RETRIES, WAIT_FOR_CARD)
    with pytest.raises(OSError) as err:
        chipset.in_list_passive_target(1, 0, b"")  # nfcpy waits 1 s, then sends an ACK
    assert err.value.errno == errno.ETIMEDOUT
    _until(lambda: emu.aborted == 1)
    assert not emu.waiting_for_card
    emu.place(HEART3)  # nothing pending: no stray answer goes out
    time.sleep(0.05)
    assert chipset.transport.tty.in_waiting == 0
    assert bytes(chipset.get_firmware_version()) == bytes([0x32, 0x01, 0x06, 0x07])


def test_an_answer_crossing_the_abort_arrives_after_the_ack(chip):
    emu, chipset = chip
    chipset.rf_configuration(MAX_RETRIES, WAIT_FOR_CARD)
    emu.place_at_abort(HEART3)
    with pytest.raises(OSError):
        chipset.in_list_passive_target(1, 0, b"")
    # waits for the emulator to have written it, not for a time: a timer thread on a loaded
    # machine (load 10) once took longer than the 50 ms this test used to sleep
    assert emu.late_answer_out.wait(10)
    assert emu.late_answers == 1 and emu.aborted == 0
    tty = chipset.transport.tty
    _until(lambda: tty.in_waiting > 0, timeout=10)  # the late answer sits on the line


# -- the driver ------------------------------------------------------------------------
def _table(path: str) -> Table:
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", {"driver": "pn532", "path": path, "poll_ms": 10, "retry_ms": 50})])
    return table


def test_an_empty_reader_waits_in_the_chip_instead_of_polling(pn532s):
    emu = pn532s()
    table = _table(emu.path)
    try:
        _until(lambda: emu.waiting_for_card)
        before = sum(emu.commands.values())
        time.sleep(0.5)
        assert sum(emu.commands.values()) - before <= 4  # a 10 ms poll would be ~200 commands
        emu.place(HEART3)
        table.wait_count("hand-1", 1)
        _until(lambda: emu.max_retries == ONE_TRY)  # the resting checks poll once
        polls = emu.commands["InListPassiveTarget"]
        # resting: checked every poll (waits for five checks, not for the 0.2 s five polls
        # take on an idle machine: a machine at load 20 once gave only four in that time)
        _until(lambda: emu.commands["InListPassiveTarget"] - polls >= 5, timeout=10)
        emu.remove()
        table.wait_count("hand-1", 2, timeout=1.0)  # removal still noticed at the poll
        _until(lambda: emu.waiting_for_card)
        emu.place(HEART3)
        table.wait_count("hand-1", 3)
    finally:
        table.runner.stop()
    assert table.of("hand-1") == [
        ("placed", HEART3.uid_hex, "trident:heart-3"),
        ("removed", HEART3.uid_hex, "trident:heart-3"),
        ("placed", HEART3.uid_hex, "trident:heart-3"),
    ]


def test_a_tag_arriving_as_the_wait_times_out_is_read_not_a_fault(pn532s):
    emu = pn532s()
    emu.crossing_delay = 0.004  # the late answer lands after nfcpy's own flush and 1 ms pause
    table = _table(emu.path)
    try:
        _until(lambda: emu.waiting_for_card)
        emu.place_at_abort(HEART3)
        table.wait_count("hand-1", 1, timeout=4.0)
        time.sleep(0.2)
    finally:
        table.runner.stop()
    assert emu.late_answers == 1
    assert table.of("hand-1") == [("placed", HEART3.uid_hex, "trident:heart-3")]  # no "lost"


def test_stop_is_noticed_while_the_chip_waits(pn532s):
    emu = pn532s()
    table = _table(emu.path)
    _until(lambda: emu.waiting_for_card)
    threads = list(table.runner._threads)
    table.runner.stop()  # joins each thread for up to 5 s: nfcpy's 1 s wait, then the close
    assert not any(th.is_alive() for th in threads)  # the driver noticed the stop, not the join's limit
    assert table.inputs == []



def test_a_reader_unplugged_while_waiting_is_lost_then_back(pn532s):
    emu = pn532s()
    table = _table(emu.path)
    try:
        _until(lambda: emu.waiting_for_card)
        emu.vanish()
        table.wait_count("hand-1", 1, timeout=3.0)
        emu.come_back()  # power-cycled: MaxRetries back at 0xFF until nfcpy's init sets one try
        table.wait_count("hand-1", 2, timeout=5.0)
        _until(lambda: emu.waiting_for_card)
        emu.place(HEART3)
        table.wait_count("hand-1", 3)
    finally:
        table.runner.stop()
    assert [k for k, _, _ in table.of("hand-1")] == ["lost", "back", "placed"]
