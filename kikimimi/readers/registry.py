"""The one table of reader kinds every layer reads: the table file's schema, `serve`, `doctor`,
the spoken set-up, `tags enroll` and `service install` ask it, and name no kind themselves.

The built-in kinds are the rows of `BUILT_IN` (one module each, `kikimimi.readers.kinds`); a
package adds one by an entry point in the `kikimimi.readers` group naming its `ReaderKind`:

    [project.entry-points."kikimimi.readers"]
    acme = "acme_reader.kind:KIND"

and `register` makes one known in this process only (a test, a notebook).  An installed kind
never replaces a built-in one of the same name; one that does not load is left out, and
`problems()` says why in one line (doctor shows it).
"""
from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from kikimimi.readers.kind import COMMON_KEYS, Key, ReaderKind

GROUP = "kikimimi.readers"
#: The kinds kikimimi ships, in the order they are listed to a person.
BUILT_IN = (
    "kikimimi.readers.kinds.pn532",
    "kikimimi.readers.kinds.usb",
    "kikimimi.readers.kinds.rdm6300",
    "kikimimi.readers.kinds.sim",
)

_registered: dict[str, ReaderKind] = {}
_problems: dict[str, str] = {}


def register(kind: ReaderKind) -> ReaderKind:
    """Make a kind known in this process only; an installed one needs no call."""
    if not isinstance(kind, ReaderKind):
        raise TypeError(f"{kind!r} is not a kikimimi.readers.kind.ReaderKind")
    _registered[kind.name] = kind
    _table.cache_clear()
    return kind


def unregister(name: str) -> None:
    """Forget a kind `register` made known (a test's own, when it ends)."""
    _registered.pop(name, None)
    _table.cache_clear()


@cache
def _table() -> dict[str, ReaderKind]:
    out: dict[str, ReaderKind] = {}
    _problems.clear()
    for module in BUILT_IN:
        kind = importlib.import_module(module).KIND
        out[kind.name] = kind
    for ep in sorted(entry_points(group=GROUP), key=lambda ep: ep.name):
        if ep.name in out:
            continue
        try:
            kind = ep.load()
        except Exception as exc:  # a broken plugin costs its own kind, not the table
            _problems[ep.name] = f"{ep.value} does not load: {type(exc).__name__}: {exc}".splitlines()[0]
            continue
        if not isinstance(kind, ReaderKind) or kind.name != ep.name:
            _problems[ep.name] = f"{ep.value} is not a ReaderKind named {ep.name!r}"
            continue
        out[kind.name] = kind
    for name, kind in _registered.items():
        out.setdefault(name, kind)
    return out


def kinds() -> tuple[ReaderKind, ...]:
    """Every kind known, built-in first."""
    return tuple(_table().values())


def names() -> tuple[str, ...]:
    return tuple(_table())


def kind(name: object) -> ReaderKind | None:
    """The kind a section's `driver` names, or None for a name no kind has."""
    return _table().get(name) if isinstance(name, str) else None


def kind_of(section: Mapping[str, Any]) -> ReaderKind | None:
    return kind(section.get("driver"))


def problems() -> dict[str, str]:
    """Installed kinds left out, by name: why, in one line."""
    _table()
    return dict(_problems)


def device_kinds() -> tuple[ReaderKind, ...]:
    """The kinds that open a device (what `serve` starts a driver for)."""
    return tuple(k for k in kinds() if k.open is not None)


def simulated(section: Mapping[str, Any]) -> bool:
    found = kind_of(section)
    return found is not None and found.simulated


def section_keys() -> dict[str, Key]:
    """What a `[readers.ID]` section may hold: the common keys and every kind's own.  A key two
    kinds share (poll_ms, baud) is checked by the first kind's `Key`: the same check either way."""
    keys = dict(COMMON_KEYS)
    for k in kinds():
        for name, key in k.keys.items():
            keys.setdefault(name, key)
    return keys


def by_kind(sections: Mapping[str, Mapping[str, Any]]) -> Iterable[tuple[ReaderKind, dict[str, Mapping[str, Any]]]]:
    """The sections grouped by their kind, kinds in the registry's order (unknown ones left out)."""
    groups: dict[str, dict[str, Mapping[str, Any]]] = {}
    for rid, section in sections.items():
        found = kind_of(section)
        if found is not None:
            groups.setdefault(found.name, {})[rid] = section
    return [(k, groups[k.name]) for k in kinds() if k.name in groups]


def listed(names: Iterable[str], last: str = "or") -> str:
    """"pn532, usb or rdm6300": names as a person reads them in a fix."""
    items = list(names)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"
