"""How long a real PN532 on a serial line takes, so an emulator's figures are a chip's.

An emulator that answers at once proves the protocol, not the time a
placement costs.  `ChipTiming` holds the few figures that decide that time;
docs/readers.md says where each comes from (the public nfcpy #131 trace of a
PN532 v1.6 on a Raspberry Pi UART at 921600 baud, the PN532 User Manual's
wake-up rule as libnfc's `pn532_uart.c` applies it, ISO/IEC 14443 bit times,
FTDI's application note on its latency timer) and which are estimates.

`DelayLine` is the wire: bytes leave the chip one UART frame time apiece,
then sit in a USB-serial adapter for its latency, and arrive in the order
they left.
"""
from __future__ import annotations

import heapq
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

#: One 7-byte-uid Type 2 tag on ISO 14443-A at 106 kbit/s: REQA, two cascade
#: levels of anticollision and SELECT, each a few bytes at ~85 us a byte
#: (9 bit times of 9.44 us), plus the frame delay times (~86 us each).
_ANTICOLLISION_S = 0.0025


@dataclass(frozen=True)
class ChipTiming:
    """Per-command time of a PN532 on HSU; `None` in an emulator means instant."""

    #: frame received -> first byte of the ACK (nfcpy #131: ACK within 1 ms of the command at 921600)
    ack_s: float = 0.0005
    #: frame received -> answer of a command that stays in the chip (registers, RF settings,
    #: firmware version): nfcpy #131 shows 3-4 ms host round trips at 921600, ~2 ms of it the host
    local_s: float = 0.0015
    #: InCommunicateThru: the chip's own share before and after the RF exchange
    exchange_s: float = 0.0015
    #: one byte over the air at 106 kbit/s (8 data bits + parity, 9.44 us each)
    rf_byte_s: float = 9 * 9.44e-6
    #: InListPassiveTarget that finds a 7-byte-uid tag: anticollision + the chip
    list_found_s: float = 0.0015 + _ANTICOLLISION_S
    #: MaxTg = 2, a second target found: HLTA to the first (the PCD waits 1 ms for no answer,
    #: ISO/IEC 14443-3 §6.4.3.6 (the HLTA command)) and one more REQA + anticollision loop (estimate)
    next_target_s: float = 0.001 + _ANTICOLLISION_S
    #: MaxTg = 2, only one tag there: HLTA, then a REQA nobody answers (estimate)
    no_next_target_s: float = 0.0015
    #: InListPassiveTarget with one try and nobody in the field: REQA's timeout + the chip
    list_empty_s: float = 0.0025
    #: one retry of a waiting InListPassiveTarget (MxRtyPassiveActivation < 0xFF)
    retry_s: float = 0.0025
    #: after the 0x55 that wakes a chip from PowerDown, bytes are lost for this long (the manual's
    #: "wait"; libnfc fills it with 14 zero bytes, 1.2 ms at 115200; the issue quotes up to 2 ms)
    wake_s: float = 0.002
    #: a USB-serial adapter holds chip->host bytes this long (FTDI default latency timer: 16 ms;
    #: 1 ms with the udev rule in udev/99-kikimimi.rules; CP210x and CH340 flush within ~1 ms)
    adapter_latency_s: float = 0.001

    def byte_s(self, baud: int) -> float:
        """One UART byte (start + 8 data + stop bits) at `baud`."""
        return 10.0 / baud

    def with_latency(self, seconds: float) -> ChipTiming:
        return replace(self, adapter_latency_s=seconds)


#: The calibrated figures (docs/readers.md, "Real-timing emulator").
REAL = ChipTiming()
#: The same chip behind an FTDI adapter at its factory latency timer.
FTDI_DEFAULT = REAL.with_latency(0.016)


class DelayLine:
    """Chip -> host bytes, each chunk delivered at its time, never out of order."""

    def __init__(self, write: Callable[[bytes], None], name: str) -> None:
        self._write = write
        self._heap: list[tuple[float, int, bytes]] = []
        self._seq = 0
        self._last = 0.0
        self._cond = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name=f"delay-line {name}", daemon=True)
        self._thread.start()

    def send(self, data: bytes, at: float) -> float:
        """Deliver `data` at monotonic time `at` (or after what was queued before it)."""
        with self._cond:
            at = max(at, self._last)
            self._last = at
            heapq.heappush(self._heap, (at, self._seq, data))
            self._seq += 1
            self._cond.notify()
            return at

    def clear(self) -> None:
        """The line went dead (unplugged): what was in flight is gone."""
        with self._cond:
            self._heap.clear()

    def close(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        self._thread.join(timeout=2)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stop and (not self._heap or self._heap[0][0] > time.monotonic()):
                    self._cond.wait(self._heap[0][0] - time.monotonic() if self._heap else None)
                if self._stop:
                    return
                _, _, data = heapq.heappop(self._heap)
            # written outside the line's lock: the writer takes the chip's lock, and the chip
            # holds its own while it queues an answer here (the other order deadlocked)
            self._write(data)
