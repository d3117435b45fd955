"""nfcpy's real PN532 driver against the emulator on a pty, through our driver and the runner."""
from __future__ import annotations

import time

import nfc.clf

from kikimimi.readers.factory import make_driver
from kikimimi.readers.nfc_driver import identify, open_pn532, close_quietly, sense, write_name
from kikimimi.readers.runner import ReaderSettings
from support.ntag import Ntag213, crc_a

from support.collect import Table
from kikimimi.testkit.script import wait_until

HEART3 = Ntag213("04a1b2c3d4e5f6", "trident:heart-3")


def pn532_section(path: str) -> dict:
    return {"driver": "pn532", "path": path, "poll_ms": 10, "retry_ms": 50}


def test_crc_a_matches_nfcpy():
    data = bytearray(b"\x04\xa1\xb2\xc3\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc")
    assert nfc.clf.device.Device.add_crc_a(data)[-2:] == crc_a(bytes(data))


def test_nfcpy_opens_senses_reads_and_writes_an_ntag(pn532s):
    emu = pn532s()
    clf = open_pn532(emu.path)
    try:
        assert sense(clf) is None
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        target = sense(clf)
        assert bytes(target.sdd_res).hex() == "04a1b2c3d4e5f6"
        assert identify(clf, target) == "trident:heart-3"
        assert write_name(clf, sense(clf), "trident:spade-7") == "written"
        assert emu.tag.text() == "trident:spade-7"  # really in the emulated memory
        assert identify(clf, sense(clf)) == "trident:spade-7"
        emu.place(Ntag213("04000000000001", "trident:heart-1", writable=False))
        assert write_name(clf, sense(clf), "trident:heart-2") == "read-only: uid only"
        assert emu.tag.text() == "trident:heart-1"
        emu.place(Ntag213("04000000000002"))  # blank: identity is the uid
        assert identify(clf, sense(clf)) is None
    finally:
        close_quietly(clf)
    assert emu.speed == 115200  # nfcpy raised it to 921600 and put it back on close
    assert emu.commands["SetSerialBaudrate"] == 2
    assert emu.commands["Diagnose"] == 1  # the extended-frame line test passed


def test_chip_left_at_921600_is_recovered(pn532s):
    emu = pn532s(speed=921600)  # as a process that died without closing leaves it
    clf = open_pn532(emu.path)
    try:
        assert emu.garbled >= 1  # nfcpy's first try at 115200 went unheard
        emu.place(HEART3)
        assert identify(clf, sense(clf)) == "trident:heart-3"
    finally:
        close_quietly(clf)


def test_place_rest_lift_swap_and_present_at_connect(pn532s):
    emu = pn532s()
    emu.place(Ntag213("04000000000009", "trident:clover-8"))  # resting before the reader opens
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", pn532_section(emu.path))])
    try:
        assert table.runner.wait_first_connect(30) == []
        assert table.inputs == []  # ignored at connect
        emu.remove()
        time.sleep(0.2)
        assert table.inputs == []  # and its lift is silent
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        table.wait_count("hand-1", 1)
        time.sleep(0.4)  # resting through ~40 polls
        assert table.of("hand-1") == [("placed", "04a1b2c3d4e5f6", "trident:heart-3")]
        emu.place(Ntag213("04000000000002"))  # swap for a blank tag
        table.wait_count("hand-1", 3)
        emu.remove()
        table.wait_count("hand-1", 4)
        time.sleep(0.2)
    finally:
        table.runner.stop()
    assert table.of("hand-1") == [
        ("placed", "04a1b2c3d4e5f6", "trident:heart-3"),
        ("removed", "04a1b2c3d4e5f6", "trident:heart-3"),
        ("placed", "04000000000002", None),
        ("removed", "04000000000002", None),
    ]


def test_tag_pulled_mid_read_is_not_a_placement(pn532s):
    emu = pn532s()
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", pn532_section(emu.path))])
    try:
        wait_until(lambda: emu.waiting_for_card, "the reader's first card wait")
        emu.lose_tag_after_reads = 1
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        # waits on the pull itself, not on a time a busy machine may outrun
        wait_until(lambda: emu.tag is None, "the tag pulled during its read")
        assert emu.commands["InDataExchange"] > 0  # read directly, not through nfcpy
        assert table.inputs == []  # not "a blank tag 04a1…"
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        table.wait_count("hand-1", 1)
    finally:
        table.runner.stop()
    assert table.of("hand-1") == [("placed", "04a1b2c3d4e5f6", "trident:heart-3")]


def test_reader_vanishing_mid_game_is_lost_then_back_without_spurious_input(pn532s):
    emu = pn532s()
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", pn532_section(emu.path))])
    try:
        assert table.runner.wait_first_connect(30) == []  # a tag placed before would be ignored at connect
        emu.place(HEART3)
        table.wait_count("hand-1", 1)
        emu.vanish()
        table.wait_count("hand-1", 2)
        time.sleep(0.2)  # driver retrying against a missing device node
        emu.come_back()
        table.wait_count("hand-1", 3)
        time.sleep(0.3)  # the tag rested all along: no new placement
        assert [k for k, _, _ in table.of("hand-1")] == ["placed", "lost", "back"]
        emu.vanish()
        emu.remove()  # lifted while the reader was away
        table.wait_count("hand-1", 4)
        emu.come_back()
        table.wait_count("hand-1", 6)
        time.sleep(0.2)
    finally:
        table.runner.stop()
    assert table.of("hand-1") == [
        ("placed", HEART3.uid_hex, "trident:heart-3"),
        ("lost", None, None),
        ("back", None, None),
        ("lost", None, None),
        ("back", None, None),
        ("removed", HEART3.uid_hex, "trident:heart-3"),
    ]
    lost = [i for i in table.inputs if i.kind == "lost"]
    assert all(i.detail for i in lost)


def test_a_tag_with_a_broken_text_record_is_read_by_its_uid(pn532s):
    """nfcpy raises ndef.DecodeError for a text record that is not UTF-8: the piece is
    then known by its uid (the tag map), and the reader goes on working."""
    emu = pn532s()
    broken = Ntag213("04a1b2c3d4e5f6", "trident:heart-3")
    record = bytes([0xD1, 0x01, 5, ord("T"), 0x02]) + b"en\xff\xfe"  # a text record, not UTF-8
    tlv = bytes([0x03, len(record)]) + record + b"\xfe"
    broken.mem[16:16 + len(tlv)] = tlv
    clf = open_pn532(emu.path)
    try:
        emu.place(broken)
        assert identify(clf, sense(clf)) is None
        emu.place(HEART3)
        assert identify(clf, sense(clf)) == "trident:heart-3"
    finally:
        close_quietly(clf)
