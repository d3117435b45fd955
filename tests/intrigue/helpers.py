"""Table scripts for Intrige tests, run through the real engine (`kikimimi.table.engine`)."""
from __future__ import annotations

from typing import Any

from kikimimi.testkit.script import Run as BaseRun
from kikimimi.testkit.script import Script as BaseScript


def A(short: str) -> str:
    """`"1-law-1"` -> `"intrigue:advisor-1-law-1"`."""
    return short if ":" in short else f"intrigue:advisor-{short}"


class Script(BaseScript):
    """An Intrige script: advisors by their short names ("1-law-1")."""

    def __init__(self, players: int = 4, lang: str = "en", **options: Any):
        super().__init__("intrigue", players, lang, **options)

    def scan(self, seat: int, tag: str) -> "Script":
        return self.hand(seat, tag)

    def send(self, seat: int, advisor: str, target: int) -> "Script":
        return self.scan(seat, A(advisor)).scan(seat, f"seat:{target}")

    def offer(self, seat: int, taps: int) -> "Script":
        for _ in range(taps):
            self.cmd(seat, "bribe")
        return self.cmd(seat, "ok")

    def place(self, owner: int, advisor: str, section: int) -> "Script":
        return self.scan(owner, A(advisor)).scan(owner, f"intrigue:section-{section}")

    def run(self) -> "Run":
        played = super().run()
        return Run(played.log, played.table)


class Run(BaseRun):
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
