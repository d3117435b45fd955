"""Table scripts for hidden-role games' tests: build inputs, run them through the
real engine, pick events out of the log.  The layer's toy game, 闇に笑う魔女 and
マフィア42 all test this way (rules driven through table-script inputs)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.testkit.script import Script as TableScript


class Script(TableScript):
    """A hidden-role table script; `run()` gives the event log."""

    def __init__(self, game: str, players: int, **options: Any):
        super().__init__(game, players, None, **options)

    def deal(self, card_set: str, roles: Sequence[str], kind: str = "role") -> "Script":
        seen: dict[str, int] = {}
        for seat, role in enumerate(roles, 1):
            seen[role] = seen.get(role, 0) + 1
            self.hand(seat, f"{card_set}:{kind}-{role}-{seen[role]}")
        return self

    def votes(self, pairs: Iterable[tuple[int, int]]) -> "Script":
        for voter, target in pairs:
            self.hand(voter, f"seat:{target}")
        return self

    def run(self) -> list[dict[str, Any]]:  # type: ignore[override]  # the log itself, for of/said/seen_by
        return run_script(self.lines)


def of(log: Iterable[dict[str, Any]], type_: str, **match: Any) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == type_ and all(e.get(k) == v for k, v in match.items())]


def said(log: Iterable[dict[str, Any]], key: str, to: str | None = None) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == "say" and e["key"] == key and (to is None or e["to"] == to)]


def seen_by(log: Iterable[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    return [e for e in log if visible_to(e, seat)]


def secrets_in_public(log: Iterable[dict[str, Any]], private_types: Iterable[str],
                      private_keys: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Events a spectator would see that should never be public (empty when all is well)."""
    types, keys = set(private_types), set(private_keys)
    return [e for e in public_view(log) if e["type"] in types or "private" in e
            or (e["type"] == "say" and (e["to"] != "table" or e["key"] in keys))]


def internal_errors(log: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == "error" and str(e["message"]).startswith("internal error")]


__all__ = ["Script", "of", "said", "seen_by", "internal_errors", "public_view", "secrets_in_public"]
