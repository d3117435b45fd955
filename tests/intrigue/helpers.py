"""Table scripts for Intrige tests, run through the real engine (`kikimimi.engine`)."""
from __future__ import annotations

from typing import Any

from kikimimi.engine import Table
from kikimimi.script import Header


def A(short: str) -> str:
    """`"1-law-1"` -> `"intrigue:advisor-1-law-1"`."""
    return short if ":" in short else f"intrigue:advisor-{short}"


class Script:
    def __init__(self, players: int = 4, lang: str = "en", **options: Any):
        self.lines: list[dict[str, Any]] = [{"game": "intrigue", "players": players, "options": options,
                                             "lang": lang}]
        self.t = 0.0

    def _add(self, line: dict[str, Any]) -> "Script":
        self.t += 1
        self.lines.append({"t": self.t, **line})
        return self

    def scan(self, seat: int, tag: str) -> "Script":
        return self._add({"reader": "hand", "seat": seat, "tag": tag})

    def cmd(self, seat: int, what: str) -> "Script":
        return self.scan(seat, f"cmd:{what}")

    def console(self, line: str) -> "Script":
        return self._add({"console": line})

    def send(self, seat: int, advisor: str, target: int) -> "Script":
        return self.scan(seat, A(advisor)).scan(seat, f"seat:{target}")

    def offer(self, seat: int, taps: int) -> "Script":
        for _ in range(taps):
            self.cmd(seat, "bribe")
        return self.cmd(seat, "ok")

    def place(self, owner: int, advisor: str, section: int) -> "Script":
        return self.scan(owner, A(advisor)).scan(owner, f"intrigue:section-{section}")

    @property
    def line(self) -> int:
        """The script line number of the last line added (header = 1)."""
        return len(self.lines)

    def run(self) -> "Run":
        table = Table(Header.parse(self.lines[0]))
        log = table.start()
        for n, line in enumerate(self.lines[1:], start=2):
            log += table.feed(n, line)
        return Run(log, table)


class Run:
    def __init__(self, log: list[dict[str, Any]], table: Table):
        self.log = log
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

    def keys(self, line: int | None = None, to: str | None = None) -> list[str]:
        return [e["key"] for e in (self.log if line is None else self.at(line))
                if e["type"] == "say" and (to is None or e["to"] == to)]

    def cash(self, seat: int) -> int:
        """The last balance whispered to `seat`."""
        return [e["cash"] for e in self.log if e["type"] == "cash" and e["seat"] == seat][-1]

    def errors(self, line: int) -> list[dict[str, Any]]:
        return self.of("error", line)

    def called(self, owner: int | None = None) -> list[str]:
        """The advisors whose offers the speaker called (for `owner`'s mansion), in order."""
        return [e["params"]["advisor"].split("advisor-")[1] for e in self.log if e["type"] == "say"
                and e["key"] in ("offer-call", "offer-call-employed")
                and owner in (None, e["params"]["owner"])]
