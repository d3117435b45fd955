"""The reasoning bots of マフィア42: they claim, deduce from the worlds, and lie for the mafia.

Each bot keeps what its seat was told (`bots.BotSeat`: its job, its partners,
its findings) and reads the public facts and the table talk (`suspicion.Facts`).
The town weighs the worlds (`suspicion.weigh`) narrowed by its own secrets:

- the police claims and publishes its findings from its first day (`Style`);
  the medium publishes the dead it found to be mafia;
- everyone names a vote in the discussion, in turn; a citizen names the seat
  most likely a mafioso, or joins the seat already named most when that seat is
  nearly as suspect, so the town's votes meet; it votes as it said;
- the approval follows the trust in the accused against the other living;
- the doctor protects the police claimant most likely real, the reporter
  and the gangster aim at the most suspect, the mercenary shoots it.

The mafia read the same public worlds, as the town sees them.  One member
of the team in contact claims police when it pays (`liar`: a helper in
contact before a mafioso; always to answer a police claim that names a
mate, sometimes at once), with a story that public facts cannot break: it
clears its mates and accuses trusted citizens, and never names a seat the
morning proved.  The mafia shoot the claimants first, vote with the town's
choice when it is not a mate, and vote a doomed mate themselves (a bus) when
two or more are alive.

Every seat plays its side (`ReasonSeat.side`): the helpers still seeking the
mafia (`helpers`), the cult (`cult`), and the specials whose acts want a
reason (the clergy, the magician, the medium: `_special`).  Two things keep
a game from stalling between bots: a seat the approval spared, with nothing
changed since, is not voted again (`Facts.futile`), and after a tie with
nothing changed a seat that named the same seat again thinks again (`_unstall`).
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.roles.claims import Claim, co, found, vote

from . import cult, helpers
from .plain import BotSeat
from .suspicion import Facts, Odds, Posterior, World, weigh
from .talk import MAFIA, NOT_MAFIA


@dataclass(frozen=True)
class Style:
    """The bots' choices that a designer may want to vary (`tuning`)."""

    police_claims_from: int = 1  # the day the police claims even without a mafia found
    join: float = 0.75  # join the most named seat when it is this suspect against my first choice
    approve: float = 0.85  # approve when the accused is this suspect against the living's mean
    fake_early: float = 0.35  # a mafioso claims police on day 1 unprompted
    shoot_claimant: float = 0.75  # the mafia shoot a police claimant rather than a trusted seat
    bus: float = 0.5  # the mafia vote a doomed mate
    own_sides: bool = True  # the cult and the helpers out of contact reason (False: as today's bots)


class Reasoning:
    """The public worlds, weighed once per change of the public facts and shared by every bot."""

    def __init__(self, facts: Facts, odds: Odds | None = None):
        self.facts, self.odds = facts, odds or Odds()
        self._key: tuple[int, int, int] | None = None
        self._worlds: list[World] = []
        self._public: Posterior | None = None

    def worlds(self) -> list[World]:
        key = self.facts.key()
        if key != self._key:
            self._key, self._worlds, self._public = key, weigh(self.facts, self.odds), None
        return self._worlds

    def public(self) -> Posterior:
        """The worlds as a seat that knows only the public facts weighs them."""
        worlds = self.worlds()
        if self._public is None:
            self._public = Posterior(worlds, self.facts.players)
        return self._public


class ReasonSeat(BotSeat):
    """One seat's reasoning bot (see the module's docstring)."""

    def __init__(self, seat: int, players: int, rng: random.Random, reasoning: Reasoning,
                 style: Style | None = None):
        super().__init__(seat, players, rng)
        self.reasoning, self.style = reasoning, style or Style()
        self.found: list[tuple[int, bool]] = []  # police or medium findings, in order
        self.said: set[tuple[int, bool]] = set()  # findings already claimed
        self.claimed = ""  # the role this seat claimed
        self.intent: int | None = None
        self.bussing = False
        self.day = 0
        self.helpers: set[int] = set()  # a mafioso's helpers in contact
        self.tied = False  # yesterday's vote ended in a tie (or no votes)
        self.failed: set[int] = set()  # the cult leader's conversions that failed: mafia team or clergy
        self._view: Posterior | None = None
        self._view_key: tuple[Any, ...] = ()

    # -- what this seat hears ----------------------------------------------------------
    def see(self, ev: Mapping[str, Any]) -> None:
        super().see(ev)
        kind = ev.get("type")
        if kind == "phase":
            self.day = int(ev.get("day", self.day) or 0)
        elif kind == "accused":  # a tied vote: tomorrow the town follows the seat named most
            self.tied = ev.get("seat") is None
        if kind == "say" and ev.get("to") == f"seat:{self.seat}":
            key, params = ev.get("key"), ev.get("params") or {}
            if key in ("police-mafia", "police-not-mafia"):
                self.found.append((int(params["seat"]), key == "police-mafia"))
            elif key == "helper-joined":
                self.helpers.add(int(params["seat"]))
            elif key == "job-of" and self.job == "medium":
                self.found.append((int(params["seat"]), params.get("job") == "job:mafia"))
            elif key == "you-converted":  # the cult leader took this seat: it plays for the cult now
                self.team = "cult"
            elif key == "converted-job":
                self.mates.add(int(params["seat"]))
            elif key == "convert-failed":
                self.failed.add(int(params["seat"]))
            elif key in ("seduced", "robbed", "cursed", "marked"):  # a helper's try at finding the mafia
                self.checked.add(int(params["seat"]))

    # -- what it makes of it ------------------------------------------------------------
    @property
    def mafioso(self) -> bool:
        """On the mafia's side and knowing it: a mafioso, or a helper in contact."""
        return self.team == "mafia" and (self.job == "mafia" or bool(self.mates))

    @property
    def side(self) -> str:
        """Whose game this seat plays: the mafia's (in contact), a helper's still seeking the
        mafia, the cult's, or the town's."""
        if self.mafioso:
            return "mafia"
        side = "helper" if self.team == "mafia" else "cult" if self.team == "cult" else "town"
        return side if side == "town" or self.style.own_sides else "plain"

    def view(self) -> Posterior:
        """The public worlds narrowed by this seat's own knowledge (kept until either changes)."""
        facts = self.reasoning.facts
        clear = frozenset({self.seat, *self.clear, *self.mates})
        key = (facts.key(), frozenset(self.mafia), clear)
        if key != self._view_key or self._view is None:
            self._view_key = key
            self._view = Posterior(self.reasoning.worlds(), facts.players, mafia=self.mafia, clear=clear,
                                   police=self.seat if self.job == "police" else None,
                                   not_police=() if self.job == "police" else (self.seat,))
        return self._view

    def _others(self) -> list[int]:
        return [s for s in self.living() if s not in self.mates]

    def suspect(self, post: Posterior, seats: Iterable[int]) -> int | None:
        """The seat most likely a mafioso; among equals, one drawn by this seat's own generator
        (never the lowest seat: nobody should be voted for the number on their chair)."""
        ranked = post.most_suspect(seats)
        if not ranked:
            return None
        top = post.mafia[ranked[0]]
        return self.rng.choice([s for s in ranked if post.mafia[s] >= top - 1e-9])

    # -- the discussion ------------------------------------------------------------------
    def speak(self, day: int) -> list[Claim]:
        """Role and finding claims, said in the first round of the discussion."""
        if self.seat in self.dead or self.side in ("helper", "plain"):
            return []
        if self.mafioso:
            return self._lie(day)
        if self.job == "police" and (self.found and (day >= self.style.police_claims_from
                                                     or any(m for _, m in self.found))):
            return self._publish(day, "police")
        if self.job == "medium" and any(m for _, m in self.found):
            return self._publish(day, "medium")
        return []

    def _publish(self, day: int, role: str) -> list[Claim]:
        out: list[Claim] = []
        if self.claimed != role:
            self.claimed = role
            out.append(co(role))
        for target, mafia in self.found:
            if (target, mafia) not in self.said and (mafia or role == "police"):
                self.said.add((target, mafia))
                out.append(found(role, target, MAFIA if mafia else NOT_MAFIA))
        return out

    def liar(self) -> int | None:
        """The team's one fake police, as every member in contact works it out alike: a living
        member who has claimed already, else the lowest helper in contact (the real police reads
        a helper "not mafia", so its claim survives a check), else the lowest mafioso."""
        team = sorted(s for s in {self.seat} | self.mates if s not in self.dead)
        roles = self.reasoning.facts.talk.roles()
        claimed = [s for s in team if roles.get(s) == "police"]
        helpers = [s for s in team if s in self.helpers or (s == self.seat and self.job != "mafia")]
        first = claimed or helpers or team
        return first[0] if first else None

    def _lie(self, day: int) -> list[Claim]:
        """The mafia's fake police: one member of the team in contact speaks (`liar`)."""
        facts = self.reasoning.facts
        if self.liar() != self.seat or not facts.police:
            return []
        roles = facts.talk.roles()
        rivals = [s for s, r in roles.items() if r == "police" and s not in self.mates and s != self.seat]
        named = {t for s in rivals for t, m in facts.talk.findings().get(s, ()) if m}
        threat = bool(named & (self.mates | {self.seat}))
        if self.claimed != "police":
            start = threat or (day == 1 and not rivals and self.rng.random() < self.style.fake_early)
            if not start:
                return []
            self.claimed = "police"
            out = [co("police")]
        else:
            out = []
        proven = facts.saved | facts.night_dead | {s for s, j in facts.jobs.items() if j != "mafia"}
        for rival in rivals:  # the rival claimant is "mafia": a counter-claim
            if rival not in facts.dead and (rival, True) not in self.said and rival not in proven:
                self.said.add((rival, True))
                out.append(found("police", rival, MAFIA))
                return out
        mates = [s for s in self.mates if s not in self.dead and (s, False) not in self.said]
        if mates and self.rng.random() < 0.5:
            self.said.add((mates[0], False))
            return out + [found("police", mates[0], NOT_MAFIA)]
        named_before = {t for t, _ in self.said}
        trusted = [s for s in self.reasoning.public().most_suspect(self._others())[::-1]
                   if s not in proven and s not in named_before]
        if trusted:
            self.said.add((trusted[0], True))
            out.append(found("police", trusted[0], MAFIA))
        return out

    def intend(self, day: int) -> Claim | None:
        """The vote this seat names, in the second round of the discussion."""
        self.intent, self.bussing = None, False
        if self.seat in self.dead or self.side == "plain":
            return None
        talk = self.reasoning.facts.talk
        named: dict[int, int] = {}
        for _, x in talk.intentions(day):
            if x not in self.dead:
                named[x] = named.get(x, 0) + 1
        top = max(named, key=lambda s: (named[s], -s)) if named else None
        side = self.side
        if side == "mafia":
            self.intent = self._mafia_vote(top)
        elif side == "helper":
            self.intent = helpers.vote(self, top)
        elif side == "cult":
            self.intent = cult.vote(self, top)
        else:
            self.intent = self._town_vote(top)
        if side in ("town", "cult") and self.reasoning.facts.stalled():
            self.intent = self._unstall(day, self.intent)
        return None if self.intent is None else vote(self.intent)

    def _unstall(self, day: int, intent: int | None) -> int | None:
        """Yesterday's vote tied and nothing has changed since: naming the same seat again would
        tie again, day after day (two camps, each sure of its seat), so at even odds this seat
        names another it does not know to be its own side's."""
        before = dict(self.reasoning.facts.talk.intentions(day - 1)).get(self.seat)
        if intent is None or intent != before or self.rng.random() < 0.5:
            return intent
        pool = [s for s in self.living() if s not in self.mates and s not in self.clear and s != intent]
        return self.rng.choice(pool) if pool else intent

    def _town_vote(self, top: int | None) -> int | None:
        known = sorted(s for s in self.mafia if s not in self.dead and s != self.seat)
        known += [s for s in self.reasoning.facts.revealed_helpers() if s != self.seat and s not in self.mates]
        if known:
            return known[0]
        post = self.view()
        pool = [s for s in self.living() if s not in self.clear and s not in self.mates] or self.living()
        futile = self.reasoning.facts.futile()  # spared, and nothing has changed since
        pool = [s for s in pool if s not in futile] or pool
        best = self.suspect(post, pool)
        if best is None:
            return None
        if post.mafia[best] < 1e-6:  # no mafioso lives in any world, yet the game goes on
            return self._helper_hunt(pool, top)
        join = 0.0 if self.tied else self.style.join
        if top is not None and top in pool and post.mafia[top] >= join * post.mafia[best]:
            return top
        return best

    def _helper_hunt(self, pool: list[int], top: int | None) -> int:
        """A helper in contact lives (the worlds know only mafiosi): suspect the seats that named,
        as their vote, a seat this one knows clear; else the seat named most; else any."""
        mine = {self.seat, *self.clear, *self.mates}
        against: dict[int, int] = {}
        for voter, named in self.reasoning.facts.talk.intentions():
            if voter in pool and named in mine:
                against[voter] = against.get(voter, 0) + 1
        if against:
            most = max(against.values())
            return self.rng.choice(sorted(s for s, n in against.items() if n == most))
        if top is not None and top in pool and not self.tied:
            return top
        return self.rng.choice(pool)  # after a tie, following the seat named most may tie again

    def _mafia_vote(self, top: int | None) -> int | None:
        others = self._others()
        if not others:
            return None
        mates_alive = [s for s in self.mates | {self.seat} if s not in self.dead]
        if top is not None and top in self.mates and len(mates_alive) >= 2:
            doomed = self.reasoning.public().mafia[top] >= 0.5
            if doomed and self.rng.random() < self.style.bus:
                self.bussing = True
                return top
        if top is not None and top in others:
            return top
        return self.suspect(self.reasoning.public(), others)

    # -- acts ------------------------------------------------------------------------------
    def vote(self) -> int | None:
        if self.side == "plain":
            # A reasoning bot never sits a vote out by chance, whatever side it plays (the
            # plain bot's 15 % here, for the helpers and the cult only, was a tell; docs/mafia42.md).
            others = self.living()
            return self.choose_vote(others) if others else None
        if self.intent is not None and self.intent not in self.dead:
            return self.intent
        self.intend(self.day)
        return self.intent

    def approve(self, accused: int) -> bool:
        side = self.side
        if side == "mafia":
            return self.bussing if accused in self.mates else True
        if side == "helper":
            return helpers.approve(self, accused)
        if side == "cult":
            return cult.approve(self, accused)
        if side == "plain":
            return super().approve(accused)
        return self.town_approves(accused)

    def town_approves(self, accused: int) -> bool:
        """Yes when the accused is at least `Style.approve` times as suspect as the living's mean."""
        if accused in self.mafia or accused in self.reasoning.facts.revealed_helpers():
            return True
        if accused in self.mates or accused in self.clear:
            return False
        post = self.view()
        others = [s for s in self.living() if s not in self.clear]
        mean = sum(post.mafia[s] for s in others) / max(1, len(others))
        return post.mafia[accused] >= self.style.approve * mean

    def night_target(self) -> int:
        job, side = self.job, self.side
        if side == "mafia" and job == "mafia":
            return self.shot()
        if side in ("mafia", "helper"):
            return helpers.night(self) or super().night_target()
        if side == "plain":
            return super().night_target()
        if side == "cult" and job in ("cult-leader", "fanatic"):
            return cult.convert_target(self)
        post = self.view()
        pool = [s for s in self.living() if s not in self.clear and s not in self.mates]
        if job == "police":
            unknown = [s for s in pool if s not in self.checked]
            return self.suspect(post, unknown) or super().night_target()
        if job == "doctor":
            claimants = [s for s in self.living(others=False) if post.police[s] > 0.3]
            if claimants:
                return max(claimants, key=lambda s: (post.police[s], -s))
            return super().night_target()
        if job == "mercenary" and pool and max(post.mafia[s] for s in pool) < 1e-6:
            return self._helper_hunt(pool, None)  # no mafioso lives: a helper in contact may
        if job in ("gangster", "mercenary", "reporter"):
            unknown = [s for s in pool if s not in self.checked] if job == "reporter" else pool
            return self.suspect(post, unknown) or super().night_target()
        return self._special(job, post, pool) or super().night_target()

    def _special(self, job: str, post: Posterior, pool: list[int]) -> int | None:
        """The clergy brings back the dead seat likeliest a citizen (a revived mafioso would play
        on for the mafia); the magician, from night 2, marks the most suspect seat to die in his
        place (night 1 knows nothing: he marks himself, which spends nothing); the medium reads
        the dead it has not read, the executed first (a night death is rarely a mafioso)."""
        dead = sorted(s for s in self.dead if s != self.seat)
        if job == "clergy" and dead:
            low = min(post.mafia[s] for s in dead)
            trusted = [s for s in dead if post.mafia[s] <= low + 1e-9]
            return max(trusted, key=lambda s: (post.police[s], -s))
        if job == "magician":
            return self.suspect(post, pool) if self.day >= 2 else self.seat
        if job == "medium":
            unread = [s for s in dead if s not in self.checked]
            by_day = [s for s in unread if s not in self.reasoning.facts.night_dead]
            return (by_day or unread)[0] if unread else None
        return None

    def shot(self) -> int:
        others = self._others()
        if not others:
            return self.seat
        if self.aim in others:
            return self.aim  # the team's joint aim: the latest scan counts, so keep to it
        facts = self.reasoning.facts
        roles = facts.talk.roles()
        public = self.reasoning.public()
        claimants = [s for s in others if roles.get(s) in ("police", "medium")]
        if claimants and self.rng.random() < self.style.shoot_claimant:
            return max(claimants, key=lambda s: (public.police[s], -s))
        trusted = public.most_suspect(others)[::-1][:3]
        return self.rng.choice(trusted)

    def mafiosi(self) -> set[int]:
        """The seats this member of the mafia's team knows to be mafiosi proper."""
        team = {self.seat} | self.mates if self.job == "mafia" else self.mates
        return team - self.helpers
