"""What a table says when it has started: each missing earphone and reader, then whether it is ready.

A boot service has no screen to print on: the people at the table learn
from the speaker that it is up, and what is missing.  "The table is ready."
is said only when it is true: every earphone opened and every reader
connected (serve waits, bounded by `[table] ready_wait`, for the readers'
first connect).  When something is missing the speaker names each missing
part, one line each, and then "The table starts anyway." rather than
"ready": the referee hears exactly what to fix and that the game will not
wait for it (a seat without its reader cannot scan until it is plugged in;
the reader runner says it is back when it comes).  These lines are said, not
journaled: they describe the box, not the game.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kikimimi.contract.phrases import Phrasebook


def ready_lines(health: Mapping[str, str], players: int, lang: str,
                absent_readers: Iterable[tuple[str, int | None]] = ()) -> list[dict[str, Any]]:
    """`say` events for the speaker: each earphone that cannot play, each reader (role, seat) not
    connected, then "ready" when nothing is missing, else "the table starts anyway"."""
    book = Phrasebook(lang, ("core", "setup"))
    out = []

    def say(key: str, params: dict[str, Any]) -> None:
        out.append({"type": "say", "to": "table", "key": key, "params": params, "text": book.render(key, params)})

    for n in range(1, players + 1):
        state = health.get(f"seat-{n}")
        if state is not None and state != "ok":
            say("earphone-missing", {"seat": n})
    for role, seat in absent_readers:
        say("reader-hand-missing", {"seat": seat}) if role == "hand" else say("reader-field-missing", {})
    say("table-starts-anyway" if out else "table-ready", {})
    return out


class HeldInputs:
    """Reader lines held back while the table is still saying whether it is ready, then passed on in order.

    Everything is held, a reader's lost/back too: the evening's opening replays the
    log so far, so a line taken before it would be said twice, and a piece scanned
    during the wait must not reach the game before the evening has begun.  Nothing is
    dropped: `release` passes every held line on, in the order read.
    """

    def __init__(self, submit: Callable[[dict[str, Any]], Any]) -> None:
        self._submit = submit
        self._lock = threading.Lock()
        self._held: list[dict[str, Any]] | None = []  # None once released

    def __call__(self, line: dict[str, Any]) -> None:
        with self._lock:
            if self._held is None:
                self._submit(line)
            else:
                self._held.append(line)

    def release(self) -> None:
        """Pass on every held line, in the order read, and hold nothing from now on."""
        with self._lock:
            held, self._held = self._held or [], None
            for line in held:
                self._submit(line)
