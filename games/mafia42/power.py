"""The win arithmetic of マフィア42, exactly as the seed tabulates it.

A side wins by the vote power its living players hold, not by their number.
Everything here is a pure function of the seats' public-to-the-referee state
(`Seat`), so each row of the seed's head/vote table and each line of its win
conditions is one small, checkable rule.  ∞ is `math.inf`: one ∞ on a side
beats any finite count and ∞ vs ∞ is equal, which Python's floats already do.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from kikimimi.roles.roster import Player

from .jobs import Catalogue

SIDES = ("mafia", "citizens", "cult")
MODES = ("classic", "general", "cult")
SKILLS = ("", "time-limited", "escape")


@dataclass
class Seat(Player):
    """One player as the arithmetic sees them: the layer's roster record (`role`
    is the card dealt, `team` the team now: a converted player's is cult) with
    the states the seed's table reads.  The game's seats are these records."""

    job: str = ""  # the job played now (the card's, until the clergy or the magician change it)
    contacted: bool = False  # a mafia helper in contact with the mafia
    converted: bool = False  # converted by the cult (the fanatic: converted by the leader)
    revealed: bool = False  # a judge who has shown himself
    threatened: bool = False  # by the gangster, until the day ends
    grudge_against: tuple[int, ...] = ()  # a lover: the mafia who shot the partner
    client_killed: bool = False  # a mercenary whose client was killed at night
    side: str | None = None  # set when the magician's swap makes him play as this seat
    skill: str = ""
    escaped: bool = False  # used "escape"

    def __post_init__(self) -> None:
        if not self.job:
            self.job = self.role or ""


@dataclass(frozen=True)
class Power:
    heads: float = 0.0
    votes: float = 0.0

    def __add__(self, other: "Power") -> "Power":
        return Power(self.heads + other.heads, self.votes + other.votes)


ZERO = Power()


def side_of(p: Seat, catalogue: Catalogue) -> str:
    """The side whose count a player adds to: a helper before contact counts for the citizens."""
    if p.side is not None:
        return p.side
    if p.team == "mafia" and catalogue[p.job].helper and not p.contacted:
        return "citizens"
    return p.team or ""


def _pair_alive(p: Seat, seats: Iterable[Seat]) -> bool:
    return sum(1 for o in seats if o.alive and o.job == p.job) >= 2


def _state_power(p: Seat, seats: list[Seat], catalogue: Catalogue) -> Power | None:
    job = catalogue[p.job]
    checks = {
        "revealed": p.revealed,
        "client-killed": p.client_killed,
        "pair-alive": _pair_alive(p, seats),
        "unconverted": not p.converted,
        "grudge": any(o.alive and o.seat in p.grudge_against for o in seats),
    }
    for state, heads, votes in job.power:
        if checks.get(state):
            return Power(heads, votes)
    return None


def seat_power(p: Seat, seats: list[Seat], catalogue: Catalogue) -> Power:
    """Heads and votes of one seat (dead: none), before the "escaped and alone" rule."""
    if not p.alive:
        return ZERO
    job = catalogue[p.job]
    power = _state_power(p, seats, catalogue) or Power(job.heads, job.votes)
    if p.threatened:
        power = Power(power.heads, 0.0)
    return power


def escaped_alone(p: Seat, seats: list[Seat], catalogue: Catalogue) -> bool:
    """An escaped mafia member, cult leader or converted fanatic left alone counts as dead."""
    if not (p.alive and p.escaped):
        return False
    side = side_of(p, catalogue)
    if side not in ("mafia", "cult"):
        return False
    if side == "cult" and not (p.job == "cult-leader" or (p.job == "fanatic" and p.converted)):
        return False
    return not any(o.alive and o.seat != p.seat and side_of(o, catalogue) == side for o in seats)


def sides(seats: Iterable[Seat], catalogue: Catalogue) -> dict[str, Power]:
    """Heads and votes per side after the current state."""
    seats = list(seats)
    out = dict.fromkeys(SIDES, ZERO)
    for p in seats:
        if escaped_alone(p, seats, catalogue):
            continue
        out[side_of(p, catalogue)] += seat_power(p, seats, catalogue)
    return out


def as_event(power: Mapping[str, Power], mode: str) -> dict[str, dict[str, float | int | str]]:
    """The `power` event's `sides`: whole numbers, ∞ written "inf"."""
    def num(x: float) -> int | str:
        return "inf" if x == math.inf else int(x)
    return {side: {"heads": num(p.heads), "votes": num(p.votes)}
            for side, p in power.items() if side != "cult" or mode == "cult"}


def anchors(seats: Iterable[Seat], catalogue: Catalogue, side: str | None = None) -> list[int]:
    """Living prophet, mercenary with a dead client, revealed judge, the secret society (both).

    Any of them alive blocks the mafia's win (and, as citizens, the cult's first way)."""
    seats = list(seats)
    out = []
    for p in seats:
        if not p.alive or (side is not None and side_of(p, catalogue) != side):
            continue
        job = p.job
        if (job == "prophet" or (job == "mercenary" and p.client_killed) or (job == "judge" and p.revealed)
                or (job == "society" and _pair_alive(p, seats))):
            out.append(p.seat)
    return out


@dataclass(frozen=True)
class Decision:
    winner: str  # mafia | citizens | cult
    line: str  # which line of the seed decided it (the tests name them)


@dataclass
class Fired:
    """Immediate-win abilities that went off at this moment."""

    revelation: int | None = None  # the prophet's seat
    envoy: bool = False
    time_limited: list[int] = field(default_factory=list)  # holders alive at their night


def _leading(seats: list[Seat]) -> bool:
    """The cult leader or a converted fanatic lives (the cult's way 1; else its way 2)."""
    return any(p.alive and (p.job == "cult-leader" or (p.job == "fanatic" and p.converted)) for p in seats)


def leadership_votes(seats: list[Seat], catalogue: Catalogue) -> float:
    """Votes of the cult leader and of a converted fanatic who inherited the converting."""
    leader_alive = any(p.alive and p.job == "cult-leader" for p in seats)
    total = 0.0
    for p in seats:
        if escaped_alone(p, seats, catalogue):
            continue
        if p.job == "cult-leader" or (p.job == "fanatic" and p.converted and not leader_alive):
            total += seat_power(p, seats, catalogue).votes
    return total


def decide(seats: Iterable[Seat], mode: str, catalogue: Catalogue, fired: Fired | None = None) -> Decision | None:
    """Who has won now, by the first line of the seed that holds (immediate wins first)."""
    seats = list(seats)
    fired = fired or Fired()
    power = sides(seats, catalogue)
    m, c, k = power["mafia"].votes, power["citizens"].votes, power["cult"].votes
    cult_mode = mode == "cult"
    by_seat = {p.seat: p for p in seats}
    # immediate wins
    if fired.revelation is not None:
        prophet = by_seat[fired.revelation]
        if cult_mode and prophet.converted:
            return Decision("cult", "cult-immediate-prophet")
        return Decision(side_of(prophet, catalogue), "citizens-immediate-prophet")
    if fired.envoy:
        return Decision("citizens", "citizens-immediate-envoy")
    for holder in fired.time_limited:
        team = by_seat[holder].team
        if team in ("mafia", "cult"):
            return Decision(team, f"{team}-immediate-time-limited")
    if not cult_mode:
        if m == 0:
            return Decision("citizens", "citizens")
        if m >= c and not anchors(seats, catalogue):
            return Decision("mafia", "mafia")
        return None
    # cult mode
    mafia_dead = not any(p.alive and p.team == "mafia" for p in seats)
    judge_converted = any(p.alive and p.job == "judge" and p.converted for p in seats)
    if mafia_dead and judge_converted and not anchors(seats, catalogue, "citizens"):
        return Decision("cult", "cult-immediate-judge")
    if m == 0 and leadership_votes(seats, catalogue) == 0 and c >= k:
        return Decision("citizens", "citizens-cult-mode")
    leading = _leading(seats)
    if leading and m == 0 and k >= c and not anchors(seats, catalogue, "citizens"):
        return Decision("cult", "cult-way-1")
    if not leading and m == 0 and c == 0:
        return Decision("cult", "cult-way-2")
    if k > m and c == 0 and m > 0:
        return Decision("cult", "cult-way-3")
    if m >= c + k and not anchors(seats, catalogue):
        return Decision("mafia", "mafia-cult-mode")
    return None
