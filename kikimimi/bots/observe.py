"""The observe loop every bot table runs, written once: each event to the bots whose seat may
know it, then the public ones to the table's own bookkeeping.

A bot never sees what its seat could not (`visible_to`), and a table that follows the game
(whose turn, which phase) follows it only from what everyone saw.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from kikimimi.contract.protocol import visible_to


def deliver(events: Iterable[Mapping[str, Any]], bots: Mapping[int, Any],
            method: str = "see") -> Iterator[Mapping[str, Any]]:
    """Call `bot.<method>(event)` for every bot whose seat may know each event; yield the
    public events, in order, each after its bots have seen it."""
    for ev in events:
        for seat, bot in bots.items():
            if visible_to(ev, seat):
                getattr(bot, method)(ev)
        if visible_to(ev, None):
            yield ev
