"""Who may be a mafioso: マフィア42's worlds, weighed by what the table knows.

A world here is the set of mafiosi proper (the deck's "mafia" cards; the
header lists the deck, so their number is public) and which police claimant,
if any, is the real police.  Every other job is an unknown citizen to this
model: the helpers (they read "not mafia" and may lie for a team they may not
know yet), the cult, and the specials whose acts leave no public trace.  That
is deliberate: the mafia set decides the game's arithmetic, and with at most
three mafiosi in twelve seats the worlds are few enough (220 sets times the
claimants) to count exactly, so no sampling and no seed enter the reasoning.

`Facts` are public: deaths, the morning's announcements, revealed jobs, and
the table talk (`talk.Board`).  A seat's own secrets never enter them; a bot
narrows the public worlds with its own (`Posterior`), so two seats that know
the same public facts and different secrets share the public weighing.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .talk import Board

#: The police variable of a world where the real police has not claimed.
SILENT = 0


@dataclass(frozen=True)
class Odds:
    """How likely each way of speaking is, per world (the bots' model of each other)."""

    fake_police: float = 0.6  # a mafioso claims police
    helper_lie: float = 0.1  # a helper (not a mafioso) claims police
    silent_police: float = 0.35  # the real police has not claimed (yet)
    frog_reading: float = 0.02  # the police read a cursed mafioso as "not mafia"
    bus: float = 0.35  # a mafioso says it will vote for a mafioso
    mercenary_shot: float = 0.05  # a night death was the mercenary's shot at a mafioso
    medium_lie: float = 0.05  # a medium claimant outside the mafia lies about the dead


@dataclass
class Facts:
    """What every seat at the table knows: the deck's counts, deaths, announcements, the talk."""

    players: int
    mafia: int
    helpers: int
    police: bool
    mercenary: bool
    talk: Board
    dead: set[int] = field(default_factory=set)
    night_dead: set[int] = field(default_factory=set)  # shot at night (the mafia's aim, as a rule)
    saved: set[int] = field(default_factory=set)  # the mafia's shot missed them: not a mafioso
    jobs: dict[int, str] = field(default_factory=dict)  # jobs made public (scoop, politician, judge)
    day: int = 0
    version: int = 0
    helper_jobs: frozenset[str] = frozenset()  # the catalogue's helpers: a seat revealed as one is the mafia's
    spared: dict[int, frozenset[int]] = field(default_factory=dict)  # seat spared -> who was dead then
    tie: frozenset[int] | None = None  # the last vote tied: who was dead then

    def stalled(self) -> bool:
        """The last vote tied and nobody has died or come back since: the same votes would tie
        again, so a seat that named the same seat as then should think again."""
        return self.tie is not None and self.tie == frozenset(self.dead)

    def futile(self) -> set[int]:
        """Living seats the approval spared with the same seats dead as now: voting them again
        would meet the same approval (a revealed judge's, a cult's that shields its own)."""
        gone = frozenset(self.dead)
        return {s for s, then in self.spared.items() if then == gone and s not in self.dead}

    def revealed_helpers(self) -> list[int]:
        """Living seats whose job was made public as a helper's (the mafia's team, not mafiosi)."""
        return sorted(s for s, job in self.jobs.items() if job in self.helper_jobs and s not in self.dead)

    @classmethod
    def of_deck(cls, players: int, deck: Iterable[str], helpers: Iterable[str], talk: Board) -> Facts:
        cards = list(deck)
        helper_names = set(helpers)
        return cls(players, cards.count("mafia"), sum(1 for j in cards if j in helper_names),
                   "police" in cards, "mercenary" in cards, talk, helper_jobs=frozenset(helper_names))

    def see(self, ev: Mapping[str, Any]) -> None:
        """One public event."""
        kind = ev.get("type")
        if kind == "phase":
            self.day = int(ev.get("day") or 0)
            return
        if kind == "accused":  # changes no world: the weighing's version stays
            self.tie = frozenset(self.dead) if ev.get("seat") is None else None
            return
        if kind == "death":
            seat = int(ev["seat"])
            self.dead.add(seat)
            if ev.get("when") == "night":
                self.night_dead.add(seat)
        elif kind == "revived":
            self.dead.discard(int(ev["seat"]))
        elif kind == "say" and ev.get("to") == "table":
            key, params = ev.get("key"), ev.get("params") or {}
            if key == "saved":
                self.saved.add(int(params["seat"]))
            elif key == "scoop":
                self.jobs[int(params["seat"])] = str(params["job"]).removeprefix("job:")
            elif key == "politician-survives":
                self.jobs[int(params["seat"])] = "politician"
            elif key == "judge-revealed":
                self.jobs[int(params["seat"])] = "judge"
            elif key == "spared":  # changes no world: the weighing's version stays
                self.spared[int(params["seat"])] = frozenset(self.dead)
                return
            else:
                return
        else:
            return
        self.version += 1

    def key(self) -> tuple[int, int, int]:
        """What the public weighing depends on: the facts, the claims, and the day (the vote
        intentions weighed are those of the days before: today's are still being said)."""
        return self.version, self.talk.said, self.day

    def alive(self) -> list[int]:
        return [s for s in range(1, self.players + 1) if s not in self.dead]


@dataclass(frozen=True)
class World:
    mafia: int  # bit s set: seat s is a mafioso
    police: int  # the claimant who is the real police, or SILENT
    weight: float
    members: tuple[int, ...] = ()  # the mafia's seats (the bits of `mafia`)


def weigh(facts: Facts, odds: Odds) -> list[World]:
    """Every mafia set and police claimant with its public weight (zero-weight worlds left out)."""
    claims = facts.talk.roles()
    police_claimants = sorted(s for s, role in claims.items() if role == "police")
    medium_claimants = sorted(s for s, role in claims.items() if role == "medium")
    findings = facts.talk.findings()
    intents = [(s, x) for s, x in facts.talk.intentions(before=facts.day) if s != x]
    must_in = must_out = 0
    for seat, job in facts.jobs.items():
        if job == "mafia":
            must_in |= 1 << seat
        else:
            must_out |= 1 << seat
    for seat in facts.saved:
        must_out |= 1 << seat
    shot = 0
    for seat in facts.night_dead:
        shot |= 1 << seat
    pairs = [(1 << s) | (1 << x) for s, x in intents]
    medium = [(1 << c, [(1 << t, is_mafia) for t, is_mafia in findings.get(c, ())]) for c in medium_claimants]
    police = [(c, 1 << c, [(1 << t, is_mafia) for t, is_mafia in findings.get(c, ())]) for c in police_claimants]
    options = [SILENT, *police_claimants] if facts.police else [SILENT]
    out: list[World] = []
    for m, members in _sets(facts.players, facts.mafia):
        if m & must_out or (must_in & ~m):
            continue
        base = 1.0
        if m & shot:
            if not facts.mercenary:
                continue
            base *= odds.mercenary_shot ** bin(m & shot).count("1")
        buses = sum(1 for pm in pairs if m & pm == pm)  # a mafioso rarely names a mate as its vote
        if buses:
            base *= odds.bus ** buses
        for bit, said in medium:
            if not m & bit:
                for tbit, is_mafia in said:
                    if bool(m & tbit) != is_mafia:
                        base *= odds.medium_lie
        for real in options:
            w = base * (odds.silent_police if real == SILENT and facts.police else 1.0)
            if real != SILENT and m >> real & 1:
                continue
            liars = 0
            for c, bit, said in police:
                if c == real:
                    for tbit, is_mafia in said:
                        if bool(m & tbit) != is_mafia:  # the police read a frog "not mafia", nothing else
                            w *= 0.0 if is_mafia else odds.frog_reading
                elif m & bit:
                    w *= odds.fake_police
                else:
                    liars += 1
                    w *= odds.helper_lie
            if w and liars <= facts.helpers:
                out.append(World(m, real, w, members))
    return out


@functools.lru_cache(maxsize=64)
def _sets(players: int, mafia: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every set of `mafia` seats of `players`, as a bit mask and as seats."""
    return tuple((sum(1 << s for s in c), c) for c in combinations(range(1, players + 1), mafia))


class Posterior:
    """One seat's view: the public worlds narrowed by what this seat knows for sure."""

    def __init__(self, worlds: list[World], players: int, *, mafia: Iterable[int] = (),
                 clear: Iterable[int] = (), police: int | None = None, not_police: Iterable[int] = ()):
        need = sum(1 << s for s in mafia)
        never = sum(1 << s for s in clear)
        barred = set(not_police)
        kept = [w for w in worlds if not (w.mafia & never) and not (need & ~w.mafia)
                and (police is None or w.police in (police, SILENT)) and w.police not in barred]
        if not kept:  # what it knows contradicts the model (an unmodelled job lied): trust itself
            kept = [w for w in worlds if not (w.mafia & never)] or worlds
        total = sum(w.weight for w in kept) or 1.0
        seen = [0.0] * (players + 1)
        self.police = [0.0] * (players + 1)
        for w in kept:
            for s in w.members:
                seen[s] += w.weight
            if w.police:
                self.police[w.police] += w.weight / total
        self.mafia = [x / total for x in seen]

    def most_suspect(self, seats: Iterable[int]) -> list[int]:
        """Seats by how likely each is a mafioso, most likely first (ties by seat)."""
        return sorted(seats, key=lambda s: (-round(self.mafia[s], 9), s))
