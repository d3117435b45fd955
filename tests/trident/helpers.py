"""Table scripts for Trident tests, run through the real engine (kikimimi.table.engine.Table)."""
from __future__ import annotations

from typing import Any

from kikimimi.testkit.script import Run as BaseRun
from kikimimi.testkit.script import Script as BaseScript

#: A standard deal: seat -> five pieces (short names), and the opening piece.
DEAL = {
    1: ["heart-1", "heart-2", "heart-3", "change-spade-1", "draw-2-1"],
    2: ["diamond-1", "diamond-2", "diamond-3", "draw-4-1", "unknown-3"],
    3: ["clover-1", "clover-2", "clover-3", "change-draw-4", "unknown-1"],
}


def T(name: str) -> str:
    return name if ":" in name else f"trident:{name}"


class Script(BaseScript):
    """A Trident script: pieces by their short names ("heart-3")."""

    def __init__(self, players: int = 3, lang: str = "en", **options: Any):
        super().__init__("trident", players, lang, **options)

    def hand(self, seat: int, name: str, dt: float | None = None) -> "Script":
        return super().hand(seat, T(name), dt)

    def field(self, name: str, removed: bool = False, dt: float | None = None) -> "Script":
        return super().field(T(name), removed, dt)

    def cmd(self, seat: int, what: str, dt: float | None = None) -> "Script":
        return super().hand(seat, f"cmd:{what}", dt)

    def deal(self, hands: dict[int, list[str]] | None = None) -> "Script":
        for seat, names in (hands or DEAL).items():
            for n in names:
                self.hand(seat, n)
        return self

    def start(self, opening: str = "heart-8", hands: dict[int, list[str]] | None = None) -> "Script":
        return self.deal(hands).field(opening)

    def run(self) -> "Run":
        played = super().run()
        return Run(played.log, played.table)


class Run(BaseRun):
    def hand(self, seat: int) -> list[str]:
        return [t.split(":", 1)[1] for t in self.snap["hands"][seat]]
