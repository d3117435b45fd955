"""Ear-only bots for 闇に笑う魔女 (`kikimimi sim witch --bot ear`, docs/ear.md).

Each seat hears only the speaker and its own earphone, with parameters as
spoken, and reasons with the same `BotSeat` as the event bots.  The physical
table (`kikimimi.roles.ear.DealtCards`) deals one face-down role card to each seat (a handle:
the card's name is unknown until scanned); seat tokens and command tags are
labelled, so anyone may name them.  A seat acts on what the speaker calls
for: its card at the deal, OK the day before, its power and its speech by
day, its ballot when the vote is called or a revote is asked, its scan at
night.  The referee (the speaker's ear only) calls the vote with `next`
when nobody has anything left to say.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kikimimi.game import Call, EarBot, EarTable, Heard, RefereeEar
from kikimimi.roles.ear import DealtCards, Reach

from .bots import BotSeat
from .options import OPTIONS


class WitchEar(EarBot):
    """One seat: `BotSeat`'s reasoning, and a list of what the speaker has asked of it."""

    def __init__(self, seat: int, players: int, rng: random.Random, day_acts: str = "together"):
        self.seat = seat
        #: `day_acts` together or acts: the powers wait for the vote's call, where every seat acts.
        self.together = day_acts in ("together", "acts")
        #: `day_acts` together: silence and ballots too are made only at calls every seat answers.
        self.at_calls = day_acts == "together"
        #: The ballot this seat scanned early (`day_acts` acts: a ballot whenever it likes).
        self.early: int | None = None
        self.mind = BotSeat(seat, players, "reason", rng)
        self.rng = rng
        self.todo: list[str] = []

    def hear(self, heard: Heard) -> None:
        self.mind.hear(heard)
        mine = heard.to == f"seat:{self.seat}"
        key = heard.key
        if key == "game-over":
            self.todo = []
        elif self.seat not in self.mind.alive:
            self.todo = []
        elif key == "scan-role":
            self.todo = ["card"]
        elif key == "prologue":
            self.todo = ["ok"]
        elif key == "day":
            self.early = None
            self.todo = ["speak"] if self.together else ["power", "speak"]
            if not self.at_calls:  # the old rules: silence is scanned by whoever chooses it, when it likes
                self.todo += ["silence", "early-vote"] if self.together else ["silence"]
        elif key == "silence-call":  # every seat answers, SILENCE or PASS, whatever its role
            self.todo.append("hush")
        elif key in ("vote-now-acts", "vote-now-all"):  # the same motions for every seat: a day act, then the ballot
            self.todo = [t for t in self.todo if t not in ("vote", "early-vote")] + [
                "act", "change" if key == "vote-now-acts" else "vote"]
        elif key == "last-word":  # every seat scans once more: the same seat keeps the ballot
            self.todo.append("vote")
        elif key in ("vote-now", "revote"):
            self.todo = [t for t in self.todo if t != "vote"] + ["vote"]
        elif key == "night":
            self.todo = ["night"]
        elif mine and key in ("vote-not-self", "vote-not-candidate", "not-on-island", "night-not-self",
                              "banish-witch", "night-not-living-target"):
            self.todo.insert(0, "vote" if self.mind.day and key.startswith("vote") else "night")

    def act(self, reach: Reach) -> dict[str, Any] | None:
        while self.todo:
            what = self.todo.pop(0)
            line = self._line(what, reach)
            if line is not None:
                return line
        return None

    def _line(self, what: str, reach: Reach) -> dict[str, Any] | None:
        me, mind = self.seat, self.mind
        if what == "card":
            return {"reader": "hand", "piece": reach.card} if reach.card is not None else None
        if what == "ok":
            return {"reader": "hand", "tag": "cmd:ok"}
        if what == "speak":
            return {"console": f"speak {me} {mind.speech()}", "dt": 3.0}
        if what == "vote":
            return {"reader": "hand", "tag": f"seat:{mind.vote()}", "dt": ACT_SECONDS}
        if what == "hush":  # the answer's timing is drawn alike for every seat; only the tag differs
            silent = bool(mind.others()) and self.rng.random() < SILENCE_CHANCE
            return {"reader": "hand", "tag": "cmd:silence" if silent else "cmd:pass", "dt": ACT_SECONDS}
        if what == "silence":  # the old rules: only a seat that chooses silence scans
            if mind.others() and self.rng.random() < SILENCE_CHANCE:
                return {"reader": "hand", "tag": "cmd:silence", "dt": ACT_SECONDS}
            return None
        if what == "early-vote":  # the old rules: a ballot after its talk, changed at the call if its mind did
            self.early = mind.vote()
            return {"reader": "hand", "tag": f"seat:{self.early}", "dt": ACT_SECONDS}
        if what == "change":
            now = mind.vote()
            if self.early == now:
                return None
            return {"reader": "hand", "tag": f"seat:{now}", "dt": ACT_SECONDS}
        if what == "night":
            return {"reader": "hand", "tag": f"seat:{mind.night_target()}", "dt": 2.0}
        if what == "power":
            others = mind.others()
            if mind.role == "priest" and not mind.exorcised and mind.day >= 2 and others:
                mind.exorcised = True
                self.todo.insert(0, f"mark:{self.rng.choice(others)}")
                return {"reader": "hand", "tag": "cmd:exorcise"}
            return None
        if what == "act":
            return self._day_act()
        if what.startswith("mark:"):
            return {"reader": "hand", "tag": f"seat:{what[5:]}", "dt": ACT_SECONDS}
        return None

    def _day_act(self) -> dict[str, Any] | None:
        """Its power or PASS, then a seat token: two scans, each `ACT_SECONDS` after the
        last, whatever the role (the timing tells nothing)."""
        mind = self.mind
        others = mind.others()
        if not others:
            return None
        target = self.rng.choice(others)
        tag = "cmd:pass"
        if mind.role == "priest" and not mind.exorcised and mind.day >= 2:
            mind.exorcised, tag = True, "cmd:exorcise"
        elif mind.role == "human" and self.rng.random() < 0.3:
            tag = "cmd:advise"
        self.todo.insert(0, f"mark:{target}")
        return {"reader": "hand", "tag": tag, "dt": ACT_SECONDS}


#: Seconds before each scan of a day act, a ballot or a silence answer (the same for every seat).
ACT_SECONDS = 1.5
#: How often an ear seat chooses silence (at a silence call, or under the old rules by itself).
SILENCE_CHANCE = 0.4

#: The speaker's ear: when no seat has anything left to do by day, the vote is called.
REFEREE = Call("next", frozenset({"day", "prologue"}),
               frozenset({"night", "vote-now", "vote-now-acts", "vote-now-all", "game-over"}))
#: With every motion at a call: when the talk has died down, a silence call first (and again
#: after one that took an hour: silence can come again the same day), then the vote.
SILENCE_CALL = Call("silencecall", frozenset({"day", "silence"}),
                    frozenset({"silence-call", "vote-now-all", "night", "game-over"}))


class FieldAsk(EarBot):
    """A table with no screen asks for its silence call itself: SILENCE on the field reader,
    at the moment the referee would call one (`SILENCE_CALL`'s lines).  The asker is the
    table, no seat: whoever reaches the field reader first, so the ask depends on no role."""

    seat = None

    def __init__(self) -> None:
        self.due = False

    def hear(self, heard: Heard) -> None:
        if heard.key in SILENCE_CALL.opens:
            self.due = True
        elif heard.key in SILENCE_CALL.closes:
            self.due = False

    def act(self, reach: Reach) -> dict[str, Any] | None:
        if not self.due:
            return None
        self.due = False
        return {"reader": "field", "tag": "cmd:silence"}


def ear_simulation(seed: int, players: int, options: Mapping[str, Any], bot: str | None = None,
                   ask: str = "field") -> EarTable:
    """`ask`: who opens the silence calls, the table on the field reader (`field`, a table
    with no screen) or the referee at the console (`referee`)."""
    rng = random.Random(seed)
    world = DealtCards("witch:role", OPTIONS.parse(players, options)["roles"], rng)
    day_acts = OPTIONS.parse(players, options)["day_acts"]
    seats: list[EarBot] = [WitchEar(s, players, random.Random(seed * 1000 + s), day_acts)
                           for s in range(1, players + 1)]
    if day_acts != "together":
        return EarTable("witch", world, [*seats, RefereeEar(REFEREE)])
    if ask == "referee":
        return EarTable("witch", world, [*seats, RefereeEar(SILENCE_CALL, REFEREE)])
    return EarTable("witch", world, [*seats, FieldAsk(), RefereeEar(REFEREE)])
