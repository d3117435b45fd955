"""nfcpy's own USB drivers (rcs380, acr122, pn533) against readers emulated at the USB transport,
opened by the port a table names them by, and run through our driver and the reader runner."""
from __future__ import annotations

import errno
import functools

import pytest

from kikimimi.readers.nfc_driver import NfcDriver, close_quietly, identify, sense, write_name
from kikimimi.readers.runner import ReaderSettings
from kikimimi.readers.usb_readers import LibusbMissing, open_usb_reader, usb_readers
from support.collect import Table
from support.ntag import Ntag213
from kikimimi.testkit.script import wait_until
from support.usb_device import UsbReaderEmulator
from support.usb_pn53x import Acr122uEmulator, Pn533Emulator, RcS330Emulator
from support.usb_rcs380 import RcS380Emulator

MODELS = {"rcs380": RcS380Emulator, "acr122u": Acr122uEmulator, "pn533": Pn533Emulator, "rcs330": RcS330Emulator}


@pytest.fixture
def devices(tmp_path):
    folder = tmp_path / "sys" / "bus" / "usb" / "devices"
    folder.mkdir(parents=True)
    return folder


def opener(emu: UsbReaderEmulator, devices, path: str | None = None):
    return functools.partial(open_usb_reader, path or emu.path, devices, transport=emu.transport)


@pytest.mark.parametrize("model", MODELS)
def test_nfcpy_opens_senses_reads_and_writes_an_ntag_by_port(model, devices):
    emu = MODELS[model](devices, "1-1.2")
    clf = opener(emu, devices)()
    try:
        assert str(clf.device).endswith("at usb:1-1.2")
        assert sense(clf) is None
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        target = sense(clf)
        assert bytes(target.sdd_res).hex() == "04a1b2c3d4e5f6"
        assert identify(clf, target) == "trident:heart-3"
        assert write_name(clf, sense(clf), "trident:spade-7") == "written"
        assert emu.tag.text() == "trident:spade-7"  # really in the emulated memory
        emu.remove()
        assert sense(clf) is None
        emu.unplug()
        with pytest.raises(OSError):
            sense(clf)
    finally:
        close_quietly(clf)


def test_rcs380_activates_the_tag_over_the_air_itself(devices):
    """The RC-S380 relays raw frames: nfcpy's REQA, anticollision and select reach the tag."""
    emu = RcS380Emulator(devices, "1-2")
    clf = opener(emu, devices)()
    try:
        emu.place(Ntag213("04000000000001"))
        assert bytes(sense(clf).sdd_res).hex() == "04000000000001"
        assert emu.commands["InCommRF"] >= 5  # REQA, two anticollisions, two selects
        assert "GetFirmwareVersion" in emu.commands and emu.bad_frames == 0
    finally:
        close_quietly(clf)
    assert emu.field_on is False  # nfcpy's close switches the field off


def run_table(emu: UsbReaderEmulator, devices, connect: bool = True) -> Table:
    """The reader under the runner; with `connect`, once it has connected (what rests on it then is ignored)."""
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    driver = NfcDriver("hand-1", opener(emu, devices), emu.path, poll_ms=10, retry_ms=30)
    table.runner.start([driver])
    if connect:
        assert table.runner.wait_first_connect(5.0) == []
    return table


@pytest.mark.parametrize("model", MODELS)
def test_place_lift_unplug_and_back_through_the_runner(model, devices):
    emu = MODELS[model](devices, "1-1.3")
    emu.place(Ntag213("04000000000009", "trident:clover-8"))  # resting before the reader opens
    table = run_table(emu, devices)
    try:
        emu.remove()
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        table.wait_count("hand-1", 1)
        assert table.of("hand-1") == [("placed", "04a1b2c3d4e5f6", "trident:heart-3")]  # the resting one ignored
        emu.remove()
        table.wait_count("hand-1", 2)
        assert table.of("hand-1")[1][:2] == ("removed", "04a1b2c3d4e5f6")
        first = emu.devnum
        emu.unplug()
        table.wait_count("hand-1", 3)
        assert table.of("hand-1")[2][0] == "lost"
        emu.place(Ntag213("04000000000002"))
        emu.plug()  # back under a new device number, found again by its port
        assert emu.devnum != first
        table.wait_count("hand-1", 5)
        assert [x[0] for x in table.of("hand-1")[3:5]] == ["back", "placed"]
        assert table.of("hand-1")[4][1] == "04000000000002"
    finally:
        table.runner.stop()
    assert emu.opens == 2


def test_an_empty_port_is_lost_in_one_line_until_a_reader_is_plugged_in(devices):
    emu = RcS380Emulator(devices, "1-4", plugged=False)
    table = run_table(emu, devices, connect=False)
    try:
        table.wait_count("hand-1", 1)
        kind, _uid, _tag = table.of("hand-1")[0][:3]
        detail = table.inputs[0].detail
        assert kind == "lost" and "nothing is plugged into USB port 1-4" in detail and "\n" not in detail
        emu.plug()
        table.wait_count("hand-1", 2)
        emu.place(Ntag213("04000000000003"))
        table.wait_count("hand-1", 3)
        assert [x[0] for x in table.of("hand-1")[1:3]] == ["back", "placed"]
    finally:
        table.runner.stop()


def test_a_status_error_from_the_rcs380_is_a_lost_reader_reopened_not_a_crash(devices):
    emu = RcS380Emulator(devices, "1-1")
    table = run_table(emu, devices)
    try:
        emu.place(Ntag213("04000000000004"))
        table.wait_count("hand-1", 1)
        emu.refuse_once = "SwitchRF"  # nfcpy raises rcs380.StatusError at the next check (the field reset)
        table.wait_count("hand-1", 2)
        assert table.of("hand-1")[1][0] == "lost" and "StatusError" in table.inputs[1].detail
        table.wait_count("hand-1", 3)
        assert table.of("hand-1")[2][0] == "back"  # the tag rested all along: no second placement
        emu.remove()
        table.wait_count("hand-1", 4)
        assert table.of("hand-1")[3][:2] == ("removed", "04000000000004")
    finally:
        table.runner.stop()


def test_nonsense_from_the_reader_is_a_lost_reader_reopened_not_a_crash(devices):
    """nfcpy's rcs380 driver returns None for an error frame (and its own sense then indexes it:
    TypeError); the RC-S380's poll (`Rcs380Poll`) says so itself."""
    emu = RcS380Emulator(devices, "1-1")
    table = run_table(emu, devices)
    try:
        emu.garble_once = "InCommRF"
        table.wait_count("hand-1", 2)
        assert [x[0] for x in table.of("hand-1")] == ["lost", "back"]
        assert "answered nonsense (" in table.inputs[0].detail
        emu.place(Ntag213("04000000000005"))
        table.wait_count("hand-1", 3)
        assert table.of("hand-1")[2][:2] == ("placed", "04000000000005")
    finally:
        table.runner.stop()


def test_two_identical_readers_stay_apart_by_port_across_a_replug(devices):
    """Two RC-S380s share vendor:product; replugged in the other order their device numbers swap.
    Each table path still opens the reader in its own port."""
    left, right = RcS380Emulator(devices, "1-1.1"), RcS380Emulator(devices, "1-1.2")
    left.place(Ntag213("04000000000011"))
    right.place(Ntag213("04000000000022"))
    right.unplug(); left.unplug()
    right.devnum, left.devnum = 10, 11
    right.plug(); left.plug()  # right now enumerates first
    assert left.devnum > right.devnum
    assert [r.path for r in usb_readers(devices)] == ["usb:1-1.1", "usb:1-1.2"]
    for emu, uid in ((left, "04000000000011"), (right, "04000000000022")):
        clf = opener(emu, devices)()
        try:
            assert bytes(sense(clf).sdd_res).hex() == uid
        finally:
            close_quietly(clf)


def test_a_reader_claimed_elsewhere_is_busy(devices):
    emu = Acr122uEmulator(devices, "2-1")
    clf = opener(emu, devices)()
    try:
        with pytest.raises(OSError) as err:
            opener(emu, devices)()
        assert err.value.errno == errno.EBUSY
    finally:
        close_quietly(clf)
    close_quietly(opener(emu, devices)())  # released on close


def test_a_port_holding_something_else_says_so(devices):
    other = devices / "1-3"
    other.mkdir()
    for name, value in {"idVendor": "046d", "idProduct": "c52b", "busnum": "1", "devnum": "7"}.items():
        (other / name).write_text(value + "\n")
    with pytest.raises(OSError, match="1-3 holds 046d:c52b, not an NFC reader"):
        open_usb_reader("usb:1-3", devices, transport=lambda bus, dev: None)
    assert usb_readers(devices) == []


def test_serve_without_libusb_is_one_lost_line_with_the_fix(devices, monkeypatch):
    """No emulator here: the real opener, with libusb reported missing as usb1 reports it."""
    import kikimimi.readers.usb_readers as usb

    monkeypatch.setattr(usb, "libusb_problem", lambda: "libusb-1.0 cannot be loaded "
                        "(cannot find a suitable libusb-1.0)")
    with pytest.raises(LibusbMissing, match="sudo apt-get install libusb-1.0-0"):
        open_usb_reader("usb:1-1", devices)
    table = Table([ReaderSettings("field", "field", None)])
    table.runner.start([NfcDriver("field", functools.partial(open_usb_reader, "usb:1-1", devices), "usb:1-1",
                                  retry_ms=30)])
    try:
        table.wait_count("field", 1)
        detail = table.inputs[0].detail
        assert table.inputs[0].kind == "lost" and "apt-get install libusb-1.0-0" in detail and "\n" not in detail
    finally:
        table.runner.stop()


# USB commands nfcpy 1.0.4 sends for one poll of an empty reader and for reading a named tag
# (docs/readers.md, the USB table's "nfcpy's own" column): each is one bulk OUT and two bulk IN
# transfers (ACK, answer).
POLL_COST = {"rcs380": (6, 29), "rcs330": (6, 25), "acr122u": (4, 24), "pn533": (4, 24)}


@pytest.mark.parametrize("model", MODELS)
def test_commands_per_poll_and_per_named_tag_read(model, devices):
    emu = MODELS[model](devices, "1-1")
    clf = opener(emu, devices)()

    def sent() -> int:
        return sum(n for name, n in emu.commands.items() if name != "ACK")
    try:
        before = sent()
        assert sense(clf) is None
        empty = sent() - before
        emu.place(Ntag213("04a1b2c3d4e5f6", "trident:heart-3"))
        target = sense(clf)
        before = sent()
        assert identify(clf, target) == "trident:heart-3"
        assert (empty, sent() - before) == POLL_COST[model]
    finally:
        close_quietly(clf)


#: Each model's poll command, and answers to it that a bad cable or a noisy reader sends: a frame
#: cut short (an RC-S380's status of one byte: nfcpy's CommunicationError then fails in
#: struct.unpack; a PN53x's "one target" with no target after it), and one that is garbage.
POLLS = {"rcs380": "InCommRF", "acr122u": "InListPassiveTarget", "pn533": "InListPassiveTarget",
         "rcs330": "InListPassiveTarget"}
BAD = {"short": b"\x01", "garbled": b"\x01\xff\x00\x07"}


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize("model", MODELS)
def test_a_short_or_garbled_frame_while_a_piece_rests_is_lost_then_back_never_a_dead_driver(model, bad, devices):
    """One short frame from an RC-S380 with a piece resting on it left the driver dead
    until `serve` restarted ("driver hand-1 crashed"); every USB reader survives one: the frame
    is taken for noise, or the reader is lost and back, and the driver goes on hearing pieces."""
    emu = MODELS[model](devices, "1-1")
    table = run_table(emu, devices)
    try:
        emu.place(Ntag213("04000000000006"))
        table.wait_count("hand-1", 1)
        emu.mangle_once = (POLLS[model], BAD[bad])
        wait_until(lambda: emu.mangle_once is None, "the bad frame sent")
        emu.remove()  # the driver is alive: the lifted piece is heard, and the next one too
        table.wait(lambda ins: any(i.kind == "removed" for i in ins))
        emu.place(Ntag213("04000000000007"))
        table.wait(lambda ins: [i.kind for i in ins][-1:] == ["placed"] and len(ins) > 2)
        kinds = [x[0] for x in table.of("hand-1")]
        assert kinds in (["placed", "removed", "placed"], ["placed", "lost", "back", "removed", "placed"]), kinds
        assert not any("crashed" in (i.detail or "") or "\n" in (i.detail or "") for i in table.inputs)
        assert table.of("hand-1")[-1][:2] == ("placed", "04000000000007")
        if (model, bad) == ("rcs380", "short"):  # nfcpy's struct.error: the reader is reopened
            assert kinds[1:3] == ["lost", "back"] and "short frame" in table.inputs[1].detail
    finally:
        table.runner.stop()
