"""The table talk of a simulated マフィア42 game, on the hidden-role claim channel.

At a real table people talk aloud in the discussion and nothing of it goes
into the game's inputs; in a bot game the talk is this board, which every bot
reads and which the simulation keeps as a transcript (`Board.lines`: time,
day, seat, the claim line) so a game can be re-read beside its log.  The
claims are the channel's (`kikimimi.roles.claims`): `CO police`,
`FOUND police 5 mafia`, `FOUND medium 3 not-mafia`, `VOTE 5`; this module
only names マフィア42's vocabulary and keeps the transcript.
"""
from __future__ import annotations

from collections.abc import Iterable

from kikimimi.roles.claims import Claim, ClaimBoard, Vocabulary, text

#: The roles a マフィア42 bot claims, and what their findings read.
ROLES = ("police", "medium")
MAFIA, NOT_MAFIA = "mafia", "not-mafia"
RESULTS = (MAFIA, NOT_MAFIA)


def vocabulary(players: int) -> Vocabulary:
    """What a マフィア42 claim line may name at a table of `players`."""
    return Vocabulary.of(ROLES, RESULTS, players)


class Board:
    """The claim board of one game, and its transcript."""

    def __init__(self) -> None:
        self.claims = ClaimBoard()
        self.lines: list[dict[str, object]] = []  # the talk as said: t, day, seat, text
        self.said = 0  # role and finding claims so far (the worlds change only with these)
        self.days: set[int] = set()

    def __len__(self) -> int:
        return len(self.lines)

    def say(self, seat: int, day: int, claims: Iterable[Claim], t: float) -> None:
        said = tuple(claims)
        if not said:
            return
        self.claims.post(seat, day, said)
        self.days.add(day)
        self.said += sum(1 for c in said if c.kind in ("CO", "FOUND"))
        self.lines.append({"t": t, "day": day, "seat": seat, "text": text(said)})

    def roles(self) -> dict[int, str]:
        """Each seat's claimed role."""
        return dict(self.claims.roles)

    def findings(self) -> dict[int, list[tuple[int, bool]]]:
        """What each seat said it found: (seat named, mafia?)."""
        return {s: [(t, r == MAFIA) for t, r in book.items()] for s, book in self.claims.findings.items()}

    def intentions(self, day: int | None = None, *, before: int | None = None) -> list[tuple[int, int]]:
        """(voter, seat named) for each vote intention: of one day, of the days before one, or all."""
        days = sorted(d for d in self.days if (day is None or d == day) and (before is None or d < before))
        return [(s, x) for d in days for s, x in sorted(self.claims.intentions(d).items())]
