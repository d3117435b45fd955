"""Table scripts for Trident tests, run through the real engine (kikimimi.engine.Table)."""
from __future__ import annotations

from typing import Any

from kikimimi.engine import Table
from kikimimi.script import Header

#: A standard deal: seat -> five pieces (short names), and the opening piece.
DEAL = {
    1: ["heart-1", "heart-2", "heart-3", "change-spade-1", "draw-2-1"],
    2: ["diamond-1", "diamond-2", "diamond-3", "draw-4-1", "unknown-3"],
    3: ["clover-1", "clover-2", "clover-3", "change-draw-4", "unknown-1"],
}


def T(name: str) -> str:
    return name if ":" in name else f"trident:{name}"


class Script:
    def __init__(self, players: int = 3, lang: str = "en", **options: Any):
        self.lines: list[dict[str, Any]] = [{"game": "trident", "players": players, "options": options, "lang": lang}]
        self.t = 0.0

    def _add(self, line: dict[str, Any]) -> "Script":
        self.t += 1
        self.lines.append({"t": self.t, **line})
        return self

    def hand(self, seat: int, name: str) -> "Script":
        return self._add({"reader": "hand", "seat": seat, "tag": T(name)})

    def field(self, name: str) -> "Script":
        return self._add({"reader": "field", "tag": T(name)})

    def cmd(self, seat: int, what: str) -> "Script":
        return self._add({"reader": "hand", "seat": seat, "tag": f"cmd:{what}"})

    def console(self, line: str) -> "Script":
        return self._add({"console": line})

    def deal(self, hands: dict[int, list[str]] | None = None) -> "Script":
        for seat, names in (hands or DEAL).items():
            for n in names:
                self.hand(seat, n)
        return self

    def start(self, opening: str = "heart-8", hands: dict[int, list[str]] | None = None) -> "Script":
        return self.deal(hands).field(opening)

    @property
    def line(self) -> int:
        """The script line number of the last line added (header = 1)."""
        return len(self.lines)

    def run(self) -> "Run":
        header = Header.parse(self.lines[0])
        table = Table(header)
        log = table.start()
        for n, line in enumerate(self.lines[1:], start=2):
            log += table.feed(n, line)
        return Run(log, table)


class Run:
    def __init__(self, log: list[dict[str, Any]], table: Table):
        self.log = log
        self.table = table
        self.game = table.game
        internal = [e for e in log if e["type"] == "error" and "internal error" in e["message"]]
        assert not internal, internal

    @property
    def snap(self) -> dict[str, Any]:
        return self.game.snapshot()

    def at(self, line: int) -> list[dict[str, Any]]:
        return [e for e in self.log if e["in"] == line]

    def of(self, type_: str, line: int | None = None) -> list[dict[str, Any]]:
        return [e for e in (self.log if line is None else self.at(line)) if e["type"] == type_]

    def keys(self, line: int) -> list[str]:
        return [e["key"] for e in self.at(line) if e["type"] == "say"]

    def hand(self, seat: int) -> list[str]:
        return [t.split(":", 1)[1] for t in self.snap["hands"][seat]]
