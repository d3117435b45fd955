"""A reader's first open that the chip does not answer in time.

A table boots with its host at its busiest; nfcpy gives the chip's ACK only
100 ms, so a first open can fail on a host that read late while the chip was
on time.  Said at once, that was "reader lost" then "back" on the speaker
before the first piece.  Now a first open whose chip was silent is tried
again (FIRST_OPEN_TRIES, retry_ms apart) before the table hears it lost; a
device the OS says is not there is still said at once."""
from __future__ import annotations

import errno
import threading

from kikimimi.readers.base import RawEvent
from kikimimi.readers.nfc_driver import FIRST_OPEN_TRIES, NfcDriver


def _run(failures: list[OSError]) -> tuple[list[RawEvent], int]:
    """The driver's run against an opener failing with `failures` in turn; it stops after the last."""
    heard: list[RawEvent] = []
    stop = threading.Event()
    calls = 0

    def opener():  # a stand-in for nfcpy's open: only its failure matters here
        nonlocal calls
        calls += 1
        if calls == len(failures):
            stop.set()
        raise failures[calls - 1]

    NfcDriver("hand-1", opener, "/dev/kikimimi-hand-1", retry_ms=0).run(heard.append, stop)
    return heard, calls


def late_ack() -> OSError:
    return OSError(errno.ETIMEDOUT, "no ACK in 100 ms")  # what nfcpy's PN532 open raises


def test_a_first_open_the_chip_answered_late_is_tried_again_before_the_reader_is_lost():
    heard, calls = _run([late_ack()] * (FIRST_OPEN_TRIES - 1))
    assert calls == FIRST_OPEN_TRIES - 1 and heard == []


def test_a_chip_silent_at_every_try_is_lost_once():
    heard, _ = _run([late_ack()] * (FIRST_OPEN_TRIES + 2))
    assert [e.kind for e in heard] == ["lost"]
    assert "cannot open /dev/kikimimi-hand-1" in heard[0].detail


def test_a_device_that_is_not_there_is_lost_at_the_first_open():
    heard, _ = _run([OSError(errno.ENOENT, "No such file or directory")])
    assert [e.kind for e in heard] == ["lost"] and "No such file" in heard[0].detail
