"""Bot games of Intrige: players who act only on what their ears tell them.

Each `Bot` hears the `say` events its seat may hear (the speaker and its own
earphone, `visible_to`) and nothing else: it follows the board from the
announcements (who was sent where, who was hired into which section, who
left), its own cash from its whispers, and what it is asked to do from the
calls.  If a bot cannot finish a game, something a player needs is not spoken.

`greedy` bots bribe more in a conflict, place the best payer in the best free
section, keep the best payer in a conflict, and send advisors where no
conflict waits and a good section is free; `random` bots choose uniformly
among what they believe is legal (and may tap beyond their cash).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.design.duel import focal_seat
from kikimimi.game import visible_to

from .editions import COPIES
from .options import edition_from_options
from .pieces import advisor_of, advisor_tag, section_tag

BOTS = ("greedy", "random", "mixed")
#: An expected-value bot (`EVBot`) in one seat, rotated with the seed, among greedy bots.
EV = "ev"
#: Every seat an expected-value bot.
EV_TABLE = "ev-table"
REFUSALS = {"not-in-garden", "settle-free-first", "conflict-order", "choose-advisor-first", "conflict-section",
            "section-taken", "not-in-hand", "not-own-garden", "different-mansion", "not-now", "not-your-offer",
            "no-offer-now"}


def _role(tag: str) -> str:
    return advisor_of(tag).role


class Bot:
    """One seat's player, with its own memory of the board as it was announced."""

    def __init__(self, seat: int, players: int, options: Mapping[str, Any], kind: str, rng: random.Random):
        self.seat, self.kind, self.rng = seat, kind, rng
        self.ed = edition_from_options(options)
        self.seats = list(range(1, players + 1))
        self.hand = [advisor_tag(seat, r, c) for r in self.ed.roles for c in range(1, COPIES + 1)]
        self.cash = self.ed.start_cash
        self.gardens: dict[int, list[str]] = {s: [] for s in self.seats}
        self.sections: dict[int, dict[int, str]] = {s: {} for s in self.seats}
        self.bribes: dict[str, int] = {}  # advisor -> what was offered for it this turn (heard)
        self.task: tuple[str, Any] | None = None  # ("offer", advisor) | ("place", role|None) | ("send", None)
        self.sent: list[int] = []
        self.plan: list[dict[str, Any]] = []
        self.over = False
        self.dial: tuple[int, int] | None = None  # hidden bribes: (start, the dial's top) in steps
        self.round = 1

    # -- hearing ----------------------------------------------------------------
    def hear(self, ev: Mapping[str, Any]) -> None:
        if ev.get("type") == "game-over":
            self.over = True
        if ev.get("type") != "say":
            return
        key, p = ev["key"], ev.get("params", {})
        mine = ev["to"] != "table"
        if key == "cash" and mine:
            self.cash = p["cash"]
        elif key == "round":
            self.round = int(p["round"])
        elif key == "turn":
            self.task, self.plan, self.sent, self.bribes = None, [], [], {}
        elif key == "dispatched":
            self.gardens[p["target"]].append(p["advisor"])
            if p["seat"] == self.seat:
                self.hand.remove(p["advisor"])
                self.sent.append(p["target"])
                self.task, self.plan = None, []
        elif key == "hired":
            self.gardens[p["owner"]].remove(p["advisor"])
            self.sections[p["owner"]][p["section"]] = p["advisor"]
            self._placed(p["owner"])
        elif key == "kept":
            self._placed(p["owner"])
        elif key == "dismissed":
            secs = self.sections[p["owner"]]
            held = [k for k, t in secs.items() if t == p["advisor"]]
            if held:
                del secs[held[0]]
            else:
                self.gardens[p["owner"]].remove(p["advisor"])
        elif key in ("offer-call", "offer-call-employed") and p["seat"] == self.seat:
            self.task, self.plan, self.dial = ("offer", p), [], None
        elif key == "offer-dial" and mine:  # hidden bribes: the dial's start, heard before acting
            self.dial = (p["amount"] // self.ed.step, p["top"] // self.ed.step)
        elif key in ("offer-made", "offer-nothing"):
            self.bribes[p["advisor"]] = p["amount"]
            if p["seat"] == self.seat:
                self.task, self.plan = None, []
        elif key == "offer-hidden" and p["seat"] == self.seat:
            self.task, self.plan = None, []
        elif key == "place-call" and p["owner"] == self.seat:
            self.task, self.plan = ("place", None), []
        elif key == "settle-conflict" and p["owner"] == self.seat:
            self.task, self.plan = ("place", p["role"]), []
        elif key in ("dispatch-call", "dispatch-again") and p["seat"] == self.seat:
            self.task, self.plan = ("send", None), []
        elif key == "offer-beyond-cash" and mine:
            self.plan = [self._line("cmd:ok")]
        elif key in REFUSALS and mine:
            self.plan = []

    def _placed(self, owner: int) -> None:
        if owner == self.seat:
            self.plan = []

    # -- acting -------------------------------------------------------------------
    def act(self) -> dict[str, Any] | None:
        if self.over or self.task is None:
            return None
        if not self.plan:
            self.plan = self._decide()
        return self.plan.pop(0) if self.plan else None

    def _line(self, tag: str, dt: float = 1.5) -> dict[str, Any]:
        return {"dt": dt, "reader": "hand", "seat": self.seat, "tag": tag}

    def _decide(self) -> list[dict[str, Any]]:
        assert self.task is not None
        what, detail = self.task
        extra = [self._line("cmd:hint", 0.5)] if self.kind == "random" and self.rng.random() < 0.03 else []
        if what == "offer":
            return extra + self._offer(detail)
        if what == "place":
            return extra + self._place(detail)
        return extra + self._send()

    def _taps(self, call: Mapping[str, Any]) -> int:
        """How many steps to offer for the advisor `call` asks about."""
        if self.kind == "random":
            return self.rng.randint(0, 3)  # may go beyond the cash: the table refuses the extra tap
        return min(self.cash // self.ed.step, self.rng.choice((2, 3, 4) if call.get("conflict") else (0, 1, 1, 2)))

    def _offer(self, call: Mapping[str, Any]) -> list[dict[str, Any]]:
        taps = self._taps(call)
        if self.dial is not None:  # turn the dial from where it starts to the amount wanted
            start, top = self.dial
            taps = (min(taps, top, self.cash // self.ed.step) - start) % (top + 1)
        return [self._line("cmd:bribe", 0.3) for _ in range(taps)] + [self._line("cmd:ok", 0.5)]

    def _place(self, conflict_role: str | None) -> list[dict[str, Any]]:
        mine, garden = self.sections[self.seat], self.gardens[self.seat]
        employed = {_role(t): (k, t) for k, t in mine.items()}
        counts: dict[str, int] = {}
        for t in garden:
            counts[_role(t)] = counts.get(_role(t), 0) + 1
        singles = [t for t in garden if counts[_role(t)] == 1 and _role(t) not in employed]
        free = [k for k in range(1, self.ed.sections + 1) if k not in mine]
        best_free = sorted(free, key=lambda k: (-self.ed.incomes[k - 1], -k))
        if singles:
            if self.kind == "random":
                tag, k = self.rng.choice(singles), self.rng.choice(free)
            else:
                tag = max(singles, key=lambda t: (self.bribes.get(t, 0), -garden.index(t)))
                k = best_free[0]
            return [self._line(tag), self._line(section_tag(k))]
        if conflict_role is None:
            return []
        rivals = [t for t in garden if _role(t) == conflict_role]
        home = employed.get(conflict_role)
        group = ([home[1]] if home else []) + rivals
        if self.kind == "random":
            tag = self.rng.choice(group)
        else:
            tag = max(group, key=lambda t: (self.bribes.get(t, 0), -group.index(t)))
        k = home[0] if home else (self.rng.choice(free) if self.kind == "random" else best_free[0])
        return [self._line(tag), self._line(section_tag(k))]

    def _send(self) -> list[dict[str, Any]]:
        targets = [s for s in self.seats if s != self.seat and s not in self.sent]
        if not self.hand or not targets:
            return []
        if self.kind == "random":
            tag, target = self.rng.choice(self.hand), self.rng.choice(targets)
        else:
            options = [(self._prospect(t, _role(tag)) + self.rng.random() * 1e-3, tag, t)
                       for tag in self.hand for t in targets]
            _, tag, target = max(options)
        return [self._line(tag), self._line(f"seat:{target}", 1.0)]

    def _prospect(self, target: int, role: str) -> float:
        secs = self.sections[target]
        return prospect(self.ed.incomes, {k: _role(t) for k, t in secs.items()},
                        [_role(t) for t in self.gardens[target]], role)


class EVBot(Bot):
    """A player who bribes and places by expected value, from what it heard.

    An advisor employed in a section earns its owner that section's income once
    a round for the rounds left, and once more at the end: that is what an offer
    can win.  In a conflict the mansion's owner keeps the best payer (as
    today's bots do), and keeps every bribe, won or lost: so it offers one step
    above the best offer heard, at least what a greedy rival may offer (four
    steps), and only while that costs under half of what winning earns; else
    nothing.  Without a conflict an offer buys at most the better of two free
    sections: one step, when the difference is worth over two.  As the owner
    it gives every newcomer the poorest free section: a section's income goes
    to a rival, and the rich sections left free draw more advisors, and their
    bribes, to its garden."""

    GREEDY_MOST = 4  # the most steps a greedy bot offers (Bot._taps)

    def __init__(self, seat: int, players: int, options: Mapping[str, Any], rng: random.Random):
        super().__init__(seat, players, options, "greedy", rng)

    def payouts(self) -> int:
        """Incomes an advisor placed now still earns (its owner's turns left, and the end)."""
        return max(1, self.ed.rounds - self.round + 1)

    def _taps(self, call: Mapping[str, Any]) -> int:
        owner, step = int(call["owner"]), self.ed.step
        held = self.sections[owner]
        free = sorted((self.ed.incomes[k - 1] for k in range(1, self.ed.sections + 1) if k not in held),
                      reverse=True)
        heard = max((a for t, a in self.bribes.items() if _role(t) == call.get("role")), default=0)
        most = self.cash // step
        if call.get("conflict"):
            home = next((k for k, t in held.items() if _role(t) == call.get("role")), None)
            income = self.ed.incomes[home - 1] if home else (free[0] if free else 0)
            worth = income * self.payouts()
            want = max(heard // step + 1, self.GREEDY_MOST)
            return want if want <= most and want * step < worth / 2 else 0
        gain = (free[0] - free[1]) * self.payouts() if len(free) > 1 else 0
        want = heard // step + 1
        return want if want <= most and want * step * 2 < gain else 0

    def _place(self, conflict_role: str | None) -> list[dict[str, Any]]:
        plan = super()._place(conflict_role)
        mine = self.sections[self.seat]
        if len(plan) == 2 and plan[1]["tag"] not in (section_tag(k) for k in mine):
            free = [k for k in range(1, self.ed.sections + 1) if k not in mine]
            poorest = min(free, key=lambda k: (self.ed.incomes[k - 1], k))
            plan[1] = self._line(section_tag(poorest))
        return plan


def prospect(incomes: Sequence[int], held: Mapping[int, str], waiting: Sequence[str], role: str) -> float:
    """What a newcomer of `role` may earn in a mansion whose sections hold `held` (section ->
    role) and whose garden holds `waiting` (roles): the best free section left after those
    already waiting, and nothing where an advisor of that role already is (a conflict)."""
    if role in held.values() or role in waiting:
        return -1.0
    free = sorted((incomes[k - 1] for k in range(1, len(incomes) + 1) if k not in held), reverse=True)
    return float(free[len(waiting)]) if len(waiting) < len(free) else 0.0


class IntrigueSimulation:
    """The table of one bot game: the bots take turns as the speaker calls them."""

    def __init__(self, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None):
        kind = "greedy" if bot in (None, EV, EV_TABLE) else bot
        if kind not in BOTS:
            raise ValueError(f"Intrige bots are {', '.join((*BOTS, EV, EV_TABLE))}, not {kind!r}")
        rng = random.Random(seed)
        self.kinds = {s: (("greedy", "random")[(s - 1) % 2] if kind == "mixed" else kind)
                      for s in range(1, players + 1)}
        self.bots = [Bot(s, players, options, self.kinds[s], random.Random(rng.random()))
                     for s in range(1, players + 1)]
        if bot == EV:  # the same seed deals the same game; one seat is played by the EV bot
            seat = focal_seat(seed, players)
            self.kinds[seat] = EV
            self.bots[seat - 1] = EVBot(seat, players, options, random.Random(self.bots[seat - 1].rng.random()))
        elif bot == EV_TABLE:
            self.kinds = {s: EV for s in self.kinds}
            self.bots = [EVBot(b.seat, players, options, random.Random(b.rng.random())) for b in self.bots]

    def next_input(self) -> dict[str, Any] | None:
        for bot in self.bots:
            line = bot.act()
            if line is not None:
                return line
        return {"console": "stop"}  # nobody was called: a bug, and the referee ends the game

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        for ev in events:
            for bot in self.bots:
                if visible_to(ev, bot.seat):
                    bot.hear(ev)
