"""Ear-only bots for イントリーゲ (`kikimimi sim intrigue --bot ear`, docs/ear.md).

Each seat hears only the speaker and its own earphone, with parameters as
spoken: an advisor is "seat 1's law advisor" (the two copies sound the same),
never its tag.  The physical table (`IntrigueWorld`) keeps the advisors where
the events put them and lets a seat touch only its own hand, its own garden
and its own mansion's sections, as opaque handles; seat tokens, section tokens
and command tags are labelled, so anyone may name them.

A bot learns what a piece is the way a blind player does: it scans it, and the
earphone names it ("Your law advisor", "Seat 3's finance advisor").  It
follows the board from the announcements, its cash from its whispers, and
acts only when the speaker calls it: an offer, the placing, a dispatch.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kikimimi.game import EarBot, EarTable, Handles, Heard

from .bots import prospect
from .editions import COPIES
from .options import edition_from_options
from .pieces import advisor_tag, section_tag

Who = tuple[int, str]  # an advisor as heard: its owner's seat and its role


@dataclass(frozen=True)
class Reach:
    """What a seat can touch: its hand, its garden and its mansion's sections (handles)."""

    hand: tuple[int, ...]
    garden: tuple[int, ...]
    sections: Mapping[int, int] = field(default_factory=dict)


class IntrigueWorld:
    """Where each advisor lies; physics only (it follows the events, it never decides)."""

    def __init__(self, players: int, options: Mapping[str, Any], rng: random.Random):
        ed = edition_from_options(options)
        tags = [advisor_tag(s, r, c) for s in range(1, players + 1) for r in ed.roles for c in range(1, COPIES + 1)]
        self.handles = Handles(tags, rng)
        self.place: dict[str, tuple[str, int, int]] = {t: ("hand", int(t.split("-")[1]), 0) for t in tags}
        self.over = False

    def follow(self, ev: Mapping[str, Any]) -> None:
        kind = ev.get("type")
        if kind == "dispatch":
            self.place[ev["advisor"]] = ("garden", ev["target"], 0)
        elif kind == "hire":
            self.place[ev["advisor"]] = ("section", ev["owner"], ev["section"])
        elif kind == "dismiss":
            self.place[ev["advisor"]] = ("out", 0, 0)
        elif kind == "game-over":
            self.over = True

    def reach(self, seat: int | None) -> Reach:
        if seat is None:
            return Reach((), ())
        # in the handles' order (shuffled per game), as pieces lie on a table: never by their
        # owner's seat, or "the first piece in the garden" is always seat 1's (a chair bias)
        mine = sorted(((p, self.handles.of(t)) for t, p in self.place.items()), key=lambda x: x[1])
        return Reach(tuple(h for p, h in mine if p[:2] == ("hand", seat)),
                     tuple(h for p, h in mine if p[:2] == ("garden", seat)),
                     {p[2]: h for p, h in mine if p[:2] == ("section", seat)})

    def tag_for(self, seat: int | None, handle: int) -> str | None:
        tag = self.handles.tag(handle)
        if seat is None or tag is None:
            return None
        kind, where, _ = self.place[tag]
        return tag if kind in ("hand", "garden", "section") and where == seat else None

    def public_tag(self, tag: str) -> bool:
        return tag.startswith(("seat:", "cmd:", "intrigue:section-"))


class IntrigueEar(EarBot):
    """One seat: remembers the board as announced, acts when called."""

    seat: int  # a seat's player, never the table-side actor

    def __init__(self, seat: int, players: int, options: Mapping[str, Any], rng: random.Random):
        self.seat, self.rng = seat, rng
        self.ed = edition_from_options(options)
        self.others = [s for s in range(1, players + 1) if s != seat]
        self.cash = self.ed.start_cash
        self.gardens: dict[int, list[Who]] = {s: [] for s in range(1, players + 1)}
        self.sections: dict[int, dict[int, Who]] = {s: {} for s in range(1, players + 1)}
        self.bribes: dict[Who, int] = {}
        self.known: dict[int, Who] = {}  # handle -> what its scan said
        self.scanned: int | None = None
        self.chosen: Who | None = None
        self.todo: list[dict[str, Any]] = []
        self.task: str | None = None  # "offer", "place", "send"
        self.conflict: tuple[str, bool] | None = None
        self.sent: list[int] = []
        self.tried: set[int] = set()

    # -- hearing -----------------------------------------------------------------
    def hear(self, heard: Heard) -> None:
        p, key = heard.params, heard.key
        mine = heard.to == f"seat:{self.seat}"
        if key == "cash" and mine:
            self.cash = p["cash"]
        elif key == "turn":
            self.task, self.todo, self.sent, self.bribes, self.tried = None, [], [], {}, set()
        elif key == "dispatched":
            self.gardens[p["target"]].append((p["seat"], p["role"]))
            if p["seat"] == self.seat:
                self.sent.append(p["target"])
                self.task = None
        elif key in ("hired", "kept"):
            who = (p["seat"], p["role"])
            if who in self.gardens[p["owner"]]:
                self.gardens[p["owner"]].remove(who)
            self.sections[p["owner"]][p["section"]] = who
            self.tried, self.chosen = set(), None
        elif key == "dismissed":
            who = (p["seat"], p["role"])
            if who in self.gardens[p["owner"]]:
                self.gardens[p["owner"]].remove(who)
            else:
                held = [k for k, w in self.sections[p["owner"]].items() if w == who]
                for k in held[:1]:
                    del self.sections[p["owner"]][k]
        elif key in ("offer-call", "offer-call-employed") and p["seat"] == self.seat:
            self.task, self.todo = "offer", self._offer(bool(p["conflict"]))
        elif key == "offer-dial" and mine:  # hidden bribes: turn the dial from its start to the amount
            step = self.ed.step
            start, top = p["amount"] // step, p["top"] // step  # the dial wraps at its top, not at the cash
            want = min(top, self.cash // step, sum(1 for line in self.todo if line["tag"] == "cmd:bribe"))
            self.todo = self._taps((want - start) % (top + 1))
        elif key in ("offer-made", "offer-nothing"):
            self.bribes[(p["seat"], p["role"])] = p["amount"]
        elif key == "place-call" and p["owner"] == self.seat:
            self.task, self.conflict = "place", None
        elif key == "settle-conflict" and p["owner"] == self.seat:
            self.task, self.conflict, self.tried = "place", (p["role"], True), set()
        elif key in ("dispatch-call", "dispatch-again") and p["seat"] == self.seat:
            self.task, self.chosen = "send", None
        elif key in ("send-chosen", "place-chosen") and mine and self.scanned is not None:
            self.chosen = self.known[self.scanned] = (p["seat"], p["role"])
        elif key == "offer-beyond-cash" and mine:
            self.todo = [{"reader": "hand", "tag": "cmd:ok"}]
        elif key in ("settle-free-first", "conflict-order", "not-in-garden", "conflict-section",
                     "section-taken") and mine:
            self.chosen = None
        elif key == "game-over-end":
            self.task = None

    # -- acting --------------------------------------------------------------------
    def act(self, reach: Reach) -> dict[str, Any] | None:
        if self.todo:
            return self.todo.pop(0)
        if self.task == "place":
            return self._place(reach)
        if self.task == "send":
            return self._send(reach)
        return None

    def _offer(self, conflict: bool) -> list[dict[str, Any]]:
        return self._taps(min(self.cash // self.ed.step, self.rng.choice((2, 3) if conflict else (0, 1, 1))))

    @staticmethod
    def _taps(taps: int) -> list[dict[str, Any]]:
        return [{"reader": "hand", "tag": "cmd:bribe", "dt": 0.3}] * taps + [{"reader": "hand", "tag": "cmd:ok"}]

    def _scan(self, handle: int) -> dict[str, Any]:
        self.scanned = handle
        self.tried.add(handle)
        return {"reader": "hand", "piece": handle}

    def _place(self, reach: Reach) -> dict[str, Any] | None:
        mine = self.sections[self.seat]
        free = sorted((k for k in range(1, self.ed.sections + 1) if k not in mine),
                      key=lambda k: (-self.ed.incomes[k - 1], -k))
        if self.chosen is None:
            if self.conflict is not None:  # keep the best payer of the role in conflict
                role = self.conflict[0]
                rivals = [w for w in [*self.gardens[self.seat], *mine.values()] if w[1] == role]
                best = max(rivals, key=lambda w: self.bribes.get(w, 0), default=None)
                held = next((k for k, w in mine.items() if w == best), None)
                if held is not None and held in reach.sections:
                    return self._scan(reach.sections[held])
                known = [h for h in reach.garden if self.known.get(h) == best and h not in self.tried]
                untried = [h for h in reach.garden if h not in self.tried]
                pick = known or untried or list(reach.garden)
                return self._scan(pick[0]) if pick else None
            untried = [h for h in reach.garden if h not in self.tried]
            return self._scan(untried[0]) if untried else None
        if self.conflict is not None:  # not the best payer yet: look further while pieces are untried
            role = self.conflict[0]
            rivals = [w for w in [*self.gardens[self.seat], *mine.values()] if w[1] == role]
            best = max(rivals, key=lambda w: self.bribes.get(w, 0), default=None)
            untried = [h for h in reach.garden if h not in self.tried]
            if self.chosen != best and best not in mine.values() and untried:
                return self._scan(untried[0])
        who = self.chosen
        home = next((k for k, w in mine.items() if w[1] == who[1]), None)
        k = home if home is not None else (free[0] if free else None)
        return {"reader": "hand", "tag": section_tag(k)} if k is not None else None

    def _send(self, reach: Reach) -> dict[str, Any] | None:
        targets = [s for s in self.others if s not in self.sent]
        if self.chosen is None:
            return self._scan(self.rng.choice(reach.hand)) if reach.hand and targets else None
        role = self.chosen[1]
        target = max(targets, key=lambda t: (self._prospect(t, role), self.rng.random()))
        self.chosen = None
        return {"reader": "hand", "tag": f"seat:{target}", "dt": 1.0}

    def _prospect(self, target: int, role: str) -> float:
        held = {k: w[1] for k, w in self.sections[target].items()}
        return prospect(self.ed.incomes, held, [w[1] for w in self.gardens[target]], role)


def ear_simulation(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> EarTable:
    rng = random.Random(seed)
    world = IntrigueWorld(players, options, rng)
    seats = [IntrigueEar(s, players, options, random.Random(seed * 1000 + s)) for s in range(1, players + 1)]
    return EarTable("intrigue", world, seats)
