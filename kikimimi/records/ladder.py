"""The Trident rank ladder and peerage as pure rules over one player's record.

Nothing here touches the database: `club.py` loads a `Ladder`, feeds it the
player's official games and settlements in order, and stores it back in the
same transaction.  Keeping the rules pure lets every threshold be tested from
recorded games and keeps the storage free of rule knowledge.

Rulings this module implements (rules/trident.md; open points in
docs/records.md):

* **Streak bonus "earned while Bishop".**  A bonus is earned by a win that
  extends a run of consecutive 1st places (the 2nd, 3rd, ... win of a run
  each earn one, so a run of k wins earns k - 1).  It is credited to the rank
  the player *held when that game was played*.  Ranks change only at
  settlements, so every bonus of a session belongs to the rank held during
  that session; a run that crosses a settlement credits its earlier bonuses
  to the old rank and its later ones to the new rank.  Bonuses are never
  lost (a demotion keeps them: "streak records are kept").
* **Runs** continue across sessions in chronological order; any game that
  is not a 1st place ends the run.  Games of abandoned sessions count.
* **4-win streaks**: every 4th consecutive win of a run is one (8 = two).
* **Peerage** = 4-win streaks + contests won, capped at Duke (5); it only
  ever rises.  A contest is one step at once; streaks are settled with ranks.
* **Demotion**: the game in which a run of crashes reaches 2 opens an episode
  (3+ is the same episode).  At the session's settlement the rank drops one
  and the win total becomes (wins at that crash - 10, not below 0) plus the
  wins earned after it.  At most one per session.  Only Bishop, Wizard and
  Knight can be demoted; for anyone else the episode has no effect at all.
  A settlement that demotes does not also promote.
* **Several ranks at once**: after a non-demoting settlement the player
  climbs while the next rank's requirement holds, in ladder order.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Rank(IntEnum):
    NONE = 0
    APPRENTICE = 1
    BISHOP = 2
    WIZARD = 3
    KNIGHT = 4
    GENERAL = 5
    SOVEREIGN = 6  # King or Queen, by the player's form


FORMS = ("king", "queen")

RANK_KEYS = {
    Rank.NONE: "none",
    Rank.APPRENTICE: "apprentice",
    Rank.BISHOP: "bishop",
    Rank.WIZARD: "wizard",
    Rank.KNIGHT: "knight",
    Rank.GENERAL: "general",
}

PEERAGE_KEYS = {
    "king": ("", "baron", "viscount", "earl", "marquis", "duke"),
    "queen": ("", "baroness", "viscountess", "countess", "marchioness", "duchess"),
}
MAX_PEERAGE = 5

#: (total wins, rank whose streak bonuses count, bonuses needed) per rank.
REQUIREMENTS: dict[Rank, tuple[int, Rank | None, int]] = {
    Rank.BISHOP: (10, None, 0),
    Rank.WIZARD: (20, Rank.BISHOP, 2),
    Rank.KNIGHT: (30, Rank.WIZARD, 3),
    Rank.GENERAL: (50, Rank.KNIGHT, 5),
    Rank.SOVEREIGN: (100, None, 0),  # and a peerage
}

DEMOTABLE = frozenset({Rank.BISHOP, Rank.WIZARD, Rank.KNIGHT})
DEMOTION_WINS = 10


def rank_key(rank: int, form: str) -> str:
    """Language-free name of a rank in the player's form ("king", "queen", ...)."""
    rank = Rank(rank)
    if rank is Rank.SOVEREIGN:
        return "king" if form == "king" else "queen"
    return RANK_KEYS[rank]


def peerage_key(peerage: int, form: str) -> str:
    """Language-free peerage name in the player's form; "" when none."""
    return PEERAGE_KEYS[form][peerage]


@dataclass
class Ladder:
    """Everything the ladder needs to know about one player."""

    rank: Rank = Rank.NONE
    peerage: int = 0
    wins: int = 0  # the ladder's win total (reduced by demotions)
    firsts: int = 0  # every 1st place ever, never reduced
    games: int = 0
    crashes: int = 0
    run: int = 0  # current run of consecutive 1st places
    crash_run: int = 0  # current run of consecutive crashes
    four_streaks: int = 0
    contests: int = 0
    sessions: int = 0  # completed (settled) official sessions
    bonuses: dict[int, int] = field(default_factory=dict)  # rank -> bonuses earned while holding it

    def bonuses_at(self, rank: Rank) -> int:
        return self.bonuses.get(int(rank), 0)


@dataclass(frozen=True)
class GameMark:
    """What one official game did to a player's ladder."""

    bonus: bool  # earned a streak bonus (credited to the rank held)
    four_streak: bool  # completed a 4-win streak
    crash_episode: bool  # the second consecutive crash: a demotion episode opens


def apply_game(ladder: Ladder, *, first: bool, crash: bool) -> GameMark:
    """Count one official game for this player, at the rank they hold now."""
    ladder.games += 1
    bonus = four = episode = False
    if first:
        ladder.wins += 1
        ladder.firsts += 1
        if ladder.run >= 1:
            bonus = True
            ladder.bonuses[int(ladder.rank)] = ladder.bonuses_at(ladder.rank) + 1
        ladder.run += 1
        if ladder.run % 4 == 0:
            four = True
            ladder.four_streaks += 1
    else:
        ladder.run = 0
    if crash:
        ladder.crashes += 1
        ladder.crash_run += 1
        episode = ladder.crash_run == 2
    else:
        ladder.crash_run = 0
    return GameMark(bonus, four, episode)


def requirement_met(ladder: Ladder, target: Rank) -> bool:
    """Whether the player qualifies for `target` (Apprentice: a finished session)."""
    if target is Rank.APPRENTICE:
        return ladder.sessions >= 1
    wins, bonus_rank, bonuses = REQUIREMENTS[target]
    if ladder.wins < wins:
        return False
    if bonus_rank is not None and ladder.bonuses_at(bonus_rank) < bonuses:
        return False
    if target is Rank.SOVEREIGN and ladder.peerage < 1:
        return False
    return True


def settle_session(ladder: Ladder, demotion_at_wins: int | None) -> list[str]:
    """Settle a completed session; returns the reasons, in the order applied.

    `demotion_at_wins` is the win total at the crash that opened this
    session's demotion episode (None when there was none).
    """
    reasons: list[str] = []
    ladder.sessions += 1
    if ladder.rank is Rank.NONE:
        ladder.rank = Rank.APPRENTICE
        reasons.append("first-session:apprentice")
    earned = min(MAX_PEERAGE, ladder.four_streaks + ladder.contests)
    if earned > ladder.peerage:
        ladder.peerage = earned
        reasons.append(f"four-win-streaks:{ladder.four_streaks}")
    if demotion_at_wins is not None and ladder.rank in DEMOTABLE:
        after_crash = max(0, ladder.wins - demotion_at_wins)
        ladder.wins = max(0, demotion_at_wins - DEMOTION_WINS) + after_crash
        ladder.rank = Rank(ladder.rank - 1)
        reasons.append(f"demotion:two-crashes:wins-at-crash={demotion_at_wins}")
        return reasons
    while ladder.rank < Rank.SOVEREIGN and requirement_met(ladder, Rank(ladder.rank + 1)):
        ladder.rank = Rank(ladder.rank + 1)
        reasons.append(f"promotion:{RANK_KEYS.get(ladder.rank, 'sovereign')}")
    return reasons


def apply_contest(ladder: Ladder) -> list[str]:
    """A contest won: one peerage step (Baron if none) and one rank up.

    Ruling: the rank step to King/Queen still needs 100 wins (a General
    below 100 wins stays General); below General the step is unconditional.
    """
    reasons = ["contest"]
    ladder.contests += 1
    if ladder.peerage < MAX_PEERAGE:
        ladder.peerage += 1
        reasons.append(f"contest-peerage:{ladder.peerage}")
    if ladder.rank < Rank.GENERAL or (
        ladder.rank is Rank.GENERAL and ladder.wins >= REQUIREMENTS[Rank.SOVEREIGN][0]
    ):
        ladder.rank = Rank(ladder.rank + 1)
        reasons.append(f"contest-rank:{RANK_KEYS.get(ladder.rank, 'sovereign')}")
    return reasons
