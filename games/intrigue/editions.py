"""The editions of Intrige as data, and the options that override their numbers.

The classic edition (F.X. Schmid 1994, and the online version the seed
describes) and the Amigo reprints differ only in numbers and in the fifth
role, so an edition is a record and every number is also a house rule
(`options`: the table's options and the edition they ask for).
"""
from __future__ import annotations

from dataclasses import dataclass


ALL_ROLES = ("finance", "law", "military", "science", "church")
COPIES = 2  # two advisors of each role per player (the seed)
BRIBE_MODES = ("open", "hidden")


@dataclass(frozen=True)
class Edition:
    name: str
    incomes: tuple[int, ...]  # section 1 (lowest) ... section k (highest), paid per round
    roles: tuple[str, ...]
    start_cash: int
    rounds: int
    step: int
    bribes: str = "open"

    @property
    def sections(self) -> int:
        return len(self.incomes)

    @property
    def advisors_each(self) -> int:
        return len(self.roles) * COPIES


EDITIONS = {
    "classic": Edition("classic", (10_000, 20_000, 30_000, 50_000, 100_000), ALL_ROLES, 320_000, 6, 10_000),
    "amigo": Edition("amigo", (1_000, 3_000, 6_000, 10_000), ALL_ROLES[:4], 32_000, 5, 1_000),
}
