"""What a reader driver reports, and nothing more.

Drivers turn hardware into `RawEvent`s.  Everything that makes those clean
table inputs (a resting tag is one placement, debounce, ignore-at-connect,
"reader lost" versus "tag removed") lives once, in `kikimimi.readers.runner`,
not in each driver.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

RawKind = Literal["connected", "placed", "removed", "lost"]


@dataclass(frozen=True, slots=True)
class RawEvent:
    """One observation of one reader.

    - `connected`: the reader opened (first time or after being lost);
      `present` holds the uids resting on it at that moment.
    - `placed` / `removed`: a uid appeared / disappeared.  `tag` is the
      piece name when the tag itself says it (an NDEF text record), else None.
    - `lost`: the reader stopped answering (unplugged, I/O error).
    """

    reader: str  # the reader's id in the table config
    kind: RawKind
    t: float  # time.monotonic() seconds, or script time in tests
    uid: str | None = None  # lowercase hex
    tag: str | None = None
    present: tuple[tuple[str, str | None], ...] = ()  # (uid, tag) at connect
    detail: str = ""  # why a reader was lost, for the one-line message


Emit = Callable[[RawEvent], None]


class Driver(Protocol):
    """A reader driver.  `run` blocks in its own thread until `stop` is set.

    It must emit `connected` before any `placed`, `lost` when the device
    fails, and keep trying to reopen the device (then `connected` again)
    until stopped.  It never raises out of `run` for a device fault.
    """

    reader: str

    def run(self, emit: Emit, stop: threading.Event) -> None: ...
