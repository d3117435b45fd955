"""One spy on ear bots, for every game's tests: what each bot heard and what it touched.

It wraps the runtime's one way to a game's bots (`kikimimi.contract.parts.simulation`),
so a test needs no knowledge of how a game builds its table.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from kikimimi.contract import parts as declared
from kikimimi.bots.ear import EAR, EarTable, Heard
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import TABLE, Simulation, seat_audience

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


def heard_on_own_ears(calls: list[Call]) -> list[tuple[int | None, Heard]]:
    """What each ear heard, held to the ear bots' promise: spoken lines only, each for the speaker
    or the hearer's own earphone (the referee's ear: the speaker only), and names, never tags, in
    their parameters (a tag would tell which look-alike piece it is)."""
    heard = [(seat, h) for seat, h, what in calls if what == "hear" and isinstance(h, Heard)]
    assert heard and len(heard) == sum(1 for _, _, what in calls if what == "hear"), "an ear heard a non-Heard"
    wrong = [(seat, h) for seat, h in heard if h.to not in ((TABLE, seat_audience(seat)) if seat else (TABLE,))]
    assert not wrong, f"heard on another's ear: {wrong[:3]}"
    tags = [h for _, h in heard if any(":" in str(v) for v in h.params.values())]
    assert not tags, f"a tag was heard: {tags[:3]}"
    return heard


def touched(calls: list[Call]) -> set[type]:
    """The kinds of what the bots were handed to act on (the world's reach, never the log or the game)."""
    return {type(r) for _, r, what in calls if what == "act"}
