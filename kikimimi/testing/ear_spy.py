"""One spy on ear bots, for every game's tests: what each bot heard and what it touched.

It wraps the runtime's one way to a game's bots (`kikimimi.declared.simulation`),
so a test needs no knowledge of how a game builds its table.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from kikimimi import declared
from kikimimi.ear import EAR, EarTable, Heard
from kikimimi.declaration import Declaration
from kikimimi.protocol import Simulation

#: (seat, what was heard or the reach touched, "hear" or "act")
Call = tuple[int | None, object, str]


class Patcher(Protocol):
    def setattr(self, target: object, name: str, value: object) -> None: ...


def spy_on_ear_bots(monkeypatch: Patcher, game: str) -> list[Call]:
    """Record every call into every ear bot of `game` while the test runs."""
    calls: list[Call] = []
    original = declared.simulation

    def simulation(decl: Declaration, seed: int, players: int, options: Mapping[str, Any],
                   bot: str | None = None) -> Simulation:
        table = original(decl, seed, players, options, bot)
        if decl.name != game or bot != EAR:
            return table
        assert isinstance(table, EarTable)
        for b in table.bots:
            hear, act = b.hear, b.act

            def heard(heard: Heard, _seat: int | None = b.seat, _hear: Callable[[Heard], None] = hear) -> None:
                calls.append((_seat, heard, "hear"))
                _hear(heard)

            def acted(reach: Any, _seat: int | None = b.seat,
                      _act: Callable[[Any], dict[str, Any] | None] = act) -> dict[str, Any] | None:
                calls.append((_seat, reach, "act"))
                return _act(reach)

            b.hear, b.act = heard, acted  # type: ignore[method-assign]
        return table

    monkeypatch.setattr(declared, "simulation", simulation)
    return calls
