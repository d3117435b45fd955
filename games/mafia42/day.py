"""The day of マフィア42: the vote with its live tally, the accusation, and the
approval with the judge, the politician and escape.

The tally is what the app's screen shows (the politician's ballot as 1, who
voted for whom never), while the accusation counts the real weights; the
madam and the thief act through the same ballot (`night.day_abilities`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from kikimimi import hints
from kikimimi.hints import Line, line
from kikimimi.protocol import TABLE, Event, event, say
from kikimimi.roles import decide as count_votes

from . import night

if TYPE_CHECKING:
    from .game import Mafia42Game


def cast_vote(game: "Mafia42Game", seat: int, target: int) -> list[Event]:
    """A seat token in the vote: recorded (changeable), the changed counts read out until the hush."""
    if game.p[seat].s.threatened:
        return game.refuse(seat, "a threatened player cannot vote today", "threatened")
    why = game.vote.refusal(seat, target)
    if why:
        return game.refuse(seat, "vote for a living player", "target-dead")
    before = shown(game)
    game.vote.cast(seat, target)
    out = [game.tell(seat, "voted", seat=target)]
    if not game.hushed:
        now = shown(game)
        changed = sorted({s for s in (*before, *now) if before.get(s, 0) != now.get(s, 0)}, key=int)
        out.append(event("tally", totals=now, final=False))
        out += [say(TABLE, "tally-entry", seat=int(s), votes=now.get(s, 0)) for s in changed]
    return out


def shown(game: "Mafia42Game") -> dict[str, int]:
    """Votes per target as the app displays them: the politician's ballot shows as 1."""
    out: dict[str, int] = {}
    for target in game.vote.ballots.values():
        out[str(target)] = out.get(str(target), 0) + 1
    return dict(sorted(out.items(), key=lambda kv: int(kv[0])))


def tally_lines(key: str, totals: Mapping[str, int]) -> list[Line]:
    """A tally as the app's screen shows it: a heading, then each seat with votes."""
    if not totals:
        return [line("tally-none")]
    return [line(key)] + [line("tally-entry", seat=int(s), votes=n) for s, n in totals.items()]


def spoken(to: str, key: str, totals: Mapping[str, int]) -> list[Event]:
    """The tally's lines said to one audience."""
    return hints.spoken(to, tally_lines(key, totals))


def close_vote(game: "Mafia42Game", t: float) -> list[Event]:
    """The vote ends: the final tally, the madam's and the thief's acts, the accusation."""
    final = shown(game)
    out: list[Event] = [event("tally", totals=final, final=True)] + spoken(TABLE, "tally-final", final)
    night.day_abilities(game, out)
    decision = count_votes([game.vote])  # no votes or a tie for most: nobody
    game.accused = decision.seat
    if decision.seat is None:
        out += [event("accused", seat=None), say(TABLE, "no-accused")]
        return out + game.to_night(t)
    out += [event("accused", seat=decision.seat), say(TABLE, "accused", seat=decision.seat)]
    return out + game.begin("defence", t)


def ballot(game: "Mafia42Game", seat: int, yes: bool) -> list[Event]:
    """YES or NO in the approval vote (changeable until it closes)."""
    if game.phase != "approval":
        return game.refuse(seat, "yes and no count in the approval vote", "not-now")
    if seat == game.accused:
        return game.refuse(seat, "only the living, other than the accused, approve", "no-ballot")
    (game.yes if yes else game.no).add(seat)
    (game.no if yes else game.yes).discard(seat)
    return [game.tell(seat, "ballot-yes" if yes else "ballot-no")]


def close_approval(game: "Mafia42Game", t: float) -> list[Event]:
    """Executed when "yes" ≥ half of the living voters (a threatened ballot is "no");
    a judge overruled is revealed and decides, and from then on decides alone."""
    voters = [n for n in game.alive() if n != game.accused]
    yes = {n for n in game.yes if n in voters and not game.p[n].s.threatened}
    no = len(voters) - len(yes)
    executed = bool(voters) and 2 * len(yes) >= len(voters)
    out: list[Event] = []
    judges = [n for n in voters if game.job(n).effect == "judge" and not game.p[n].s.threatened
              and game.able(n) and (n in game.yes or n in game.no)]
    deciding = next((n for n in judges if game.p[n].s.revealed), None)
    if deciding is None:
        deciding = next((n for n in judges if (n in game.yes) != executed), None)
        if deciding is not None:
            game.p[deciding].s.revealed = True
            out.append(say(TABLE, "judge-revealed", seat=deciding))
    if deciding is not None:
        executed = deciding in game.yes
        game.causes.append("judge")
    out += [event("approval", yes=len(yes), no=no, executed=executed),
            say(TABLE, "approval-result", yes=len(yes), no=no)]
    accused = game.accused
    assert accused is not None
    if executed and game.job(accused).effect == "unexecutable":
        out.append(say(TABLE, "politician-survives", seat=accused))
        executed = False
        game.causes.append("politician")
    elif executed and game.p[accused].s.skill == "escape" and not game.p[accused].s.escaped:
        game.p[accused].s.escaped = True
        out.append(say(TABLE, "escaped", seat=accused))
        executed = False
        game.causes.append("escape")
    if executed:
        out.append(say(TABLE, "executed", seat=accused))
        out += night.kill(game, accused, "day", "vote")
    else:
        out.append(say(TABLE, "spared", seat=accused))
    out += game.check()
    return out if game.finished else out + game.to_night(t)
