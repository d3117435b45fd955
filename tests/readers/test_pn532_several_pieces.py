"""Several pieces on one PN532 reader.

The chip's anticollision picks tags by uid (ISO/IEC 14443-3 §6.4.3.1; the
emulator models the typical PCD that adds a (1)b at the first collision), not
by which was placed first.  With one target asked for (MaxTg = 1), a piece put
beside a resting one could win and the resting one was reported lifted; two
put down together gave one placement.  The driver now asks for two."""
from __future__ import annotations

import time

import pytest

from kikimimi.readers.factory import make_driver
from kikimimi.readers.nfc_driver import close_quietly, open_pn532
from kikimimi.readers.runner import ReaderSettings
from support.chip_timing import REAL
from support.collect import Table
from support.ntag import Ntag213
from support.pn532_emulator import anticollision_order

# The last uid byte decides, first bit sent (the least significant) first, a 1 winning:
# ...03 beats ...01 beats ...02.
FIRST = "04000000000003"
SECOND = "04000000000001"
THIRD = "04000000000002"


def _until(pred, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.002)


def _table(path: str) -> Table:
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", {"driver": "pn532", "path": path, "poll_ms": 20,
                                               "retry_ms": 50})])
    return table


def _polls(emu, n: int) -> None:
    """Wait until the driver has checked the reader `n` more times (events, not time)."""
    start = emu.commands["InListPassiveTarget"]
    _until(lambda: emu.commands["InListPassiveTarget"] >= start + n)


def _tag(uid: str, piece: str | None = None) -> Ntag213:
    return Ntag213(uid, piece)


# -- the emulated chip --------------------------------------------------------------------
def test_anticollision_answers_by_uid_not_by_placement_order(pn532s):
    assert [t.uid_hex for t in anticollision_order([_tag(THIRD), _tag(SECOND), _tag(FIRST)])] == [
        FIRST, SECOND, THIRD]
    emu = pn532s()
    clf = open_pn532(emu.path)
    try:
        chipset = clf.device.chipset
        emu.place(_tag(THIRD))
        emu.add(_tag(SECOND))  # placed later, but wins the anticollision
        assert bytes(chipset.in_list_passive_target(1, 0, b""))[-7:].hex() == SECOND
        rsp = bytes(chipset.command(0x4A, b"\x02\x00", timeout=1.0))  # MaxTg = 2: both, Tg 1 and 2
        assert rsp[0] == 2 and rsp[1] == 1 and rsp[6:13].hex() == SECOND
        assert rsp[13] == 2 and rsp[18:25].hex() == THIRD
    finally:
        close_quietly(clf)


# -- the driver -----------------------------------------------------------------------------
@pytest.mark.parametrize("timing", [None, REAL], ids=["instant", "real-timing"])
def test_a_piece_put_beside_a_resting_one_does_not_lift_it(pn532s, timing):
    emu = pn532s(timing=timing)
    table = _table(emu.path)
    resting, newcomer = _tag(THIRD, "trident:heart-1"), _tag(SECOND, "trident:heart-2")
    try:
        _until(lambda: emu.waiting_for_card)
        emu.place(resting)
        table.wait_count("hand-1", 1)
        emu.add(newcomer)  # wins the anticollision: a one-target poll no longer sees `resting`
        table.wait_count("hand-1", 2)
        _polls(emu, 10)
        assert len(table.of("hand-1")) == 2  # no phantom lift (the old driver: "removed heart-1")
        emu.remove(resting)  # the real lift is heard
        table.wait_count("hand-1", 3)
        emu.remove(newcomer)
        table.wait_count("hand-1", 4)
    finally:
        table.runner.stop()
    assert table.of("hand-1") == [
        ("placed", THIRD, "trident:heart-1"), ("placed", SECOND, "trident:heart-2"),
        ("removed", THIRD, "trident:heart-1"), ("removed", SECOND, "trident:heart-2")]


def test_two_pieces_put_down_together_are_both_heard(pn532s):
    emu = pn532s(timing=REAL)
    table = _table(emu.path)
    a, b = _tag(THIRD, "trident:heart-1"), _tag(SECOND, "trident:heart-2")
    try:
        _until(lambda: emu.waiting_for_card)
        emu.add(a, b)  # the same instant: one waiting InListPassiveTarget answers for both
        table.wait_count("hand-1", 2)  # the old driver heard only the anticollision's winner
        _polls(emu, 5)
        emu.remove()
        table.wait_count("hand-1", 4)
    finally:
        table.runner.stop()
    kinds = table.of("hand-1")
    assert sorted(kinds[:2]) == [("placed", SECOND, "trident:heart-2"), ("placed", THIRD, "trident:heart-1")]
    assert sorted(kinds[2:]) == [("removed", SECOND, "trident:heart-2"), ("removed", THIRD, "trident:heart-1")]


def test_two_pieces_are_read_even_if_the_chip_does_not_switch_targets_for_an_exchange(pn532s):
    emu = pn532s()
    emu.selects_on_exchange = False  # a READ to Tg 1 after Tg 2 was selected gets no answer
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", {"driver": "pn532", "path": emu.path, "poll_ms": 20,
                                               "retry_ms": 50})])
    a, b = _tag(THIRD, "trident:heart-1"), _tag(SECOND, "trident:heart-2")
    try:
        _until(lambda: emu.waiting_for_card)
        emu.add(a, b)
        table.wait_count("hand-1", 2)
    finally:
        table.runner.stop()
    assert sorted(table.of("hand-1")) == [("placed", SECOND, "trident:heart-2"), ("placed", THIRD, "trident:heart-1")]
    assert not [k for k, _, _ in table.of("hand-1") if k != "placed"]


def test_a_third_piece_hiding_a_resting_one_from_a_full_answer_does_not_lift_it(pn532s):
    emu = pn532s()
    table = _table(emu.path)
    first, third, second = _tag(FIRST, "trident:heart-1"), _tag(THIRD, "trident:heart-3"), _tag(SECOND,
                                                                                                "trident:heart-2")
    try:
        _until(lambda: emu.waiting_for_card)
        emu.add(first, third)
        table.wait_count("hand-1", 2)
        emu.add(second)  # a MaxTg = 2 answer now lists FIRST and SECOND: THIRD is asked for by its uid
        table.wait_count("hand-1", 3)
        _polls(emu, 10)
        assert len(table.of("hand-1")) == 3
        emu.remove(third)
        table.wait_count("hand-1", 4)
    finally:
        table.runner.stop()
    assert table.of("hand-1")[2:] == [("placed", SECOND, "trident:heart-2"), ("removed", THIRD, "trident:heart-3")]
