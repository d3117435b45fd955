"""What a table says when it has started: each missing earphone, then "the table is ready".

A boot service has no screen to print on: the people at the table learn
from the speaker that it is up, and which earphone is missing (a missing
reader is said by the engine, from the reader runner's `lost` input).  These
lines are said, not journaled: they describe the box, not the game.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.phrases import Phrasebook


def ready_lines(health: Mapping[str, str], players: int, lang: str) -> list[dict[str, Any]]:
    """`say` events for the speaker: each earphone that cannot play, then the table ready."""
    book = Phrasebook(lang, ("core", "setup"))
    out = []
    for seat in range(1, players + 1):
        state = health.get(f"seat-{seat}")
        if state is not None and state != "ok":
            params = {"seat": seat}
            out.append({"type": "say", "to": "table", "key": "earphone-missing", "params": params,
                        "text": book.render("earphone-missing", params)})
    out.append({"type": "say", "to": "table", "key": "table-ready", "params": {},
                "text": book.render("table-ready")})
    return out
