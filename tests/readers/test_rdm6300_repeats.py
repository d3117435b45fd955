"""RDM6300 modules as they are sold: uneven repeats, and modules that stop repeating.

With the old fixed 250 ms hold and a backdated removal, repeats 300-500 ms apart
made 16-26 removed/placed inputs in 4 s, and a module that went quiet after 28
frames lifted a resting card ~1.8 s after it was placed.

The tests wait on events (the reader connected, the emulator's frames sent, the
table's inputs) and check the lift against the removal's own time `t` and the
emulator's last frame, never a wall-clock figure: how soon a lift is heard on a
real machine is bench/reader_latency.py's."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest

from kikimimi.readers.factory import make_driver
from kikimimi.readers.runner import ReaderSettings
from kikimimi.readers.serial_rfid import HOLD_CAP_S, SerialRfidDriver
from support.collect import Table
from support.rdm6300_emulator import Rdm6300Emulator
from kikimimi.testkit.script import wait_until

CARD = "0a1b2c3d4e"
DEBOUNCE_S = 0.15
GUARD_S = 60  # a hang guard only: every wait below ends on its event


def _table(path: str, **section) -> tuple[Table, SerialRfidDriver]:
    """A field reader on `path`, connected (it has listened one hold for cards resting at connect)."""
    table = Table([ReaderSettings("field", "field", None, debounce_ms=int(DEBOUNCE_S * 1000))])
    driver = make_driver("field", {"driver": "rdm6300", "path": path, "retry_ms": 50, **section})
    assert isinstance(driver, SerialRfidDriver)
    table.runner.start([driver])
    assert table.runner.wait_first_connect(GUARD_S) == []
    return table, driver


def _not_starved(emu: Rdm6300Emulator, driver: SerialRfidDriver) -> None:
    """Called on a lift the test did not expect.  The emulator is a thread of this busy
    process: if it went quiet longer than the least hold, the module itself was silent and
    a lift heard then is the rule working; the run says nothing about repeats then
    (bench/suite_under_load.py at load 20 did that)."""
    if emu.longest_silence >= driver.hold_s:
        pytest.skip(f"the emulated module was starved: {emu.longest_silence:.2f} s between two repeats")


def _repeats(emu: Rdm6300Emulator, n: int) -> None:
    since = emu.frames_sent
    wait_until(lambda: emu.frames_sent >= since + n, f"{n} more repeats of the resting card", GUARD_S)


@pytest.mark.parametrize("gaps_ms", [[300, 500, 420, 340, 480], [50], [120, 40, 260, 90]])
def test_uneven_repeats_are_one_placement_and_a_lift_is_heard_within_a_second(rdm6300s, gaps_ms):
    emu = rdm6300s(gaps_ms=gaps_ms)
    table, driver = _table(emu.path)
    try:
        emu.place(CARD)
        table.wait_count("field", 1, timeout=GUARD_S)
        _repeats(emu, 10)  # resting through ~10 uneven repeats
        emu.remove()
        table.wait_count("field", 2, timeout=GUARD_S)
    finally:
        table.runner.stop()
    if table.of("field") != [("placed", CARD, None), ("removed", CARD, None)]:
        _not_starved(emu, driver)
    assert table.of("field") == [("placed", CARD, None), ("removed", CARD, None)]  # 0 flaps, 0 false lifts
    last_frame, removed = emu.last_frame_at, table.inputs[-1]
    assert last_frame is not None
    # the rule: lifted once the silence after the last repeat outlasts the hold, then the debounce ...
    assert removed.t - last_frame >= driver.hold() + DEBOUNCE_S
    # ... and that hold, learnt from these gaps, keeps a lift heard within a second of it
    assert driver.hold_s <= driver.hold() <= HOLD_CAP_S and HOLD_CAP_S + DEBOUNCE_S <= 1.0


@contextlib.contextmanager
def _placed_on_a_module_that_stops(rdm6300s) -> Iterator[tuple[Rdm6300Emulator, Table]]:
    """A module that goes quiet after 28 frames (1.4 s), the card just placed and heard."""
    emu = rdm6300s(repeat_ms=50, stops_after=28)
    table, driver = _table(emu.path, stops_after=28)
    try:
        emu.place(CARD)
        table.wait_count("field", 1, timeout=GUARD_S)
        yield emu, table
    except AssertionError:
        _not_starved(emu, driver)
        raise
    finally:
        table.runner.stop()


def test_a_module_that_stops_repeating_does_not_lift_the_resting_card(rdm6300s):
    with _placed_on_a_module_that_stops(rdm6300s) as (emu, table):
        wait_until(lambda: emu.run == 28, "the module gone quiet", GUARD_S)
        # a silence longer than any hold and the debounce: a module's own, not a lift
        time.sleep(HOLD_CAP_S + DEBOUNCE_S + 0.1)
        assert table.of("field") == [("placed", CARD, None)]  # no false lift
        emu.remove()
        emu.place("00000000ff")  # the next card is read: the first one is heard lifted then
        table.wait_count("field", 3, timeout=GUARD_S)
    assert table.of("field") == [("placed", CARD, None), ("removed", CARD, None), ("placed", "00000000ff", None)]


def test_a_quick_lift_on_a_module_that_stops_is_still_heard(rdm6300s):
    with _placed_on_a_module_that_stops(rdm6300s) as (emu, table):
        emu.remove()  # lifted as soon as it was heard: before the module went quiet
        assert emu.run < 28
        table.wait_count("field", 2, timeout=GUARD_S)
    assert table.of("field") == [("placed", CARD, None), ("removed", CARD, None)]
