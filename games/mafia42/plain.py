"""Today's マフィア42 bot (`--bot plain`): it knows only what its seat hears and never talks.

It keeps its own job, the partners and findings said into its earphone, and
the jobs made public; it votes for a mafioso it knows, else at random among
the seats it has not cleared.  The reasoning bots (`reasoning`) build on what
it keeps, and the ear bots (`ear`) reason with it from what they hear.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any


#: How often a bot sits a vote out: the same chance for every seat and every bot kind.
ABSTAIN = 0.15


class BotSeat:
    def __init__(self, seat: int, players: int, rng: random.Random):
        self.seat, self.players, self.rng = seat, players, rng
        self.job = ""
        self.team = ""
        self.mates: set[int] = set()  # known members of my own team
        self.mafia: set[int] = set()  # seats I know are mafia
        self.clear: set[int] = set()  # seats I know are not mafia
        self.checked: set[int] = set()
        self.dead: set[int] = set()
        self.sun = 0  # the moon learns the sun's seat
        self.aim = 0  # the mafia's current joint target
        self.silenced = False  # threatened: the vote just opened is not mine

    def see(self, ev: Mapping[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "job" and ev.get("seat") == self.seat:
            self.job, self.team = str(ev["job"]), str(ev["team"])
        elif kind == "death":
            self.dead.add(int(ev["seat"]))
        elif kind == "revived":
            self.dead.discard(int(ev["seat"]))
        elif kind == "say" and ev.get("to") == "table" and ev.get("key") in ("scoop", "politician-survives"):
            params = ev.get("params") or {}  # a job made public: everyone may use it
            seat = int(params["seat"])
            (self.mafia if params.get("job") == "job:mafia" else self.clear).add(seat)
        elif kind == "say" and ev.get("to") == f"seat:{self.seat}":
            key, params = ev.get("key"), ev.get("params") or {}
            if key in ("partners", "contact-made"):
                self.mates |= {s for s in params.get("seats", []) if isinstance(s, int)}
            elif key in ("helper-joined", "you-converted"):
                self.mates.add(int(params["seat"]))
            elif key == "police-mafia":
                self.mafia.add(int(params["seat"]))
                self.checked.add(int(params["seat"]))
            elif key == "police-not-mafia":
                self.clear.add(int(params["seat"]))
                self.checked.add(int(params["seat"]))
            elif key == "job-of":
                self.checked.add(int(params["seat"]))
                (self.mafia if params.get("job") == "job:mafia" else self.clear).add(int(params["seat"]))
            elif key == "sun-is":
                self.sun = int(params["seat"])
            elif key == "mafia-aim":
                self.aim = int(params["seat"])
            elif key == "threatened":  # told at the vote's start: no vote today
                self.silenced = True

    def living(self, *, others: bool = True) -> list[int]:
        return [s for s in range(1, self.players + 1) if s not in self.dead and (not others or s != self.seat)]

    def night_target(self) -> int:
        rng, others = self.rng, self.living()
        if not others:
            return self.seat
        strangers = [s for s in others if s not in self.mates] or others
        unknown = [s for s in strangers if s not in self.checked] or strangers
        job = self.job
        if job == "mafia":
            return self.aim if self.aim in strangers and rng.random() < 0.7 else rng.choice(strangers)
        if job in ("police", "spy", "cult-leader", "society", "reporter"):
            if job == "society" and self.sun:
                return self.sun
            return rng.choice(unknown)
        if job == "doctor":
            return rng.choice(self.living(others=False))
        if job in ("medium", "clergy"):
            dead = sorted(self.dead - {self.seat})
            return rng.choice(dead) if dead else rng.choice(others)
        if job == "mercenary":
            known = [s for s in self.mafia if s not in self.dead]
            return known[0] if known else self.seat
        return rng.choice(strangers)

    def abstains(self) -> bool:
        """Whether this seat sits the vote out: one draw, first, by the same rule for every
        seat whatever its team or what it knows (a rule that spared the mafia made
        a non-voter "not mafia" to anyone watching who scanned)."""
        return self.rng.random() < ABSTAIN

    def vote(self) -> int | None:
        others = self.living()
        if not others or self.abstains():
            return None
        return self.choose_vote(others)

    def choose_vote(self, others: list[int]) -> int:
        """The seat this bot votes for, having chosen to vote."""
        if self.team == "mafia":
            strangers = [s for s in others if s not in self.mates] or others
            return self.rng.choice(strangers)
        known = sorted(s for s in self.mafia if s not in self.dead)
        if known:
            return known[0]
        pool = [s for s in others if s not in self.clear and s not in self.mates] or others
        return self.rng.choice(pool)

    def approve(self, accused: int) -> bool:
        if accused in self.mates:
            return False
        if self.team == "mafia" or accused in self.mafia:
            return True
        if accused in self.clear:
            return False
        return self.rng.random() < 0.6
