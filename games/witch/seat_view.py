"""What a seat's reasoning (`reasoning.Reasoner`) reads of its seat, and nothing more.

The seat (`bots.BotSeat`) makes its reasoner and the reasoner reads the seat's own
knowledge; naming that knowledge here, below both, keeps the two modules from
importing each other (tests/test_import_circles.py counts type-only imports too).
Read-only members, so a seat whose fields are narrower types still fits."""
from __future__ import annotations

import random
from typing import Protocol

from kikimimi.roles.claims import ClaimBoard


class SeatView(Protocol):
    """One seat's knowledge as its reasoner reads it."""

    @property
    def seat(self) -> int: ...
    @property
    def role(self) -> str | None: ...
    @property
    def partners(self) -> list[int]: ...
    @property
    def night_gone(self) -> set[int]: ...
    @property
    def deck(self) -> list[str]: ...
    @property
    def findings(self) -> dict[int, str]: ...
    @property
    def alive(self) -> set[int]: ...
    @property
    def board(self) -> ClaimBoard: ...
    @property
    def day(self) -> int: ...
    @property
    def worlds_key(self) -> tuple[int, ...]: ...  # keys its sampled worlds; never the table's seed
    @property
    def rng(self) -> random.Random: ...
    @property
    def tied(self) -> list[int]: ...
    @property
    def witch_choice(self) -> int | None: ...

    def others(self) -> list[int]: ...
