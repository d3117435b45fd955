"""The table talk of a simulated マフィア42 game: structured claims on a public board.

At a real table people talk aloud in the discussion and nothing of it goes
into the game's inputs; in a bot game the talk is this board, which every bot
reads and which the simulation keeps (`Board.lines`) so a game can be re-read
beside its log.  A claim is one of three things, in the spirit of AIWolf's
protocol: a role ("I am the police"), a finding ("seat 5 is mafia", "seat 2
is not mafia", said with the role it comes from), and a vote intention ("I
vote seat 5").  Each has a text form, and `parse` reads it back, bounded.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: Longest talk line `parse` reads (a claim's text is under 40 characters).
MAX_LINE = 80
ROLES = ("police", "medium")
_ROLE = re.compile(r"seat (\d{1,2}): i am (?:the )?(" + "|".join(ROLES) + r")")
_FINDING = re.compile(r"seat (\d{1,2}): seat (\d{1,2}) is (not )?mafia")
_VOTE = re.compile(r"seat (\d{1,2}): i vote seat (\d{1,2})")


@dataclass(frozen=True)
class Claim:
    """One thing a seat said on one day; `kind` is "role", "finding" or "vote"."""

    day: int
    seat: int
    kind: str
    role: str = ""  # "role": the role claimed
    target: int = 0  # "finding" and "vote": the seat named
    mafia: bool = False  # "finding": the seat named is mafia

    def text(self) -> str:
        if self.kind == "role":
            return f"seat {self.seat}: I am the {self.role}"
        if self.kind == "finding":
            return f"seat {self.seat}: seat {self.target} is {'' if self.mafia else 'not '}mafia"
        return f"seat {self.seat}: I vote seat {self.target}"


def parse(line: str, day: int, players: int) -> Claim | None:
    """A talk line back into a claim, or None for anything else (too long, another form,
    a seat that is not at the table)."""
    if len(line) > MAX_LINE:
        return None
    text = line.strip().lower()
    found = _ROLE.fullmatch(text)
    if found:
        claim = Claim(day, int(found[1]), "role", role=found[2])
    elif (found := _FINDING.fullmatch(text)):
        claim = Claim(day, int(found[1]), "finding", target=int(found[2]), mafia=not found[3])
    elif (found := _VOTE.fullmatch(text)):
        claim = Claim(day, int(found[1]), "vote", target=int(found[2]))
    else:
        return None
    if not 1 <= claim.seat <= players or (claim.kind != "role" and not 1 <= claim.target <= players):
        return None
    return claim


class Board:
    """Every claim said so far, in order; what the reasoning reads of it."""

    def __init__(self) -> None:
        self.claims: list[Claim] = []
        self.lines: list[dict[str, object]] = []  # the talk as said: t, day, seat, text
        self.votes: list[Claim] = []  # the vote intentions alone (read at every vote named)
        self.said = 0  # role and finding claims so far

    def __len__(self) -> int:
        return len(self.claims)

    def say(self, claim: Claim, t: float) -> None:
        self.claims.append(claim)
        if claim.kind == "vote":
            self.votes.append(claim)
        else:
            self.said += 1
        self.lines.append({"t": t, "day": claim.day, "seat": claim.seat, "text": claim.text()})

    def roles(self) -> dict[int, str]:
        """Each seat's claimed role (its first claim: a seat that changes its story keeps the first)."""
        out: dict[int, str] = {}
        for c in self.claims:
            if c.kind == "role":
                out.setdefault(c.seat, c.role)
        return out

    def findings(self) -> dict[int, list[tuple[int, bool]]]:
        """What each seat said it found, per seat: (seat named, mafia?)."""
        out: dict[int, list[tuple[int, bool]]] = {}
        for c in self.claims:
            if c.kind == "finding":
                out.setdefault(c.seat, []).append((c.target, c.mafia))
        return out

    def intentions(self, day: int | None = None, *, before: int | None = None) -> list[tuple[int, int]]:
        """(voter, seat named) for each vote intention: of one day, of the days before one, or all."""
        return [(c.seat, c.target) for c in self.votes
                if (day is None or c.day == day) and (before is None or c.day < before)]

    def today(self, day: int) -> list[Claim]:
        return [c for c in self.claims if c.day == day]
