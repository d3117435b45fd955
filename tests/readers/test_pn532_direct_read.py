"""A piece not in the tag map, read with a few Type 2 READs of the tag the chip
already selected (InDataExchange), not nfcpy's 29-command activation; and the
bytes a reader sends back, checked before they are believed."""
from __future__ import annotations

import threading

import nfc.clf
import pytest

from kikimimi.readers.nfc_driver import (
    MAX_READS, CardWait, ReadFailed, TagGone, close_quietly, open_pn532, parse_targets, read_type2_name,
    sense, write_name)
from support.chip_timing import REAL
from support.ntag import Ntag213, ndef_tlv

UID = "04a1b2c3d4e5f6"


@pytest.fixture
def reader(pn532s):
    emu = pn532s(timing=REAL)
    clf = open_pn532(emu.path)
    waiter = CardWait.of(clf)
    assert waiter is not None
    yield emu, clf, waiter
    close_quietly(clf)


def _read(emu, waiter, tag: Ntag213) -> tuple[str | None, int]:
    """(name, chip commands) for `tag` found by the card wait and read directly."""
    emu.place(tag)
    found = waiter.wait(threading.Event())
    assert [t.uid for t in found] == [tag.uid_hex]
    before = emu.command_count()
    return waiter.read_name(found[0]), emu.command_count() - before


def test_a_named_piece_is_read_in_two_reads(reader):
    emu, _, waiter = reader
    name, commands = _read(emu, waiter, Ntag213(UID, "trident:heart-3"))
    assert name == "trident:heart-3"
    assert commands == 2 and emu.commands["InDataExchange"] == 2  # pages 3-6, then 7-10
    assert emu.commands["InCommunicateThru"] == 0 and emu.commands["WriteRegister"] == 0


def test_a_factory_tag_named_by_nfcpy_keeps_its_lock_tlv_and_reads(reader):
    emu, clf, waiter = reader
    tag = Ntag213.new(UID)
    emu.place(tag)
    assert write_name(clf, sense(clf), "trident:spade-10") == "written"
    assert tag.tlvs()[0][0] == 0x01  # the Lock Control TLV comes first: the read steps over it
    name, commands = _read(emu, waiter, tag)
    assert name == "trident:spade-10" and commands <= 3


@pytest.mark.parametrize("kind", ["blank", "empty message", "not ndef", "not a name"])
def test_a_tag_without_a_name_is_known_by_its_uid(reader, kind):
    emu, _, waiter = reader
    tag = {"blank": lambda: Ntag213.new(UID), "empty message": lambda: Ntag213(UID),
           "not ndef": lambda: Ntag213(UID, "trident:heart-3"),
           "not a name": lambda: Ntag213(UID, "hello world")}[kind]()
    if kind == "not ndef":
        tag.mem[12:16] = bytes(4)  # no capability container
    name, commands = _read(emu, waiter, tag)
    assert name is None and commands <= 3


def test_a_tag_that_leaves_mid_read_is_gone_not_nameless(reader):
    emu, _, waiter = reader
    emu.lose_tag_after_reads = 1  # the second READ finds nothing
    emu.place(Ntag213(UID, "trident:heart-3"))
    found = waiter.wait(threading.Event())
    with pytest.raises(TagGone):
        waiter.read_name(found[0])


def _memory_reader(mem: bytes, reads: list[int]):
    def read(page: int) -> bytes:
        reads.append(page)
        if page * 4 + 16 > len(mem):
            raise ReadFailed("past the end")
        return mem[page * 4:page * 4 + 16]
    return read


def test_the_tlv_walk_takes_three_byte_lengths_and_null_padding():
    from ndef import TextRecord, message_encoder
    msg = b"".join(message_encoder([TextRecord("trident:" + "a" * 300)]))
    body = b"\x00\x00" + bytes([0x03, 0xFF, len(msg) >> 8, len(msg) & 0xFF]) + msg + b"\xfe"
    mem = bytes(12) + bytes([0xE1, 0x10, 0x6D, 0x00]) + body + bytes(880 - len(body))
    reads: list[int] = []
    assert read_type2_name(_memory_reader(mem, reads)) == "trident:" + "a" * 300
    assert len(reads) == 1 + (len(body) - 12 + 15) // 16  # no READ past the message


def test_a_capability_container_claiming_too_much_is_not_read_forever():
    mem = bytes(12) + bytes([0xE1, 0x10, 0xFF, 0x00]) + bytes(4096)  # NULL TLVs all the way
    reads: list[int] = []
    assert read_type2_name(_memory_reader(mem, reads)) is None
    assert len(reads) <= MAX_READS


def test_a_message_tlv_is_read_only_as_far_as_the_data_area_goes():
    mem = bytes(12) + bytes([0xE1, 0x10, 0x06, 0x00]) + bytes([0x03, 0xF0]) + bytes(200)  # 48-byte area
    reads: list[int] = []
    assert read_type2_name(_memory_reader(mem, reads)) is None
    assert reads == [3, 7, 11, 15]  # pages 4..15 are the 48 bytes; none past them


@pytest.mark.parametrize("rsp", ["", "03", "0101004400", "0101004400070401", "010100442007" + "04" * 7])
def test_a_malformed_list_answer_is_a_protocol_error(rsp):
    with pytest.raises(nfc.clf.ProtocolError):
        parse_targets(bytes.fromhex(rsp))


def test_list_answers_are_parsed_per_target():
    two = bytes.fromhex("02" + "01004400" + "07" + UID + "02004400" + "07" + "04000000000001")
    got = parse_targets(two)
    assert [(t.tg, t.uid, t.type2) for t in got] == [(1, UID, True), (2, "04000000000001", True)]
    iso_dep = bytes.fromhex("01" + "01000420" + "04" + "01020304" + "05" + "75778102")  # ATS of 5 bytes
    assert [(t.uid, t.type2) for t in parse_targets(iso_dep)] == [("01020304", False)]
    assert parse_targets(b"\x00") == []
