"""The physical table of `kikimimi sim mafia42` and the bots at it.

Each bot knows only what its seat hears: its own `job` event and the
phrases said into its earphone (partners, findings, the mafia's aim), plus
the public events and, for the reasoning bots (`--bot reason`, the default),
the table talk.  The table side shuffles the deck, has each seat scan its
card, and lets the clock run: when nobody has anything to do, it lifts a
token off a reader (an input the game ignores) at the phase's end, so every
phase ends on its real timer.  A phase's end is counted from when its
announcement has been heard (the public `phase-clock` event), as the game counts it.

The talk happens when the discussion opens: the living speak in turn (from
the seat after the day's number, so nobody always speaks first), first their
role and finding claims, then, in a second round, the vote each names.  It
goes on the public board (`talk.Board`), never into the game's inputs; the
recorded script keeps it in its header (`transcript`), so a game can be
re-read beside its log.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kikimimi.game import deliver

from .jobs import default_catalogue
from .options import parse_options
from .plain import BotSeat
from .reasoning import Reasoning, ReasonSeat, Style
from .suspicion import Facts
from .talk import Board

#: The bot kinds the report plays beside each other by default; the first is the default bot.
BOTS = ("reason", "plain")
#: Every kind: also the reasoning bots with the cult and the helpers out of contact playing as
#: today's bots (`Style.own_sides`), to measure what their own reasoning changes.
KINDS = BOTS + ("reason-core",)
#: Days with no death, return, conversion or contact after which the referee stops the game
#: (void): a stalemate the rules give no end to (docs/bots.md, "Void games").
STALEMATE_DAYS = 30


#: Seconds the table waits, with nothing to do, for a phase's announcement to be heard (its
#: limit counts from then: `phase-clock`), so the referee's `next` never comes before it.
HEARING_STEP = 0.5

#: The events that change a game's course (the referee's view: some are private to seats).
CHANGES = frozenset({"death", "revived", "converted", "contact"})


class Mafia42Simulation:
    def __init__(self, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None,
                 style: Style | None = None):
        if bot not in (None, *KINDS):
            raise ValueError(f"mafia42 bots are {', '.join(KINDS)}, not {bot!r}")
        opts = parse_options(players, options)
        self.players = players
        self.rng = random.Random(seed)
        self.talk = Board()
        helpers = [n for n, j in default_catalogue().jobs.items() if j.helper]
        self.facts = Facts.of_deck(players, opts["jobs"], helpers, self.talk)
        self.reasoning = Reasoning(self.facts)
        self.kind = bot or BOTS[0]
        if self.kind == "reason-core":
            self.kind, style = "reason", replace(style or Style(), own_sides=False)
        self.bots: dict[int, BotSeat] = {
            s: (ReasonSeat(s, players, random.Random(seed * 1000 + s), self.reasoning, style)
                if self.kind == "reason" else BotSeat(s, players, random.Random(seed * 1000 + s)))
            for s in range(1, players + 1)}
        self.day = 0
        self.queue: deque[dict[str, Any]] = deque()
        self.clock = 0.0
        self.deadline = 0.0
        self.counting = False  # the phase's limit counts (its announcement has been heard)
        self.accused = 0
        self.phase = "dealing"
        self.changed = 0  # the last day a seat died, came back, was converted or made contact
        deck = list(opts["jobs"])
        self.rng.shuffle(deck)
        seen: dict[str, int] = {}
        for s, job in enumerate(deck, 1):
            seen[job] = seen.get(job, 0) + 1
            self.queue.append({"reader": "hand", "seat": s, "tag": f"mafia42:job-{job}-{seen[job]}", "dt": 1.0})

    def next_input(self) -> dict[str, Any] | None:
        if self.phase == "discussion" and self.day - self.changed > STALEMATE_DAYS:
            line: dict[str, Any] = {"console": "stop", "dt": 0.01}  # the referee ends a stalemate (void)
        elif self.queue:
            line = self.queue.popleft()
        elif not self.counting:  # the phase's announcement still plays: its clock has not started
            line = {"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True, "dt": HEARING_STEP}
        elif self.phase in ("night", "approval"):
            # the phases that may end the game: the referee closes them a moment
            # before their timer, so no table line ever follows the game's end
            line = {"console": "next", "dt": round(max(0.01, self.deadline - 0.01 - self.clock), 3)}
        else:  # nothing to do: lift a token off a reader as the phase's timer runs out
            line = {"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True,
                    "dt": round(max(0.05, self.deadline + 0.05 - self.clock), 3)}
        self.clock = round(self.clock + float(line.get("dt", 1.0)), 3)
        return line

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.changed = max([self.changed] + [self.day for ev in events if ev["type"] in CHANGES])
        for ev in deliver(events, self.bots):
            self.facts.see(ev)
            kind = ev["type"]
            if kind == "phase":
                self.day = int(ev.get("day") or self.day)
            if kind == "phase" and "seconds" in ev:
                self.counting = False  # until its announcement has been heard (`phase-clock`)
                self.deadline = float(ev["t"]) + float(ev["seconds"])
                self._phase(str(ev["phase"]))
            elif kind == "phase-clock":  # public: everyone hears the announcement end
                self.counting = True
                self.deadline = float(ev["t"]) + float(ev["seconds"])
            elif kind == "accused" and ev.get("seat"):
                self.accused = int(ev["seat"])
            elif kind == "say" and ev.get("key") in ("extended", "shortened"):
                self.deadline = float(ev["t"]) + float(ev["params"]["left"])
        self._drop_votes()

    def _drop_votes(self) -> None:
        """A seat told it is threatened still scans the ballot it was about to (refused in its
        own earphone): left unscanned, it showed the gangster's target to anyone watching
        who scanned (the same motions whatever the role or a night act's result)."""
        for bot in self.bots.values():
            bot.silenced = False

    def _living(self) -> list[int]:
        return [s for s, b in self.bots.items() if s not in b.dead]

    def _scan(self, seat: int, tag: str) -> None:
        # twelve scans of at most 0.6 s fit in the shortest phase (approval, 10 s)
        self.queue.append({"reader": "hand", "seat": seat, "tag": tag, "dt": round(self.rng.uniform(0.1, 0.6), 3)})

    def _phase(self, phase: str) -> None:
        self.phase = phase
        living = self._living()
        order = list(living)
        self.rng.shuffle(order)
        if phase == "night":
            for s in order:
                self._scan(s, f"seat:{self.bots[s].night_target()}")
        elif phase == "discussion":
            self._discuss(living)
            if order and self.rng.random() < 0.3:
                self._scan(order[0], self.rng.choice(["cmd:extend", "cmd:shorten"]))
            if order and self.rng.random() < 0.2:
                self._scan(order[-1], "cmd:hint")
        elif phase == "vote":
            for s in order:
                target = self.bots[s].vote()
                if target is not None:
                    self._scan(s, f"seat:{target}")
        elif phase == "approval":
            for s in order:
                if s != self.accused:
                    self._scan(s, "cmd:yes" if self.bots[s].approve(self.accused) else "cmd:no")

    def transcript(self) -> list[dict[str, Any]]:
        """The table talk as said (time, day, seat, claim line): `kikimimi.design.sim.play` keeps it in
        the recorded script's header, so a bot game can be re-read beside its log."""
        return [dict(line) for line in self.talk.lines]

    def _discuss(self, living: list[int]) -> None:
        """The table talk: claims in turn, then the votes named in turn (reasoning bots only)."""
        if self.kind != "reason" or not living:
            return
        first = self.day % len(living)
        turn = living[first:] + living[:first]
        for s in turn:
            self.talk.say(s, self.day, self.bots[s].speak(self.day), self.clock)  # type: ignore[attr-defined]
        for s in turn:
            claim = self.bots[s].intend(self.day)  # type: ignore[attr-defined]
            if claim is not None:
                self.talk.say(s, self.day, [claim], self.clock)
