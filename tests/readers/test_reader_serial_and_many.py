"""pyserial against the RDM6300 emulator, several readers at once, and the factory."""
from __future__ import annotations

import threading
import time

import pytest

from kikimimi.readers.factory import make_driver, make_settings
from kikimimi.readers.nfc_driver import NfcDriver
from kikimimi.readers.runner import ReaderSettings
from kikimimi.readers.serial_rfid import FrameParser, SerialRfidDriver, encode_frame
from support.collect import Table
from support.ntag import Ntag213


def test_frame_parser_checks_checksums_and_framing():
    p = FrameParser()
    good = encode_frame("0a1b2c3d4e")
    crlf = encode_frame("0000000001", crlf=True)
    bad = bytearray(encode_frame("0a1b2c3d4e"))
    bad[11] ^= 0x01
    stream = b"\xff" + good[:5]  # noise, then half a frame
    assert p.feed(stream) == []
    assert p.feed(good[5:] + bytes(bad) + crlf) == ["0a1b2c3d4e", "0000000001"]
    assert p.bad == 1
    assert p.feed(b"\x02GARBAGE!!!!\x03") == [] and p.bad == 2


def test_rdm6300_rest_lift_bad_frames_and_unplug(rdm6300s):
    emu = rdm6300s(repeat_ms=20)
    table = Table([ReaderSettings("field", "field", None, debounce_ms=50)])
    drv = make_driver("field", {"driver": "rdm6300", "path": emu.path, "hold_ms": 120, "retry_ms": 50})
    assert isinstance(drv, SerialRfidDriver)
    table.runner.start([drv])
    try:
        assert table.runner.wait_first_connect(30) == []  # a card placed before would be ignored at connect
        emu.send_bad_frame("0a1b2c3d4e")  # a half-read card is not a placement
        time.sleep(0.1)
        assert table.inputs == []
        emu.place("0a1b2c3d4e")
        table.wait_count("field", 1)
        time.sleep(0.5)  # ~25 repeated frames: still one placement
        emu.remove()
        table.wait_count("field", 2)
        emu.place("00000000ff")
        table.wait_count("field", 3)
        emu.vanish()
        table.wait_count("field", 4)
        emu.come_back()
        table.wait_count("field", 5)
        time.sleep(0.3)
    finally:
        table.runner.stop()
    assert table.of("field") == [
        ("placed", "0a1b2c3d4e", None),
        ("removed", "0a1b2c3d4e", None),
        ("placed", "00000000ff", None),
        ("lost", None, None),
        ("back", None, None),
    ]
    assert emu.frames_sent > 20


def test_wrong_line_speed_hears_nothing(rdm6300s):
    emu = rdm6300s(repeat_ms=20)
    emu.place("0a1b2c3d4e")
    table = Table([ReaderSettings("field", "field", None, debounce_ms=50, ignore_at_connect=False)])
    table.runner.start([SerialRfidDriver("field", emu.path, baud=19200, hold_ms=100)])
    try:
        time.sleep(0.5)
    finally:
        table.runner.stop()
    assert table.of("field") == []  # connected, but noise is not a card
    assert emu.frames_sent > 5


def test_four_readers_at_once(pn532s, rdm6300s):
    hands = [pn532s(f"hand-{k}") for k in (1, 2, 3)]
    field = rdm6300s("field", repeat_ms=20)
    settings = [ReaderSettings(f"hand-{k}", "hand", k, debounce_ms=60) for k in (1, 2, 3)]
    settings.append(ReaderSettings("field", "field", None, debounce_ms=60))
    table = Table(settings)
    drivers = [make_driver(f"hand-{k}", {"driver": "pn532", "path": e.path, "poll_ms": 10, "retry_ms": 50})
               for k, e in zip((1, 2, 3), hands)]
    drivers.append(make_driver("field", {"driver": "rdm6300", "path": field.path, "hold_ms": 120}))
    table.runner.start(drivers)
    try:
        assert table.runner.wait_first_connect(30) == []  # every reader open before the seats play
        tags = [Ntag213(f"04{k:012x}", f"trident:heart-{k}") for k in (1, 2, 3)]

        def play(k: int) -> None:  # each seat plays at the same moment
            emu = hands[k - 1]
            emu.place(tags[k - 1])
            time.sleep(0.25)
            emu.place(Ntag213(f"04{k + 10:012x}", f"trident:spade-{k}"))  # swap
            time.sleep(0.25)
            emu.remove()
        threads = [threading.Thread(target=play, args=(k,)) for k in (1, 2, 3)]
        for th in threads:
            th.start()
        field.place("0a1b2c3d4e")
        for th in threads:
            th.join()
        table.wait(lambda ins: len([i for i in ins if i.role == "hand"]) == 12)
        hands[1].vanish()  # seat 2's reader drops out, then returns
        table.wait(lambda ins: any(i.kind == "lost" for i in ins))
        hands[1].come_back()
        table.wait(lambda ins: any(i.kind == "back" for i in ins))
        field.remove()
        table.wait_count("field", 2)
        table.wait(lambda ins: len(ins) == 3 * 4 + 2 + 2)
        time.sleep(0.2)
    finally:
        table.runner.stop()
    for k in (1, 2, 3):
        a, b = f"04{k:012x}", f"04{k + 10:012x}"
        expected = [("placed", a, f"trident:heart-{k}"), ("removed", a, f"trident:heart-{k}"),
                    ("placed", b, f"trident:spade-{k}"), ("removed", b, f"trident:spade-{k}")]
        if k == 2:
            expected += [("lost", None, None), ("back", None, None)]
        assert table.of(f"hand-{k}") == expected
        assert {i.seat for i in table.inputs if i.reader == f"hand-{k}"} == {k}
    assert table.of("field") == [("placed", "0a1b2c3d4e", None), ("removed", "0a1b2c3d4e", None)]
    ts = [i.t for i in table.inputs]
    assert ts == sorted(ts)


@pytest.mark.parametrize("section, words", [
    ({"driver": "acme", "path": "/dev/x"}, "driver must be one of"),
    ({"driver": "pn532"}, "path is missing"),
    ({"driver": "pn532", "path": "/dev/x", "poll_ms": "fast"}, "poll_ms"),
    ({"driver": "pn532", "path": "/dev/x", "baud": 0}, "baud"),
    ({"driver": "usb", "path": "usb"}, "the USB port it is plugged into"),
    ({"driver": "rdm6300", "path": "/dev/x", "hold_ms": True}, "hold_ms"),
])
def test_factory_refuses_bad_sections_in_one_line(section, words):
    with pytest.raises(ValueError) as err:
        make_driver("hand-1", section)
    msg = str(err.value)
    assert words in msg and msg.startswith("reader hand-1:") and "\n" not in msg


def test_factory_builds_drivers_and_settings():
    usb = make_driver("hand-2", {"driver": "usb", "path": "usb:054c:06c3", "poll_ms": 25})
    assert isinstance(usb, NfcDriver) and usb.poll_s == 0.025 and usb.reader == "hand-2"
    s = make_settings("hand-2", {"role": "hand", "seat": 2, "debounce_ms": 90, "ignore_at_connect": False})
    assert s == ReaderSettings("hand-2", "hand", 2, 90, False)
    with pytest.raises(ValueError, match="needs seat"):
        make_settings("hand-3", {"role": "hand"})
    with pytest.raises(ValueError, match="role"):
        make_settings("x", {"role": "table"})
