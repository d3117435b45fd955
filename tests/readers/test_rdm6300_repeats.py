"""RDM6300 modules as they are sold: uneven repeats, and modules that stop repeating.

With the old fixed 250 ms hold and a backdated removal, repeats 300-500 ms apart
made 16-26 removed/placed inputs in 4 s, and a module that went quiet after 28
frames lifted a resting card ~1.8 s after it was placed."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest

from kikimimi.readers.factory import make_driver
from kikimimi.readers.runner import ReaderSettings
from kikimimi.testing.collect import Table
from kikimimi.testing.rdm6300_emulator import Rdm6300Emulator

CARD = "0a1b2c3d4e"


def _table(path: str, **section) -> Table:
    table = Table([ReaderSettings("field", "field", None, debounce_ms=150)])
    table.runner.start([make_driver("field", {"driver": "rdm6300", "path": path, "retry_ms": 50, **section})])
    return table


@pytest.mark.parametrize("gaps_ms", [[300, 500, 420, 340, 480], [50], [120, 40, 260, 90]])
def test_uneven_repeats_are_one_placement_and_a_lift_is_heard_within_a_second(rdm6300s, gaps_ms):
    emu = rdm6300s(gaps_ms=gaps_ms)
    table = _table(emu.path)
    try:
        time.sleep(0.8)  # connected
        emu.place(CARD)
        table.wait_count("field", 1, timeout=2)
        time.sleep(4.0)  # resting through ~10 uneven repeats
        assert table.of("field") == [("placed", CARD, None)]  # 0 flaps, 0 false lifts
        lifted = time.monotonic()
        emu.remove()
        table.wait_count("field", 2, timeout=3)
        heard = time.monotonic() - lifted
    finally:
        table.runner.stop()
    assert table.of("field") == [("placed", CARD, None), ("removed", CARD, None)]
    assert heard < 1.0 + 0.25  # the rule (1 s), plus a loaded machine's scheduling


@contextlib.contextmanager
def _placed_on_a_module_that_stops(rdm6300s) -> Iterator[tuple[Rdm6300Emulator, Table]]:
    """A module that goes quiet after 28 frames (1.4 s), the card just placed and heard."""
    emu = rdm6300s(repeat_ms=50, stops_after=28)
    table = _table(emu.path, stops_after=28)
    try:
        time.sleep(0.8)
        emu.place(CARD)
        table.wait_count("field", 1, timeout=2)
        yield emu, table
    finally:
        table.runner.stop()


def test_a_module_that_stops_repeating_does_not_lift_the_resting_card(rdm6300s):
    with _placed_on_a_module_that_stops(rdm6300s) as (emu, table):
        time.sleep(3.5)  # it went quiet after 1.4 s
        assert emu.run == 28
        assert table.of("field") == [("placed", CARD, None)]  # no false lift
        emu.remove()
        emu.place("00000000ff")  # the next card is read: the first one is heard lifted then
        table.wait_count("field", 3, timeout=3)
    assert table.of("field") == [("placed", CARD, None), ("removed", CARD, None), ("placed", "00000000ff", None)]


def test_a_quick_lift_on_a_module_that_stops_is_still_heard(rdm6300s):
    with _placed_on_a_module_that_stops(rdm6300s) as (emu, table):
        time.sleep(0.3)  # lifted before the module went quiet
        emu.remove()
        table.wait_count("field", 2, timeout=2)
    assert table.of("field") == [("placed", CARD, None), ("removed", CARD, None)]
