"""What each kind of API client may see.

Spectators get `kikimimi.table.public`'s view, as `replay --public` does: public
events only, numbered on their own so no gap counts a secret, and an `undo`
stripped of the input it took back.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

from kikimimi.table.public import public_view
from kikimimi.contract.script import Garbled


def public_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A whole log as a spectator sees it (a stream numbers on with `PublicView`)."""
    return public_view(events)


def plain_input(item: Mapping[str, Any] | Garbled | None) -> dict[str, Any] | None:
    """A journal line as JSON (a garbled one keeps its text)."""
    if item is None:
        return None
    if isinstance(item, Garbled):
        return {"garbled": item.text, "problem": item.problem}
    return dict(item)


def jsonable(obj: Any) -> Any:
    """`json.dumps(default=...)` for game snapshots, which are plain data but
    may hold sets or enums."""
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=str)
    if isinstance(obj, enum.Enum):
        return obj.value
    return str(obj)


class Health:
    """Reader and audio state as the referee needs it: every reader the table
    has, marked lost or ok from the `reader` events of the log, and whatever
    the outputs report through the API handle."""

    def __init__(self, readers: Mapping[str, Mapping[str, Any]] | None, audio: Mapping[str, Any] | None):
        self.state: dict[str, str] = {}
        for section in (readers or {}).values():
            self.state[reader_name(section.get("role"), section.get("seat"))] = "ok"
        outputs = (audio or {}).get("outputs", {}) if isinstance(audio, Mapping) else {}
        for name in outputs if isinstance(outputs, Mapping) else ():
            self.state[f"audio {name}"] = "configured"

    def absorb(self, events: Iterable[Mapping[str, Any]]) -> bool:
        """Apply `reader` events; True if anything changed."""
        changed = False
        for ev in events:
            if ev.get("type") != "reader":
                continue
            name = reader_name(ev.get("reader"), ev.get("seat"))
            state = "lost" if ev.get("state") == "lost" else "ok"
            if self.state.get(name) != state:
                self.state[name] = state
                changed = True
        return changed

    def report(self, component: str, state: str) -> bool:
        if self.state.get(component) == state:
            return False
        self.state[component] = state
        return True


def reader_name(role: Any, seat: Any) -> str:
    return f"hand {seat}" if role == "hand" else str(role)
