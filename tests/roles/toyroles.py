"""A toy hidden-role game on the layer alone: wolves, a seer, villagers.

Day: everyone living votes (no self-vote, no abstention); a tie means one
revote; a revote tie goes to the most votes over both rounds, then the lot.
Night: the wolves choose one victim together, the seer looks at one seat
(at once, final), everybody else scans for cover; a 60-second limit.
Wolves win at half the living; the village when no wolf is left.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.contract.commands import refusal
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import TABLE, Event, say, seat_audience
from kikimimi.roles import HiddenRoleGame, Night, Settlement, Vote, decide, settle, team_event, team_say


class ToyRolesGame(HiddenRoleGame):
    card_set = "toyroles"
    teams = {"wolf": "wolves", "seer": "village", "villager": "village"}
    knows = {"wolf": ("wolf",)}
    commands = ("shout",)

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        super().__init__(players, options)
        deck = self.options.get("roles") or ["wolf", "seer"] + ["villager"] * (players - 3) + ["wolf"]
        self.setup_roles(deck)
        self.votes: list[Vote] = []
        self.night: Night | None = None

    def on_dealt(self, t: float) -> list[Event]:
        return self._day(1)

    def _day(self, day: int) -> list[Event]:
        self.votes = [Vote.open(self.roster.alive())]
        return [self.enter("day", day), say(TABLE, "day", day=day)]

    def on_choose(self, seat: int, target: int, t: float) -> list[Event]:
        if self.phase == "day":
            vote = self.votes[-1]
            why = vote.refusal(seat, target)
            if why:
                return refusal(seat, "that vote is not allowed", why)
            vote.cast(seat, target)
            out = [say(seat_audience(seat), "voted", seat=target)]
            return out + (self._count(t) if vote.complete else [])
        if self.phase == "night" and self.night:
            why = self.night.refusal(seat, target)
            if why:
                return refusal(seat, "not tonight", why)
            self.night.choose(seat, target)
            out: list[Event] = []
            kind = self.night.kind(seat)
            if kind == "kill":
                wolves = self.roster.holders("wolf", alive_only=True)
                out += [team_event("kill", wolves, target=target)] + team_say(wolves, "wolves-chose", seat=target)
            elif kind == "see":
                found = "wolf" if self.roster.role(target) == "wolf" else "human"
                out += [say(seat_audience(seat), "seen", seat=target, found=found)]
            else:
                out += [say(seat_audience(seat), "cover")]
            return out + (self._dawn(t) if self.night.complete else [])
        return super().on_choose(seat, target, t)

    def _count(self, t: float) -> list[Event]:
        from kikimimi.contract.protocol import event

        vote = self.votes[-1]
        out = [event("tally", round=vote.round, ballots={str(k): v for k, v in vote.ballots.items()},
                     totals={str(k): v for k, v in vote.totals().items()})]
        d = decide(self.votes, ("cumulative", "lot"), self.lot(t, "vote")) if vote.round == 2 else decide(self.votes)
        if d.seat is None:
            self.votes.append(Vote.open(self.roster.alive(), round=2))
            return out + [say(TABLE, "revote")]
        out += self.remove({d.seat: f"vote-{d.how}"}, "day", "voted-out")
        return out if self.finished else out + self._nightfall(t)

    def _nightfall(self, t: float) -> list[Event]:
        kinds = {s: {"wolf": "kill", "seer": "see"}.get(self.roster.role(s) or "") for s in self.roster.alive()}
        self.night = Night.open(self.roster.alive(), kinds, joint={"kill"}, final={"see"})
        return [self.enter("night"), say(TABLE, "night")] + self.phase_timer.start(t, 60)

    def on_next(self, t: float) -> list[Event]:
        if self.phase == "night":
            return self._dawn(t)
        return super().on_next(t)

    def _dawn(self, t: float) -> list[Event]:
        night = self.night
        assert night is not None
        result = settle(night, [self._kill])
        out = self.phase_timer.stop() + self.remove(result.removed, "night", "morning")
        return out if self.finished else out + self._day(self.day + 1)

    def _kill(self, night: Night, result: Settlement) -> None:
        target = night.target("kill")
        if target is not None and self.roster.role(target) != "wolf":
            result.remove(target, "killed")
            result.fire("kill")

    def on_command(self, seat: int, name: str, t: float) -> list[Event]:
        if name == "shout":
            return [say(TABLE, "shout", seat=seat)]
        return super().on_command(seat, name, t)

    def decide_winner(self) -> str | None:
        alive = self.roster.alive()
        wolves = [s for s in alive if self.roster.role(s) == "wolf"]
        if not wolves:
            return "village"
        if 2 * len(wolves) >= len(alive):
            return "wolves"
        return None


GAME = Declaration(name="toyroles", play=ToyRolesGame, tags=ToyRolesGame.known_tags,
                   min_players=4, max_players=8, official_players=6,
                   commands=ToyRolesGame.console_commands, ear_table=None)
