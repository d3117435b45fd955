"""How the cult's reasoning bots play マフィア42 (cult mode), from what a cult seat may know.

A cult seat knows its own: the leader hears each seat it converts and that
seat's job (or that the conversion failed: a mafia-team seat or the clergy),
a converted seat hears its leader's seat, the fanatic is told the leader at
the deal.  Nothing else: the cult reads the same public worlds as the town
(`suspicion`), narrowed by what it knows.

Why it plays so: the cult wins with the mafia gone and its votes at least the
citizens' (or the citizens gone), so until the mafia are gone its interest
is the town's on the day (execute mafiosi) and its own at night (take the
seats that carry the town's votes: a revealed judge's ∞, a politician's 2,
the trusted police claimant, else the seat the table trusts most, which is
also the least likely to be a mafioso the conversion would fail on).  It
never votes or approves against a seat it knows to be cult; once no mafioso
lives in any world it weighs, every other death brings it nearer its win,
so it approves them all.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # The seat as these choices read it, named below `reasoning` (which calls this module).
    from .seat_view import SeatView as ReasonSeat

#: Below this many expected living mafiosi (in the seat's own worlds) the cult counts the mafia gone.
GONE = 0.05


def mafia_alive(bot: ReasonSeat) -> float:
    """How many mafiosi this seat expects still alive."""
    post = bot.view()
    return sum(post.mafia[s] for s in bot.living(others=False))


def known_enemies(bot: ReasonSeat) -> list[int]:
    """Living seats this cult seat knows are of the mafia's team: found, made public, or a
    conversion that failed on a seat not publicly the clergy."""
    jobs = bot.reasoning.facts.jobs
    failed = {s for s in bot.failed if jobs.get(s) != "clergy"}
    seats = set(bot.mafia) | failed | set(bot.reasoning.facts.revealed_helpers())
    return sorted(s for s in seats if s not in bot.dead and s not in bot.mates and s != bot.seat)


def convert_target(bot: ReasonSeat) -> int:
    """The seat to convert: a revealed judge, a revealed politician, the police claimant the table
    trusts most, a medium claimant, else the seat it trusts most (never a mate, never a seat the
    conversion cannot take)."""
    facts = bot.reasoning.facts
    barred = {bot.seat, *bot.mates, *bot.failed, *bot.mafia, *facts.revealed_helpers()}
    pool = [s for s in bot.living() if s not in barred and facts.jobs.get(s) != "clergy"]
    if not pool:
        return bot.seat  # nobody to take: the scan is cover
    for job in ("judge", "politician"):
        revealed = [s for s in pool if facts.jobs.get(s) == job]
        if revealed:
            return revealed[0]
    public = bot.reasoning.public()
    roles = facts.talk.roles()
    for role in ("police", "medium"):
        claimants = [s for s in pool if roles.get(s) == role and public.mafia[s] < 0.5]
        if claimants:
            return max(claimants, key=lambda s: (public.police[s], -public.mafia[s], -s))
    post = bot.view()
    low = min(post.mafia[s] for s in pool)
    return bot.rng.choice([s for s in pool if post.mafia[s] <= low + 1e-9])


def vote(bot: ReasonSeat, top: int | None) -> int | None:
    """A known enemy first; while mafiosi may live, the town's most suspect (or the seat named
    most, when nearly as suspect); once they are gone, the seat named most, else the least
    trusted non-mate."""
    enemies = known_enemies(bot)
    if enemies:
        return enemies[0]
    pool = [s for s in bot.living() if s not in bot.mates]
    if not pool:
        return None
    post = bot.view()
    best = bot.suspect(post, pool)
    if top is not None and top in pool:
        if mafia_alive(bot) < GONE or (best is not None and post.mafia[top] >= bot.style.join * post.mafia[best]):
            return top
    return best


def approve(bot: ReasonSeat, accused: int) -> bool:
    """Never a mate; always a known enemy, and anyone once the mafia are gone; else as the town."""
    if accused in bot.mates:
        return False
    if accused in known_enemies(bot) or mafia_alive(bot) < GONE:
        return True
    return bot.town_approves(accused)
