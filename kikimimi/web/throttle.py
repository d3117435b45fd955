"""Slowing a flood of pairing attempts: a bucket per client and one for everyone.

A six-digit code is short so a person can type it; what keeps it from being
guessed is that guesses are few.  Each client (its address) gets `BURST`
tries at once, then one every `REFILL` seconds; every client together gets
`GLOBAL_BURST` (many addresses on one Wi-Fi are still few guesses).  A
refused try is answered only after a delay that grows with the flood, and
the flood is logged once per client per `LOG_EVERY` seconds.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("kikimimi.web")

BURST = 5
REFILL = 12.0  # seconds per try after the burst: 5 a minute
GLOBAL_BURST = 30
GLOBAL_REFILL = 2.0
#: Longest delay before a refused try is answered, seconds.
MAX_DELAY = 3.0
LOG_EVERY = 60.0
#: Clients remembered at once (the oldest are forgotten first).
MAX_CLIENTS = 4096


@dataclass
class _Bucket:
    tokens: float
    at: float
    refused: int = 0
    logged: float = float("-inf")


class Throttle:
    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._clients: dict[str, _Bucket] = {}
        self._all = _Bucket(GLOBAL_BURST, clock())

    def _take(self, bucket: _Bucket, burst: float, refill: float, now: float) -> bool:
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.at) / refill)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return True
        return False

    def attempt(self, client: str) -> float | None:
        """None if this try may go ahead; else how long to wait before refusing it."""
        now = self.clock()
        bucket = self._clients.get(client)
        if bucket is None:
            if len(self._clients) >= MAX_CLIENTS:
                self._clients.pop(next(iter(self._clients)))
            bucket = self._clients[client] = _Bucket(BURST, now)
        if self._take(bucket, BURST, REFILL, now) and self._take(self._all, GLOBAL_BURST, GLOBAL_REFILL, now):
            bucket.refused = 0
            return None
        bucket.refused += 1
        if now - bucket.logged >= LOG_EVERY:
            bucket.logged = now
            log.warning("pairing flood from %s: %d tries refused, each answered slowly", client, bucket.refused)
        return min(MAX_DELAY, 0.25 * bucket.refused)

    def refused(self, client: str) -> int:
        bucket = self._clients.get(client)
        return bucket.refused if bucket else 0
