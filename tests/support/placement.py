"""What one placement cost the chip: a blank tag put on an emulated PN532 until the
table has answered it (one more line in its events file), then lifted.

Shared by the tests that hold an enrolled piece to one chip command (the evening's
tag maps, the box of parts): they differ only in which reader and which file."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator
from kikimimi.testkit.script import wait_until


def lines(path: Path) -> int:
    """Lines written to a file so far (0 before it exists)."""
    return len(path.read_text().splitlines()) if path.exists() else 0


def placement_cost(emu: PN532Emulator, uid: str, events: Path, what: str) -> Counter[str]:
    """Place a blank tag until the table has answered it; the chip commands it cost, by name."""
    wait_until(lambda: emu.waiting_for_card, f"{what}: the reader waiting for a card")
    before, count = Counter(emu.commands), lines(events)
    emu.place(Ntag213(uid))
    wait_until(lambda: lines(events) > count, what, pause=0.005)
    cost = Counter(emu.commands)
    cost.subtract(before)
    emu.remove()
    return +cost
