"""A PN532 whose ACK comes later than nfcpy waits for it (bench/reader_latency.py's stalls).

On a busy machine an emulated chip (a process like any other) sometimes answered
more than nfcpy's 100 ms after a command.  The driver took the missing ACK for an
unplugged reader: "lost", PowerDown, a reopen half a second later, "back", the
speaker saying both ahead of the game's phrases, and a piece lifted and put back
meanwhile never heard.  The emulator's `hold_next_answer` makes that ACK late on
purpose, whatever the machine's load: the reader must stay open and hear the piece."""
from __future__ import annotations


from kikimimi.readers.factory import make_driver
from kikimimi.readers.nfc_driver import RESYNC_TRIES
from kikimimi.readers.runner import ReaderSettings
from support.chip_timing import REAL
from support.collect import Table
from support.ntag import Ntag213
from kikimimi.testkit.script import wait_until

HEART3 = "04a1b2c3d4e5f6"
ACK_WAIT_S = 0.1  # nfcpy's wait for an ACK (nfc/clf/pn53x.py, Chipset.command)


def _table(path: str) -> Table:
    table = Table([ReaderSettings("hand-1", "hand", 1, debounce_ms=60)])
    table.runner.start([make_driver("hand-1", {"driver": "pn532", "path": path, "poll_ms": 20, "retry_ms": 50})])
    return table


def _opened(emu) -> dict[str, int]:
    """What nfcpy's open and close send: a reopen shows here (and a baud search as SetSerialBaudrate)."""
    return {k: emu.commands[k] for k in ("SAMConfiguration", "PowerDown", "SetSerialBaudrate")}


def test_an_ack_later_than_nfcpy_waits_is_resynchronised_and_the_piece_heard(pn532s):
    emu = pn532s(timing=REAL)
    table = _table(emu.path)
    try:
        wait_until(lambda: emu.waiting_for_card, "the chip waiting for a card", timeout=10, pause=0.002)
        opened, probes = _opened(emu), emu.commands["GetFirmwareVersion"]
        # the wait's own answer is not due; the next thing the chip sends is the ACK of the
        # command after the host's 1 s abort: held past nfcpy's wait, twice over
        emu.hold_next_answer(2.5 * ACK_WAIT_S)
        wait_until(lambda: emu.commands["GetFirmwareVersion"] > probes and emu.waiting_for_card,
                   "a resync probe, then the wait again", timeout=10, pause=0.002)
        emu.place(Ntag213(HEART3, "trident:heart-3"))
        table.wait_count("hand-1", 1)
        emu.remove()
        table.wait_count("hand-1", 2)
        still = _opened(emu)  # (stopping closes the reader: PowerDown)
    finally:
        table.runner.stop()
    # before: ["lost", "back", "placed", "removed"], the piece heard ~0.6 s late, or not at all
    assert table.of("hand-1") == [("placed", HEART3, "trident:heart-3"), ("removed", HEART3, "trident:heart-3")]
    assert still == opened  # no close, no reopen, no speed search
    assert emu.commands["GetFirmwareVersion"] - probes <= RESYNC_TRIES


def test_a_chip_that_stops_answering_is_still_lost(pn532s):
    """The resync is bounded: a chip silent through every probe is a reader fault, said as before."""
    emu = pn532s(timing=REAL)
    table = _table(emu.path)
    try:
        wait_until(lambda: emu.waiting_for_card, "the chip waiting for a card", timeout=10, pause=0.002)
        emu.hold_next_answer(60.0)  # everything the chip sends from now on stays in the adapter
        table.wait_count("hand-1", 1, timeout=10)
    finally:
        table.runner.stop()
    lost = table.inputs[0]
    assert (lost.kind, lost.reader) == ("lost", "hand-1")
    assert f"did not answer {RESYNC_TRIES} times" in lost.detail
