"""How the mafia's helpers play マフィア42, from what a helper's seat may know.

A helper knows it is on the mafia's team but not who the mafia are until
contact (rules: "helpers count for the citizens and cannot talk with the
mafia until contact"); each contact is made by using its ability on a
mafioso (the spy's look, the witch's curse, the madam's and the thief's
vote) or by the mafia's shot (the beastman's mark).  So before contact a
helper aims its ability at the seat the public worlds make most likely a
mafioso, and the beastman marks the seat the mafia most likely shoot (the
police claimant the table trusts).  Its vote and its approval go against the
town's interest without naming itself: it votes the claimant the table trusts,
or joins the seat named most when that seat is no likelier a mafioso than
the living's mean, and it spares the seats the table suspects.

After contact a helper is of the mafia's team (`reasoning.ReasonSeat.mafioso`)
and votes with it; its own ability then serves the team: the witch curses the
police claimant the table trusts (a frog loses tonight's check) or else the
mate the table suspects most (a frog reads "not mafia"); a tamed beastman,
the last of the mafia, shoots as the mafia do.  A helper in contact is also
the team's best liar (`liar`): the real police reads it "not mafia".
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # The seat as these choices read it, named below `reasoning` (which calls this module).
    from .seat_view import SeatView as ReasonSeat

#: The helpers whose ability rides on their vote (night.day_abilities).
BY_VOTE = ("madam", "thief")


def _likeliest(bot: ReasonSeat, pool: list[int]) -> int | None:
    return bot.suspect(bot.reasoning.public(), pool)


def _trusted_claimant(bot: ReasonSeat, pool: list[int]) -> int | None:
    """The police claimant the table trusts most, if any lives among `pool`."""
    roles = bot.reasoning.facts.talk.roles()
    public = bot.reasoning.public()
    claimants = [s for s in pool if roles.get(s) == "police" and public.mafia[s] < 0.5]
    return max(claimants, key=lambda s: (public.police[s], -s)) if claimants else None


def seeking(bot: ReasonSeat) -> int | None:
    """Before contact: the seat this helper's ability should reach to find the mafia."""
    pool = [s for s in bot.living() if s not in bot.checked] or bot.living()
    if bot.job == "beastman":  # tamed when the mafia shoot its mark
        return _trusted_claimant(bot, bot.living()) or _most_trusted(bot, bot.living())
    return _likeliest(bot, pool)


def _most_trusted(bot: ReasonSeat, pool: list[int]) -> int | None:
    if not pool:
        return None
    public = bot.reasoning.public()
    low = min(public.mafia[s] for s in pool)
    return bot.rng.choice([s for s in pool if public.mafia[s] <= low + 1e-9])


def night(bot: ReasonSeat) -> int | None:
    """A helper's night scan (None: the plain bot's cover scan)."""
    if not bot.mafioso:
        return None if bot.job in BY_VOTE else seeking(bot)
    others = [s for s in bot.living() if s not in bot.mates]
    if bot.job == "witch":
        claimant = _trusted_claimant(bot, others)
        if claimant is not None:
            return claimant
        mates = [s for s in bot.mates if s not in bot.dead]
        return bot.suspect(bot.reasoning.public(), mates) if mates else None
    if bot.job == "beastman" and not [s for s in bot.mafiosi() if s not in bot.dead and s != bot.seat]:
        return bot.shot()  # tamed and the last of the mafia: he kills
    return None


def vote(bot: ReasonSeat, top: int | None) -> int | None:
    """Before contact: the thief reaches for the likeliest mafioso, and so does the madam while
    two or so mafiosi may live (never the seat named most: her vote would help execute the
    mafioso she seeks; and a lone mafioso seduced has no shot that night); the others, and the
    madam then, vote against the town without pointing at the mafia (her seduction takes the
    trusted police claimant's check)."""
    others = bot.living()
    if not others:
        return None
    public = bot.reasoning.public()
    lone = sum(public.mafia[s] for s in bot.living(others=False)) < 1.5
    if bot.job == "thief" or (bot.job == "madam" and not lone):
        tried = [s for s in others if s not in bot.checked] or others
        if bot.job == "madam":  # her vote must not tip the town onto a mafioso she seeks
            tried = [s for s in tried if s != top] or tried
        return _likeliest(bot, tried)
    mean = sum(public.mafia[s] for s in others) / len(others)
    if top is not None and top in others and public.mafia[top] <= mean:
        return top
    return _trusted_claimant(bot, others) or _most_trusted(bot, others)


def approve(bot: ReasonSeat, accused: int) -> bool:
    """Before contact: spare the seats the table suspects (perhaps a mafioso), execute the others."""
    public = bot.reasoning.public()
    others = [s for s in bot.living(others=False) if s != accused] or [accused]
    mean = sum(public.mafia[s] for s in others) / len(others)
    return public.mafia[accused] <= mean
