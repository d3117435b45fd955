"""From a table's `[readers.ID]` section to a driver and its runner settings.

Each kind makes its own driver (`kikimimi.readers.kinds`, found through the registry) and
checks its own keys, so a typo in the table file is one clear line naming the reader and the
key, not a traceback from a thread.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from kikimimi.readers import registry
from kikimimi.readers.base import Driver
from kikimimi.readers.kind import whole as _int
from kikimimi.readers.runner import ReaderSettings


def make_driver(reader_id: str, section: Mapping[str, Any],
                known: Collection[str] = ()) -> Driver:
    """The driver for one `[readers.ID]` table: its kind's (`kikimimi.readers.registry`).
    Raises a one-line ValueError for a bad section.

    `known`: the uids of the table's tag map; an NFC reader passes those on
    by uid alone, without reading the tag (the table maps them)."""
    kind = registry.kind_of(section)
    if kind is None or kind.open is None:
        names = ", ".join(k.name for k in registry.device_kinds())
        raise ValueError(f"reader {reader_id}: driver must be one of {names}, not {section.get('driver')!r}")
    return kind.open(reader_id, section, known)


def make_settings(reader_id: str, section: Mapping[str, Any]) -> ReaderSettings:
    """The runner settings of one `[readers.ID]` table (role, seat, debounce, ignore-at-connect)."""
    role = section.get("role")
    if role not in ("hand", "field"):
        raise ValueError(f"reader {reader_id}: role must be \"hand\" or \"field\", not {role!r}")
    seat = section.get("seat")
    if role == "hand":
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise ValueError(f"reader {reader_id}: a hand reader needs seat = 1, 2, …, not {seat!r}")
    elif seat is not None:
        raise ValueError(f"reader {reader_id}: a field reader has no seat (got {seat!r})")
    ignore = section.get("ignore_at_connect", True)
    if not isinstance(ignore, bool):
        raise ValueError(f"reader {reader_id}: ignore_at_connect must be true or false, not {ignore!r}")
    return ReaderSettings(
        reader=reader_id, role=role, seat=seat,
        debounce_ms=_int(reader_id, section, "debounce_ms", 150, 0, 10_000),
        ignore_at_connect=ignore,
    )
