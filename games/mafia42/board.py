"""What マフィア42 keeps per seat and per play, below the day, the night and the game.

Each seat is one record in the layer's roster (`Member`, the layer's
`Player` with the arithmetic's `Seat` fields and the abilities' own): the
roster's `alive` and `team` are the ones the win arithmetic reads, so there
is nothing to keep in step.  `Board` is the state the day's and the night's
rules act on; `game.Mafia42Game` adds the phases and the protocol on top, so
`day` and `night` import this module and never the game.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kikimimi.game import Event, say, seat_audience
from kikimimi.roles import HiddenRoleGame, Roster, Vote

from .jobs import Catalogue, Job, default_catalogue
from .options import parse_options
from .power import Fired, Seat, side_of


@dataclass
class Member(Seat):
    """A seat: the card it was dealt (`role`), what the arithmetic needs, and what the abilities need."""

    used: dict[str, int] = field(default_factory=dict)
    frog_until: int = 0  # cursed: no ability through day N
    seduced_until: int = 0  # seduced: no ability through night N
    borrowed: str = ""  # the thief's ability for the coming night
    mark: int = 0  # the beastman's mark, the magician's target
    rested: bool = False  # the medium laid them to rest
    revive_on: int = 0  # the scientist wakes at the end of night N
    sun: bool = False  # society: sun (else moon)
    found_moon: bool = False
    client: int = 0  # the mercenary's client
    knows: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # for HINT


class Board(HiddenRoleGame):
    """One play's state and the helpers every rule uses."""

    seat_type: ClassVar[type[Member]] = Member
    out_event: ClassVar[str] = "death"
    card_set: ClassVar[str] = "mafia42"
    card_kind: ClassVar[str] = "job"
    teams: ClassVar[Mapping[str, str]] = {n: j.team for n, j in default_catalogue().jobs.items()}
    roster: Roster[Member]

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        self.opts = parse_options(players, self.options)
        self.mode: str = self.opts["mode"]
        self.catalogue: Catalogue = self.opts["catalogue"]
        self.setup_roles(self.opts["jobs"])
        self.now = 0.0
        self.choices: dict[int, int] = {}  # tonight's scans
        self.order: list[int] = []  # who scanned, in order (the mafia's latest choice counts)
        self.spy_looks: dict[int, int] = {}  # looks taken tonight
        self.spy_bonus: set[int] = set()  # spies who found a mafioso tonight: one more look
        self.vote = Vote.open(())
        self.yes: set[int] = set()
        self.no: set[int] = set()
        self.accused: int | None = None
        self.hushed = False
        self.marked: set[int] = set()  # threatened seats that scanned a ballot in this vote
        self.read: dict[str, int] = {}  # the tally as last read out (what HINT repeats)
        self.announce: list[Event] = []  # the morning's public news, gathered in the night
        self.fired = Fired()
        self.causes: list[str] = []  # jobs whose acts changed the board since the last check

    def member(self, seat: int) -> Member:
        return self.roster[seat]

    def members(self) -> list[Member]:
        return list(self.roster.seats.values())

    def job(self, seat: int) -> Job:
        return self.catalogue[self.roster[seat].job]

    def tell(self, who: int, key: str, remember: bool = False, /, **params: Any) -> Event:
        """A phrase for one earphone; `remember` keeps it for that seat's HINT."""
        if remember:
            self.roster[who].knows.append((key, params))
        return say(seat_audience(who), key, **params)

    def role_told(self, seat: int) -> list[Event]:
        """The team is printed on the card and told with the job (rules: "hears job and team")."""
        return [say(seat_audience(seat), "your-team", team=f"team:{self.roster[seat].team}")]

    def able(self, seat: int) -> bool:
        """May this seat use its ability now (not a frog, not seduced)?"""
        p = self.roster[seat]
        return p.frog_until < self.day and p.seduced_until < self.day

    def mafia_team(self) -> list[int]:
        """Who hears the mafia's joint act: living mafia and contacted helpers."""
        return [p.seat for p in self.members() if p.alive and p.team == "mafia"
                and side_of(p, self.catalogue) == "mafia"]
