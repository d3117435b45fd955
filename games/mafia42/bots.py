"""Bot seats and the physical table for `kikimimi sim mafia42`.

Each bot knows only what its seat hears: its own `job` event and the
phrases said into its earphone (partners, findings, the mafia's aim), plus
the public events.  The table side shuffles the deck, has each seat scan its
card, and lets the clock run: when nobody has anything to do, it lifts a
token off a reader (an input the game ignores) at the phase's end, so every
phase ends on its real timer.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.bot_seats import deliver

from .options import parse_options

BOTS = ("plain",)


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

    def vote(self) -> int | None:
        others = self.living()
        if not others:
            return None
        if self.team == "mafia":
            strangers = [s for s in others if s not in self.mates] or others
            return self.rng.choice(strangers)
        known = sorted(s for s in self.mafia if s not in self.dead)
        if known:
            return known[0]
        if self.rng.random() < 0.15:
            return None
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


class Mafia42Simulation:
    def __init__(self, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None):
        if bot not in (None, *BOTS):
            raise ValueError(f"mafia42 bots are {', '.join(BOTS)}, not {bot!r}")
        opts = parse_options(players, options)
        self.players = players
        self.rng = random.Random(seed)
        self.bots = {s: BotSeat(s, players, random.Random(seed * 1000 + s)) for s in range(1, players + 1)}
        self.queue: deque[dict[str, Any]] = deque()
        self.clock = 0.0
        self.deadline = 0.0
        self.accused = 0
        self.phase = "dealing"
        deck = list(opts["jobs"])
        self.rng.shuffle(deck)
        seen: dict[str, int] = {}
        for s, job in enumerate(deck, 1):
            seen[job] = seen.get(job, 0) + 1
            self.queue.append({"reader": "hand", "seat": s, "tag": f"mafia42:job-{job}-{seen[job]}", "dt": 1.0})

    def next_input(self) -> dict[str, Any] | None:
        if self.queue:
            line = self.queue.popleft()
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
        for ev in deliver(events, self.bots):
            kind = ev["type"]
            if kind == "phase" and "seconds" in ev:
                self.deadline = float(ev["t"]) + float(ev["seconds"])
                self._phase(str(ev["phase"]))
            elif kind == "accused" and ev.get("seat"):
                self.accused = int(ev["seat"])
            elif kind == "say" and ev.get("key") in ("extended", "shortened"):
                self.deadline = float(ev["t"]) + float(ev["params"]["left"])
        self._drop_votes()

    def _drop_votes(self) -> None:
        """A seat told it is threatened leaves the vote it was about to scan."""
        silent = {s for s, bot in self.bots.items() if bot.silenced}
        for bot in self.bots.values():
            bot.silenced = False
        if silent:
            self.queue = deque(line for line in self.queue
                               if not (line.get("seat") in silent and str(line.get("tag", "")).startswith("seat:")))

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
