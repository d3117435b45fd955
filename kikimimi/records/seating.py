"""Who chooses a seat first before an official practice session.

Rules (rules/trident.md, "Seating"): the first-time or lowest player first,
then the highest, then the rest from the top down.  Priority: higher rank,
then higher peerage, then the one who reached that rank earlier.

Rulings: players with no rank yet (first-timers, and players whose only
sessions were abandoned) are below every Apprentice; Apprentices are equal
among themselves whatever their peerage; players equal in priority keep
their order of arrival (the earlier arrival chooses earlier), so a table of
equals chooses in order of arrival.
"""
from __future__ import annotations

from collections.abc import Sequence

from kikimimi.records.club import Player
from kikimimi.records.ladder import Rank
from kikimimi.records.spoken import Speaker


def strength(player: Player) -> tuple[int, int, int]:
    """Seating priority, larger is higher; equal tuples are equal players."""
    if player.rank <= Rank.APPRENTICE:
        return (int(player.rank), 0, 0)
    # rank_since is the settlement id at which the rank was reached: smaller is earlier.
    since = player.rank_since if player.rank_since is not None else 0
    return (int(player.rank), player.peerage, -since)


def seating_order(arrivals: Sequence[Player]) -> list[Player]:
    """The order in which these players (in order of arrival) choose seats."""
    if len({p.id for p in arrivals}) != len(arrivals):
        raise ValueError("a player is listed twice")
    indexed = list(enumerate(arrivals))
    if not indexed:
        return []
    lowest = min(indexed, key=lambda ip: (strength(ip[1]), ip[0]))
    rest = sorted((ip for ip in indexed if ip is not lowest), key=lambda ip: (_neg(strength(ip[1])), ip[0]))
    return [lowest[1]] + [p for _, p in rest]


def _neg(t: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-x for x in t)


def all_first_time(players: Sequence[Player]) -> bool:
    return all(p.first_time for p in players)


def seating_line(arrivals: Sequence[Player], lang: str) -> str:
    """The spoken announcement of the seating order, in the table's language."""
    order = seating_order(arrivals)
    speaker = Speaker(lang)
    key = "seating-arrival" if all_first_time(arrivals) else "seating-order"
    return speaker.render(key, order=[speaker.spoken_name(p) for p in order])
