"""The day of マフィア42: the vote with its live tally, the accusation, and the
approval with the judge, the politician and escape.

The tally is read at the politician's real weight (the app shows it as 1; read
so at a table it made a tie the accusation then broke) and never says who voted
for whom; the final count is the referee's, the table hears the accusation.  The
madam and the thief act through the same ballot (`night.day_abilities`).

At a table everyone sees who scans, so any reading of part of the ballots
ties them to the seats that scanned before it: a reading that rose for one
seat alone named each new voter's choice, and a total above the seats that
had scanned put the politician among them.  The live tally is therefore read
once, whole, at the first fixed moment (`READ_EVERY` seconds into the vote,
or the hush) at which every voter has a ballot in it, and not again: a sum of
every voter's ballot, at the politician's weight, ties no ballot to a voter
and the weight to no seat beyond "one of the voters".  docs/mafia42.md has
the ruling.
"""
from __future__ import annotations

from collections.abc import Mapping

from kikimimi.game import REFEREE, TABLE, event, Event, hints, line, Line, refusal, say
from kikimimi.roles import decide as count_votes

from . import night
from .board import Board


#: Seconds between the moments the live tally may be read (the timer `READING`).
READ_EVERY = 5.0
READING = "tally"


def cast_vote(board: Board, seat: int, target: int) -> list[Event]:
    """A seat token in the vote: recorded (changeable), told to the voter alone;
    the table hears it in the next reading."""
    if board.roster[seat].threatened:
        return refusal(seat, "a threatened player cannot vote today", "threatened")
    why = board.vote.refusal(seat, target)
    if why:
        return refusal(seat, "vote for a living player", "target-dead")
    board.vote.cast(seat, target)
    return [board.tell(seat, "voted", seat=target)]


def reading(board: Board) -> list[Event]:
    """The live tally, once, when every voter has a ballot in it (ruling, docs/mafia42.md):
    a reading of some of the ballots is tied to the seats seen scanning before it."""
    if board.read or not board.vote.voters or not board.vote.complete:
        return []
    board.read = shown(board)
    return [event("tally", totals=board.read, final=False)] + spoken(TABLE, "tally-now", board.read)


def shown(board: Board) -> dict[str, int]:
    """Votes per target, the politician's ballot at its real weight (ruling, docs/mafia42.md):
    a tally showing it as 1 could read as a tie that the accusation then broke, which
    named the politician's choice."""
    return {str(target): int(n) for target, n in board.vote.totals().items()}


def tally_lines(key: str, totals: Mapping[str, int]) -> list[Line]:
    """A tally as the app's screen shows it: a heading, then each seat with votes."""
    if not totals:
        return [line("tally-none")]
    return [line(key)] + [line("tally-entry", seat=int(s), votes=n) for s, n in totals.items()]


def spoken(to: str, key: str, totals: Mapping[str, int]) -> list[Event]:
    """The tally's lines said to one audience."""
    return hints.spoken(to, tally_lines(key, totals))


def close_vote(board: Board) -> list[Event]:
    """The vote ends: the final tally, the madam's and the thief's acts, the accusation
    (`board.accused`, None for no votes or a tie for most)."""
    # The final count is the referee's: read after the hush it named a lone late voter's
    # choice ("Seat 3: 1"); the table hears the accusation it decides.
    out: list[Event] = [event("tally", totals=shown(board), final=True, private=REFEREE)]
    night.day_abilities(board, out)
    decision = count_votes([board.vote])  # no votes or a tie for most: nobody
    board.accused = decision.seat
    if decision.seat is None:
        return out + [event("accused", seat=None), say(TABLE, "no-accused")]
    return out + [event("accused", seat=decision.seat), say(TABLE, "accused", seat=decision.seat)]


def ballot(board: Board, seat: int, yes: bool) -> list[Event]:
    """YES or NO in the approval vote (changeable until it closes)."""
    if board.phase != "approval":
        return refusal(seat, "yes and no count in the approval vote", "not-now")
    if seat == board.accused:
        return refusal(seat, "only the living, other than the accused, approve", "no-ballot")
    (board.yes if yes else board.no).add(seat)
    (board.no if yes else board.yes).discard(seat)
    if board.roster[seat].threatened:  # whatever it scanned counts as no: never confirm a yes
        return [board.tell(seat, "threatened-ballot")]
    return [board.tell(seat, "ballot-yes" if yes else "ballot-no")]


def close_approval(board: Board) -> list[Event]:
    """Executed when "yes" ≥ half of the living voters (a threatened ballot is "no");
    a judge overruled is revealed and decides, and from then on decides alone."""
    voters = [n for n in board.roster.alive() if n != board.accused]
    yes = {n for n in board.yes if n in voters and not board.roster[n].threatened}
    no = len(voters) - len(yes)
    executed = bool(voters) and 2 * len(yes) >= len(voters)
    out: list[Event] = []
    judges = [n for n in voters if board.job(n).effect == "judge" and not board.roster[n].threatened
              and board.able(n) and (n in board.yes or n in board.no)]
    deciding = next((n for n in judges if board.roster[n].revealed), None)
    if deciding is None:
        deciding = next((n for n in judges if (n in board.yes) != executed), None)
        if deciding is not None:
            board.roster[deciding].revealed = True
            out.append(say(TABLE, "judge-revealed", seat=deciding))
    if deciding is not None:
        executed = deciding in board.yes
        board.causes.append("judge")
    out += [event("approval", yes=len(yes), no=no, executed=executed),
            say(TABLE, "approval-result", yes=len(yes), no=no)]
    accused = board.accused
    assert accused is not None
    if executed and board.job(accused).effect == "unexecutable":
        out.append(say(TABLE, "politician-survives", seat=accused))
        executed = False
        board.causes.append("politician")
    elif executed and board.roster[accused].skill == "escape" and not board.roster[accused].escaped:
        board.roster[accused].escaped = True
        out.append(say(TABLE, "escaped", seat=accused))
        executed = False
        board.causes.append("escape")
    if executed:
        out.append(say(TABLE, "executed", seat=accused))
        out += night.kill(board, accused, "day", "vote")
    else:
        out.append(say(TABLE, "spared", seat=accused))
    return out
