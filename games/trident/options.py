"""The Trident's table options, parsed once into the values its play and its bots use.

`OPTIONS` is the schema (what `kikimimi check`, `sim --options` and a table
file's refusal read); `TridentOptions.parse` is the one place its raw mapping
becomes values, defaults filled in, so the play, the bot table and the
designer's report never re-read a header with defaults of their own.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.game import Options, choice, seat

SCORINGS = ("normal", "competition")

OPTIONS = Options(
    seat("first", 1, "the seat that plays first"),
    choice("scoring", SCORINGS, "normal, or the seed's competition rules (official practice sessions)"),
)


@dataclass(frozen=True, slots=True)
class TridentOptions:
    """One table's options: the play, the bots and the report are handed these."""

    first: int = 1
    scoring: str = "normal"

    @property
    def competition(self) -> bool:
        """Scored by the seed's competition rules (fewest points wins a crash)."""
        return self.scoring == "competition"

    @classmethod
    def parse(cls, players: int, raw: Mapping[str, Any] | None) -> TridentOptions:
        """The values at a table of `players`; a bad option is a one-line ValueError naming it."""
        values = OPTIONS.parse(players, raw or {})
        return cls(first=values["first"], scoring=values["scoring"])
