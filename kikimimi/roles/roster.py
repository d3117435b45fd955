"""Who holds which role, who is still in play, and who may hear a team's secret.

A hidden-role game keeps one `Roster`.  Every secret that belongs to more
than one seat (the witches' target, the mafia's chat) is addressed through
`team_say` / `team_event`, so it reaches exactly those earphones and the
referee, and never the speaker, the public log or a spectator.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kikimimi.contract.protocol import Event, event, say, seat_audience


@dataclass
class Player:
    """One seat as the layer sees it.  A game that needs more per seat (マフィア42's
    abilities, its vote power) subclasses this and names the subclass as its
    `HiddenRoleGame.seat_type`: one record per seat, no mirror to keep in step."""

    seat: int
    role: str | None = None
    team: str | None = None
    alive: bool = True
    cause: str | None = None  # why the seat left (the referee's only)
    left_day: int | None = None


P = TypeVar("P", bound=Player)


@dataclass
class Roster(Generic[P]):
    """The seats of one game; a role and team once dealt.  `player` makes each
    seat's record (the game's `Player` subclass, if it has one)."""

    players: int
    player: type[P] = Player  # type: ignore[assignment]
    seats: dict[int, P] = field(init=False)

    def __post_init__(self) -> None:
        self.seats = {s: self.player(s) for s in range(1, self.players + 1)}

    def __getitem__(self, seat: int) -> P:
        return self.seats[seat]

    def role(self, seat: int) -> str | None:
        return self.seats[seat].role

    def team(self, seat: int) -> str | None:
        return self.seats[seat].team

    def alive(self) -> list[int]:
        return [s for s, p in self.seats.items() if p.alive]

    def dead(self) -> list[int]:
        return [s for s, p in self.seats.items() if not p.alive]

    def is_alive(self, seat: int) -> bool:
        return seat in self.seats and self.seats[seat].alive

    def holders(self, *roles: str, alive_only: bool = False) -> list[int]:
        """Seats holding any of `roles`, in seat order."""
        return [s for s, p in self.seats.items() if p.role in roles and (p.alive or not alive_only)]

    def members(self, team: str, alive_only: bool = False) -> list[int]:
        return [s for s, p in self.seats.items() if p.team == team and (p.alive or not alive_only)]

    def remove(self, seat: int, cause: str, day: int) -> None:
        p = self.seats[seat]
        p.alive, p.cause, p.left_day = False, cause, day

    def revive(self, seat: int) -> None:
        """A seat that left comes back (マフィア42's clergy and scientist)."""
        p = self.seats[seat]
        p.alive, p.cause, p.left_day = True, None, None


def audience(seats: Iterable[int]) -> list[str]:
    """The `private` value of a group secret: every listed seat's earphone."""
    return [seat_audience(s) for s in sorted(set(seats))]


def team_say(members: Iterable[int], key: str, **params: Any) -> list[Event]:
    """A team's spoken secret: one phrase per member's earphone, nothing on the speaker."""
    return [say(seat_audience(s), key, **params) for s in sorted(set(members))]


def team_event(type_: str, members: Iterable[int], **fields: Any) -> Event:
    """A team's logged secret: kept in each member's earphone view and the referee's."""
    to = audience(members)
    if not to:  # nobody to tell: keep it the referee's rather than widen it
        return event(type_, **fields, private="referee")
    return event(type_, **fields, private=to)


def ranking(roster: Roster, winners: Iterable[str]) -> list[dict[str, Any]]:
    """Hidden-role ranking (docs/contract.md): the winning team's seats share place 1, dead or alive."""
    won = set(winners)
    rows = []
    for s, p in roster.seats.items():
        ok = p.team in won
        # nobody won (a stopped or void game): all share place 1, not a list of seconds
        # with no first ("2. seat 1, 2. seat 2, ..." was heard)
        rows.append({"seat": s, "place": 1 if ok or not won else 2, "won": ok, "team": p.team, "role": p.role,
                     "alive": p.alive})
    return sorted(rows, key=lambda r: (r["place"], r["seat"]))


def partners_of(roster: Roster, seat: int, knows: Mapping[str, tuple[str, ...]]) -> list[int]:
    """The seats this seat is told about at the deal (its role's `knows` entry)."""
    role = roster.role(seat)
    if role is None or role not in knows:
        return []
    return [s for s in roster.holders(*knows[role]) if s != seat]
