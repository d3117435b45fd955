"""Ear-only bots for マフィア42 (`kikimimi sim mafia42 --bot ear`, docs/ear.md).

Each seat hears only the speaker and its own earphone, with parameters as
spoken, and reasons with the same `BotSeat` as the event bots: what it
hears is turned back into the few facts `BotSeat` keeps (its job from "You
are the ...", deaths from "Seat N died in the night" and "Seat N is
executed", findings from its earphone).  The physical table
(`kikimimi.roles.ear.DealtCards`) deals one face-down job card per seat (a handle: the card
says nothing until scanned); seat tokens and command tags are labelled, so
anyone may name them.  A seat acts on what the speaker calls for: its card
at the deal, a seat token when the night or the vote starts, yes or no when
the approval starts; its ballot at a moment of its own in the vote (`VotePace`),
drawn alike whatever its job, as a table's votes come in over the vote and not
all at its first second (then a live tally had nothing to be read from, and the
watcher's adversaries nothing to try).  The referee (the speaker's ear only) says
`next` once a phase has started and no seat has anything left to do.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kikimimi.game import Call, EarBot, EarTable, Heard, Phrasebook, RefereeEar
from kikimimi.roles.ear import DealtCards, Reach
from kikimimi.roles.phrases import GAME_ENDS

from .plain import BotSeat
from .options import parse_options

#: Seconds between a seat's scans: twelve fit in the shortest phase (approval, 10 s).
SCAN_DT = 0.3
#: A ballot's moment, seconds into the vote: from `VOTE_FIRST` to `VOTE_MARGIN` before its end,
#: most of them early (a triangle peaking at `VOTE_PEAK`): most players know their vote when
#: the discussion ends, some wait to hear the tally or decide late.
VOTE_FIRST, VOTE_PEAK, VOTE_MARGIN = 0.5, 2.0, 1.5


class VotePace:
    """The vote's clock as the seats share it (at a table, the wall clock): each seat's
    ballot waits for its drawn moment, and the earliest due scans first.  The moment is
    drawn from the same distribution for every seat, so it says nothing of a job."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self.due: dict[int, float] = {}

    def open(self) -> None:
        self.elapsed, self.due = 0.0, {}

    def plan(self, seat: int, at: float) -> None:
        self.due[seat] = max(at, self.elapsed)

    def drop(self, seat: int) -> None:
        self.due.pop(seat, None)

    def turn(self, seat: int) -> float | None:
        """The seconds until `seat`'s ballot if it is the next due (then it is spent), else None."""
        at = self.due.get(seat)
        if at is None or min(self.due.values()) < at or min(s for s, a in self.due.items() if a == at) != seat:
            return None
        del self.due[seat]
        dt = max(0.05, round(at - self.elapsed, 2))
        self.elapsed += dt
        return dt


class Mafia42Ear(EarBot):
    """One seat: `BotSeat`'s reasoning, fed only from what this seat hears."""

    def __init__(self, seat: int, players: int, teams: Mapping[str, str], jobs: Mapping[str, str],
                 rng: random.Random, pace: VotePace | None = None):
        self.seat = seat
        self.me = seat  # `seat` as the pace keys it (the base class allows None: the referee)
        self.pace = pace if pace is not None else VotePace()
        self.mind = BotSeat(seat, players, rng)
        self.players = players
        self.teams = teams  # the rulebook: which team a job plays for
        self.jobs = jobs  # a job's spoken name -> its catalogue key
        self.rng = rng
        self.todo: list[str] = []
        self.accused = 0
        self.last = 0  # the seat token scanned last
        self.retries = 0

    # -- hearing ------------------------------------------------------------------
    def _job(self, spoken: Any) -> str:
        return self.jobs.get(str(spoken), str(spoken))

    def hear(self, heard: Heard) -> None:
        key, params, mind = heard.key, dict(heard.params), self.mind
        mine = heard.to == f"seat:{self.seat}"
        seat = params.get("seat")
        if "job" in params:
            params["job"] = f"job:{self._job(params['job'])}"
        if mine and key in ("your-role", "you-play-as"):
            job = self._job(params["role"]) if key == "your-role" else str(params.get("job", "")).removeprefix("job:")
            mind.job = job
            mind.team = mind.team if key == "you-play-as" and mind.team else self.teams.get(job, "citizens")
        elif mine and key == "you-converted":
            mind.team = "cult"
        elif mine and key == "contact-made":
            mind.team = "mafia"
        elif mine and key == "hint-alive":
            alive = {s for s in params.get("seats", []) if isinstance(s, int)}
            mind.dead = set(range(1, self.players + 1)) - alive
        if key in ("died", "executed", "died-by-day") and isinstance(seat, int):
            mind.dead.add(seat)
        elif key == "revived" and isinstance(seat, int):
            mind.dead.discard(seat)
        if mine and key == "magic-fired":  # the speaker said "executed", but this magician plays on
            mind.dead.discard(self.seat)
            mind.job = params["job"].removeprefix("job:")
        mind.see({"type": "say", "to": heard.to, "key": key, "params": params})
        self._plan(key, mine, seat, params)

    def _plan(self, key: str, mine: bool, seat: Any, params: Mapping[str, Any]) -> None:
        if key in GAME_ENDS or self.seat in self.mind.dead or (mine and key == "you-are-out"):
            self.todo = []
            self.pace.drop(self.me)
            return
        if key == "scan-role":
            self.todo = ["card"]
        elif key == "night-start":
            self.todo, self.retries = ["night"], 0
        elif key == "discussion-start":
            self.todo = ["hint"] if self.rng.random() < 0.2 else []
        elif key == "vote-start":
            self.todo, self.retries = [], 0
            if not self.pace.due:  # the first seat to hear it: a new vote's clock
                self.pace.open()
            seconds = float(params.get("seconds") or 15)
            last = max(VOTE_FIRST, seconds - VOTE_MARGIN)
            self._ballot(self.rng.triangular(VOTE_FIRST, last, min(VOTE_PEAK, last)))
        elif key == "time-up":  # the phase is over: a ballot not yet cast stays uncast
            self.todo = [t for t in self.todo if t != "vote"]
            self.pace.drop(self.me)
        elif key == "accused" and isinstance(seat, int):
            self.accused = seat
        elif key == "approval-start":
            self.todo = [] if self.accused == self.seat else ["approve"]
        elif mine and key == "threatened" and "vote" not in self.todo:
            # Told at the vote's start, the seat still scans its ballot when it would have
            # (refused in its own earphone): a threatened seat left unscanned showed the
            # gangster's target to anyone watching.  This is the refusal itself.
            self.pace.drop(self.me)
        elif mine and key == "target-dead" and self.retries < 3:
            self.retries += 1
            self.mind.dead.add(self.last)
            self._ballot(self.pace.elapsed + SCAN_DT)

    def _ballot(self, at: float) -> None:
        """Choose the vote now (what the seat knows when the vote opens, as before) and
        cast it at `at` seconds into the vote; a seat with no vote to cast waits for nothing
        (a seat keeping the others waiting would leave the referee nobody to wait for)."""
        target = self.mind.vote()
        if target is None:
            self.pace.drop(self.me)
            return
        self.last = target
        self.todo.insert(0, "vote")
        self.pace.plan(self.me, at)

    # -- acting ---------------------------------------------------------------------
    def act(self, reach: Reach) -> dict[str, Any] | None:
        if self.todo[:1] == ["vote"]:  # the ballot waits for its moment
            dt = self.pace.turn(self.me)
            if dt is None:
                return None
            self.todo.pop(0)
            return {"reader": "hand", "tag": f"seat:{self.last}", "dt": dt}
        while self.todo:
            line = self._line(self.todo.pop(0), reach)
            if line is not None:
                return line
        return None

    def _line(self, what: str, reach: Reach) -> dict[str, Any] | None:
        mind = self.mind
        if what == "card":
            return {"reader": "hand", "piece": reach.card, "dt": 1.0} if reach.card is not None else None
        if what == "hint":
            return {"reader": "hand", "tag": "cmd:hint", "dt": SCAN_DT}
        if what == "night":
            target = mind.night_target()
            if target is None:
                return None
            self.last = target
            return {"reader": "hand", "tag": f"seat:{target}", "dt": SCAN_DT}
        if what == "approve":
            return {"reader": "hand", "tag": "cmd:yes" if mind.approve(self.accused) else "cmd:no", "dt": SCAN_DT}
        return None


#: The speaker's ear: once a phase has started and no seat has anything left to do, `next`.
REFEREE = Call("next", frozenset({"night-start", "morning-start", "discussion-start", "vote-start", "defence-start",
                                  "approval-start"}), frozenset(GAME_ENDS), dt=1.0)


def ear_simulation(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> EarTable:
    rng = random.Random(seed)
    opts = parse_options(players, options)
    catalogue = opts["catalogue"]
    book = Phrasebook("en", ("core", "mafia42"))
    jobs = {book.name(f"job:{j}"): j for j in catalogue.jobs}
    teams = {j: job.team for j, job in catalogue.jobs.items()}
    world = DealtCards("mafia42:job", list(opts["jobs"]), rng)
    pace = VotePace()
    seats = [Mafia42Ear(s, players, teams, jobs, random.Random(seed * 1000 + s), pace) for s in range(1, players + 1)]
    return EarTable("mafia42", world, [*seats, RefereeEar(REFEREE)])
