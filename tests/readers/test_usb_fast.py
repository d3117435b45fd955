"""USB readers read as fast as their chip allows, through nfcpy's own USB
drivers against the emulated readers: chip commands per placement, counted from the
instant the piece goes down to the placement the driver emits, and several pieces on
one reader.

A PN53x (ACR122U, PN533, RC-S330) lists targets itself: an enrolled piece is the one
InListPassiveTarget that found it, a piece not enrolled two Type 2 READs more
(InDataExchange to the listed target), as on a PN532 on a serial line."""
from __future__ import annotations

import collections
import functools
import threading

import pytest

from kikimimi.readers.base import RawEvent
from kikimimi.readers.nfc_driver import NfcDriver
from kikimimi.readers.runner import ReaderSettings
from kikimimi.readers.usb_readers import open_usb_reader
from support.collect import Table
from support.ntag import Ntag213
from kikimimi.testkit.script import wait_until
from support.usb_device import UsbReaderEmulator
from support.usb_pn53x import Acr122uEmulator, Pn533Emulator, RcS330Emulator
from support.usb_rcs380 import RcS380Emulator

PN53X = {"acr122u": Acr122uEmulator, "pn533": Pn533Emulator, "rcs330": RcS330Emulator}
# The last uid byte decides the anticollision (first bit sent, the least significant, first;
# a 1 wins): ...03 beats ...01 beats ...02.
FIRST, SECOND, THIRD = "04000000000003", "04000000000001", "04000000000002"
NAMED = "04a1b2c3d4e5f6"
FIELD_OFF = "RFConfiguration"  # what an empty PN53x reader's poll ends with


@pytest.fixture
def devices(tmp_path):
    folder = tmp_path / "sys" / "bus" / "usb" / "devices"
    folder.mkdir(parents=True)
    return folder


class Watch:
    """One NfcDriver on its own thread; each event kept with the reader's command counts
    at the instant the driver emitted it (the driver's thread: nothing sent in between)."""

    def __init__(self, emu: UsbReaderEmulator, devices, known=()) -> None:
        self.emu = emu
        self.events: list[tuple[RawEvent, collections.Counter[str]]] = []
        self.changed = threading.Condition()
        self.stop = threading.Event()
        opener = functools.partial(open_usb_reader, emu.path, devices, transport=emu.transport)
        self.driver = NfcDriver("hand-1", opener, emu.path, poll_ms=5, retry_ms=30, known=known)
        self.thread = threading.Thread(target=self.driver.run, args=(self.emit, self.stop), daemon=True)

    def emit(self, event: RawEvent) -> None:
        with self.changed:
            self.events.append((event, collections.Counter(self.emu.commands)))
            self.changed.notify_all()

    def kinds(self) -> list[str]:
        with self.changed:
            return [e.kind for e, _ in self.events]

    def wait_for(self, n: int, what: str) -> None:
        wait_until(lambda: len(self.kinds()) >= n, what)

    def __enter__(self) -> Watch:
        self.thread.start()
        self.wait_for(1, "connected")
        assert self.kinds() == ["connected"]
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)

    def cost(self, n: int) -> collections.Counter[str]:
        """The commands sent from the armed placement to event `n` (0-based), by name."""
        cost = collections.Counter(self.events[n][1])
        cost.subtract(self.emu.armed_counts)
        del cost["ACK"]
        return +cost


@pytest.mark.parametrize("model", PN53X)
def test_an_enrolled_piece_costs_one_chip_command(model, devices):
    emu = PN53X[model](devices, "1-1.2")
    with Watch(emu, devices, known={NAMED}) as watch:
        down = emu.add_after(FIELD_OFF, Ntag213(NAMED, "trident:heart-3"))
        watch.wait_for(2, "placed")
        assert down.is_set()
        event = watch.events[1][0]
        assert (event.kind, event.uid, event.tag) == ("placed", NAMED, None)  # known by uid: not read
        assert watch.cost(1) == {"InListPassiveTarget": 1}


@pytest.mark.parametrize("model", PN53X)
def test_a_piece_not_enrolled_is_read_in_two_direct_reads(model, devices):
    emu = PN53X[model](devices, "1-1.2")
    with Watch(emu, devices) as watch:
        emu.add_after(FIELD_OFF, Ntag213(NAMED, "trident:heart-3"))
        watch.wait_for(2, "placed")
        event = watch.events[1][0]
        assert (event.kind, event.uid, event.tag) == ("placed", NAMED, "trident:heart-3")
        assert watch.cost(1) == {"InListPassiveTarget": 1, "InDataExchange": 2}  # ≤ 8


@pytest.mark.parametrize("model", ["acr122u", "pn533"])
def test_two_pieces_put_down_together_are_both_heard_in_one_command(model, devices):
    emu = PN53X[model](devices, "1-1.3")
    with Watch(emu, devices, known={FIRST, SECOND}) as watch:
        emu.add_after(FIELD_OFF, Ntag213(SECOND), Ntag213(FIRST))
        watch.wait_for(3, "both placed")
        assert [(e.kind, e.uid) for e, _ in watch.events[1:3]] == [("placed", FIRST), ("placed", SECOND)]
        assert watch.cost(2) == {"InListPassiveTarget": 1}  # one answer listed both


def run_table(emu: UsbReaderEmulator, devices) -> Table:
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    opener = functools.partial(open_usb_reader, emu.path, devices, transport=emu.transport)
    table.runner.start([NfcDriver("hand-1", opener, emu.path, poll_ms=5, retry_ms=30)])
    assert table.runner.wait_first_connect(5.0) == []
    return table


def polls(emu: UsbReaderEmulator | RcS380Emulator, n: int, command: str = "InListPassiveTarget") -> None:
    """Wait until the driver has sent the reader `command` (its poll) `n` more times (events, not time)."""
    start = emu.commands[command]
    wait_until(lambda: emu.commands[command] >= start + n, f"{n} {command}")


@pytest.mark.parametrize("model", PN53X)
def test_a_piece_put_beside_a_resting_one_does_not_lift_it(model, devices):
    """The newcomer wins the anticollision; the resting piece is lifted only when its own uid is silent.
    (On the RC-S330, asked for one target, the resting one is asked for by its uid.)"""
    emu = PN53X[model](devices, "1-1.4")
    table = run_table(emu, devices)
    try:
        resting = Ntag213(SECOND)
        emu.add(resting)
        table.wait_count("hand-1", 1)
        emu.add(Ntag213(FIRST))
        table.wait_count("hand-1", 2)
        polls(emu, 40)  # far past the 60 ms debounce at 5 ms polls
        assert table.of("hand-1") == [("placed", SECOND, None), ("placed", FIRST, None)]  # no phantom lift
        emu.remove(resting)
        table.wait_count("hand-1", 3)
        assert table.of("hand-1")[2][:2] == ("removed", SECOND)
    finally:
        table.runner.stop()


@pytest.mark.parametrize("model", ["acr122u", "pn533"])
def test_two_pieces_together_both_heard_and_never_flap(model, devices):
    emu = PN53X[model](devices, "1-1.5")
    table = run_table(emu, devices)
    try:
        emu.add(Ntag213(THIRD), Ntag213(FIRST))
        table.wait_count("hand-1", 2)
        polls(emu, 40)
        assert sorted(table.of("hand-1")) == [("placed", THIRD, None), ("placed", FIRST, None)]
    finally:
        table.runner.stop()


def test_a_chip_that_refuses_two_targets_is_asked_for_one(devices):
    """A PN53x whose firmware answers MaxTg = 2 with an error frame still reads pieces, one at a time."""
    emu = Pn533Emulator(devices, "1-1.6")
    original = emu.chip._cmd_4a

    def strict(p: bytes) -> bytes | None:
        emu.commands["refused"] += p[:1] == b"\x02"
        return None if p[:1] == b"\x02" else original(p)  # None: the chip's error frame
    strict.__doc__ = original.__doc__
    emu.chip._cmd_4a = strict
    with Watch(emu, devices, known={NAMED}) as watch:
        emu.add_after(FIELD_OFF, Ntag213(NAMED))
        watch.wait_for(2, "placed")
        assert watch.events[1][0].uid == NAMED and emu.commands["refused"] == 1


# -- the RC-S380: anticollision is the host's, every frame on the air one InCommRF ----------------
def test_an_enrolled_piece_on_an_rcs380_costs_five_commands(devices):
    """REQA, the bit count to 8, anticollision + SELECT at level 1, anticollision at level 2:
    the uid, and no more (nfcpy's sense: 13)."""
    emu = RcS380Emulator(devices, "1-2")
    with Watch(emu, devices, known={NAMED}) as watch:
        emu.add_after("InCommRF", Ntag213(NAMED, "trident:heart-3"))  # after an empty poll's REQA
        watch.wait_for(2, "placed")
        event = watch.events[1][0]
        assert (event.kind, event.uid, event.tag) == ("placed", NAMED, None)
        assert watch.cost(1) == {"InCommRF": 4, "InSetProtocol": 1}


def test_a_piece_not_enrolled_on_an_rcs380_is_read_in_eight_commands(devices):
    emu = RcS380Emulator(devices, "1-2")
    with Watch(emu, devices) as watch:
        emu.add_after("InCommRF", Ntag213(NAMED, "trident:heart-3"))
        watch.wait_for(2, "placed")
        event = watch.events[1][0]
        assert (event.kind, event.uid, event.tag) == ("placed", NAMED, "trident:heart-3")
        assert watch.cost(1) == {"InCommRF": 7, "InSetProtocol": 1}  # + the last SELECT and two READs


def test_an_empty_rcs380_keeps_its_field_on_and_polls_with_one_command(devices):
    emu = RcS380Emulator(devices, "1-2")
    with Watch(emu, devices):
        polls(emu, 3, "InCommRF")
        before = collections.Counter(emu.commands)
        polls(emu, 10, "InCommRF")
        spent = collections.Counter(emu.commands)
        spent.subtract(before)
        assert +spent == {"InCommRF": spent["InCommRF"]} and emu.field_on  # REQA alone, field on


def test_a_piece_put_beside_a_resting_one_on_an_rcs380_does_not_lift_it(devices):
    """The two collide in anticollision: neither is read, but the resting one answers a SELECT by
    its uid, so it stays; the newcomer is heard once the resting one is lifted."""
    emu = RcS380Emulator(devices, "1-2")
    table = run_table(emu, devices)
    try:
        resting = Ntag213(SECOND)
        emu.add(resting)
        table.wait_count("hand-1", 1)
        emu.add(Ntag213(FIRST))
        polls(emu, 60, "InCommRF")  # ~10 checks, far past the 60 ms debounce
        assert table.of("hand-1") == [("placed", SECOND, None)]  # no phantom lift
        emu.remove(resting)
        table.wait_count("hand-1", 3)
        assert sorted(table.of("hand-1")[1:]) == [("placed", FIRST, None), ("removed", SECOND, None)]
    finally:
        table.runner.stop()


def test_two_pieces_put_down_together_on_an_rcs380_are_heard_one_after_the_other(devices):
    """What the chip cannot do: two pieces that arrive together collide; neither is placed (no
    wrong uid, no crash) until one is lifted, then the other is."""
    emu = RcS380Emulator(devices, "1-2")
    table = run_table(emu, devices)
    try:
        first = Ntag213(FIRST)
        emu.add(Ntag213(SECOND), first)
        polls(emu, 30, "InCommRF")
        assert table.of("hand-1") == []
        emu.remove(first)
        table.wait_count("hand-1", 1)
        assert table.of("hand-1") == [("placed", SECOND, None)]
    finally:
        table.runner.stop()


ALL = {**PN53X, "rcs380": RcS380Emulator}


@pytest.mark.parametrize("model", ALL)
def test_enrolment_writes_through_nfcpy_and_the_fast_path_reads_after_it(model, devices):
    """Enrolment writes with nfcpy's own activation, which sets the chip its way; the next
    piece is read by the fast path again (on the RC-S380: its settings sent anew)."""
    emu = ALL[model](devices, "1-1.7")
    with Watch(emu, devices) as watch:
        watch.driver.labeller = lambda uid, name: "trident:heart-9"
        blank = Ntag213.new(FIRST)
        emu.add(blank)
        watch.wait_for(2, "enrolled")
        watch.driver.labeller = None
        assert watch.events[1][0].detail == "written" and blank.text() == "trident:heart-9"
        emu.remove()
        watch.wait_for(3, "lifted")
        emu.add_after(FIELD_OFF if model in PN53X else "InCommRF", Ntag213(NAMED, "trident:spade-2"))
        watch.wait_for(4, "placed")
        assert (watch.events[3][0].uid, watch.events[3][0].tag) == (NAMED, "trident:spade-2")
        assert sum(watch.cost(3).values()) == (3 if model in PN53X else 8)


# one check of a resting piece, from one poll's first command to the next's (docs/readers.md's table)
CHECK = {"acr122u": ("RFConfiguration", {"RFConfiguration": 1, "InListPassiveTarget": 1}),
         "pn533": ("RFConfiguration", {"RFConfiguration": 1, "InListPassiveTarget": 1}),
         "rcs330": ("Reset", {"Reset": 1, "RFConfiguration": 1, "InListPassiveTarget": 1}),
         "rcs380": ("SwitchRF", {"SwitchRF": 1, "InSetProtocol": 2, "InCommRF": 4})}


@pytest.mark.parametrize("model", ALL)
def test_a_resting_piece_is_checked_with_the_fewest_commands(model, devices):
    emu = ALL[model](devices, "1-1.8")
    first, per_check = CHECK[model]
    with Watch(emu, devices, known={NAMED}) as watch:
        emu.add(Ntag213(NAMED))
        watch.wait_for(2, "placed")
        assert emu.add_after(first).wait(5)  # no tags: only the counts at that instant
        start = collections.Counter(emu.armed_counts)
        assert emu.add_after(first).wait(5)
        spent = collections.Counter(emu.armed_counts)
        spent.subtract(start)
        del spent["ACK"]
        assert +spent == per_check


class GarbledReads(Ntag213):
    """A tag whose READ answers arrive with a broken CRC (a noisy field)."""

    def command(self, cmd: bytes) -> bytes | None:
        answer = super().command(cmd)
        if answer is not None and cmd[:1] == b"\x30":
            return answer[:-1] + bytes([answer[-1] ^ 0xFF])
        return answer


def test_an_rcs380_read_with_a_broken_crc_leaves_the_piece_known_by_its_uid(devices):
    """The host checks CRC_A itself on the RC-S380: a bad answer is a failed READ (read once more
    after the tag answered a SELECT by its uid), never a wrong name, a traceback or a lost reader."""
    emu = RcS380Emulator(devices, "1-2")
    with Watch(emu, devices) as watch:
        emu.add(GarbledReads(NAMED, "trident:heart-3"))
        watch.wait_for(2, "placed")
        event = watch.events[1][0]
        assert (event.kind, event.uid, event.tag) == ("placed", NAMED, None)
        assert watch.kinds() == ["connected", "placed"]
