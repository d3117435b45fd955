"""The reasoning bots of 闇に笑う魔女 (`kikimimi sim witch --bot reason`, the default).

A seat reasons over the role assignments it cannot tell apart
(`kikimimi.roles.worlds`): its own role and partners, the deck, the seats
that left at night (never a witch: the witches cannot banish one, a mirror
or an exorcism never removes one), its own findings, and the claims said at
the table (`kikimimi.roles.claims`, typed as speech: "CO mirror; FOUND
mirror 5 witch; VOTE 5").  Claims that no honest seat could say are refuted
from public facts alone: a mirror finding before the first night is over, a
priest's finding on a seat never voted out; a seat the mirror-user saw that is
still on the island is not the imp (mirrored, it leaves: `LEAVES`).

- Islanders vote for the living seat most likely a witch or the imp (both
  must leave for them to win); within `FOLLOW` of their best they take the
  seat their most trusted claimant said it will vote for (split ballots hand
  the count to the witches' bloc); in a revote, a tied seat within `FOLLOW`.
- The mirror-user looks at the most suspicious seat it has not seen; it and
  the priest claim their findings every day they hold any, with a VOTE.
- The twins vouch for each other (`CO twin`); a knight named in a VOTE says
  `CO knight`: both leave the imp fewer quiet seats to hide among.
- The knight guards the living claimant least likely lying.
- The priest marks the seat most likely the familiar or the imp (once).
- The witches lie when it pays: from day 2 one witch claims to be the
  mirror-user, always when a rival claims it (a counter-claim), otherwise
  at `PREEMPT` odds; its story has one finding per night gone, never one
  the public facts refute (a rival or an islander "witch", a partner
  "human").  They vote and banish the rival claimants first.
- The familiar (who does not know the witches) votes for the claimant it
  believes to be the real mirror-user.
- At a table of 3 witches or more (AIWolf's 15-player deck; docs/bots.md, "At 15
  players"): one witch tells the team's story and no other ever starts a fake mirror
  claim (`ONE_STORY`); the familiar bluffs, countering a lone mirror claimant, and the
  witches, who know its findings false, spare it (`FAMILIAR_BLUFF`); the witches never
  claim before a rival, so the claim the familiar counters is the real one (`NO_PREEMPT`).  ESTIMATE (a rally
  of the near-tied, a witch's frame) is measured and switched off.
- The town believes its priest (`LIE_AS`: no witch-side bot claims the priest) and its sampled
  worlds deal the claimants' findings as claimed (`GUIDED_FINDINGS`): at 15 the town had voted
  out its priest on the worlds' weight and noise (docs/bots.md, "The islanders at 15").
"""
from __future__ import annotations

import random
from collections.abc import Callable

from kikimimi.roles import claims
from kikimimi.roles.claims import Claim, ClaimBoard, Vocabulary
from kikimimi.roles.worlds import Knowledge, Rules, Worlds

from .rules import MAX_PLAYERS, ROLES, TEAMS, finding
from .seat_view import SeatView

READING = {role: finding(role) for role in ROLES}
#: A lie is likely from the witches' team (it gains), rare from the imp, very rare from an
#: islander; a false priest claim is rarer than a false mirror claim (the priest's findings
#: are about the voted-out alone, so they are easy to catch).
LIE = {"witches": 0.3, "imp": 0.1, "islanders": 0.02}
#: A false priest claim is rare: no bot of the witches' team ever makes one.  At 0.2 (it was, until
#: docs/bots.md) a priest with three findings at 15 players read as a liar at odds of 0.6: the worlds
#: in which it lies leave the real priest, the familiar and the witches free to sit anywhere, and
#: their number outweighed the lie, so the town voted out its priest (docs/bots.md, "The islanders
#: at 15").
LIE_AS = {"priest": 0.02}  # measured at 15: islanders +9.5 [+2.2, +16.8] (with GUIDED_FINDINGS)
#: From day 2 a living mirror-user (and priest) holds a finding and says it: a world in
#: which one keeps silent counts for this much.
SILENT = {"mirror": 0.1, "priest": 0.3}
#: The imp leaves when mirrored: a seat the mirror-user saw and still on the island is no imp.
LEAVES = {"mirror": frozenset({"imp"})}
#: The sampled worlds (10 players and more) deal a claimant's findings as claimed once they deal
#: it its claimed role (`Rules.guided_findings`): a 15-player table's findings otherwise left
#: some twenty worlds that count by day 5, and the town voted out its priest on their noise.
GUIDED_FINDINGS = True  # measured at 15: islanders +4.5 [-4.2, +13.2] alone; at 8 the worlds are exact


def rules(day: int) -> Rules:
    """The claim model on `day`: before day 2 nobody has a finding to say."""
    return Rules(TEAMS, {"mirror": READING, "priest": READING}, LIE, SILENT if day >= 2 else {}, LIE_AS,
                 leaves=LEAVES, guided=True, guided_findings=GUIDED_FINDINGS)


VOCAB = Vocabulary.of(ROLES, ("witch", "human"), MAX_PLAYERS)
#: The odds that the witches claim the mirror before any rival does (day 2 on).
PREEMPT = 0.5
#: The big-table rules below each name the fewest witches in the deck from which they hold
#: (0: never; 1: at every table), so a 15-player deck (3 witches) can play them alone.
#: Only one witch ever claims the mirror: once a partner has (dead or alive), the others keep
#: quiet (a late claim with a fresh story is a liar's in every world that counts).
ONE_STORY = 3  # measured: witches +59.0 points at 15; at 8 +9.3, at 10 -1.7 (merged tree: +5.5, -5.0): from 3 witches
#: The fake mirror-user clears its partners ("human"); when the priest or the count exposes
#: it, the seats it cleared stand exposed with it.
CLEAR_PARTNERS = 1  # measured: never clearing them, witches -8.6 points at 15
#: The familiar counter-claims a lone mirror claimant (`_familiar_claim`); the witches spare
#: a claimant whose findings they know false (their team's bluff).
FAMILIAR_BLUFF = 3  # measured: witches +3.5 [-0.5, +7.5] at 15
#: The witches never claim the mirror before a rival does (`PREEMPT` is 0): a lone claim is then
#: the real mirror-user's, so the familiar's counter-claim does not accuse a witch.
NO_PREEMPT = 3  # measured: witches +7.0 [+2.1, +11.9] at 15 (61.0 -> 68.0 %, N 200, watch merged)
#: The familiar counters a lone mirror claimant only when at most this likely a witch (with 3
#: witches among 13 unknown seats every seat starts near 0.23).
BLUFF_RISK = 0.35
#: The knight guards the living mirror claimant least likely lying before any other claimant
#: (a priest's findings come one a day, on seats already voted out; the mirror-user's lead the
#: vote, and the witches banish it first when a bluff stands beside it).
GUARD_MIRROR = 0  # measured: islanders -9.0 [-14.8, -3.2] at 15 (the priest's findings go unguarded): off
#: While two mirror claimants live and the worlds cannot tell them apart (each lying at odds
#: within `UNSURE`), islanders vote neither: the witches banish the real one by night (unless
#: the knight guards it), and the one left standing is then a liar in every world.
WAIT_FOR_NIGHT = 0  # measured: islanders -7.0 [-13.7, -0.3] at 15 (the day-2 vote, read by the priest, sorts the pair): off
UNSURE = (0.2, 0.8)
#: Seats with no claim say `ESTIMATE n witch` (with a VOTE) for a suspect at least `ESTIMATE_AT`
#: likely; near-tied voters follow the seat today's estimates name most (`rallied`).
ESTIMATE_RALLY = 0  # measured: islanders -2.5 [-6.3, +1.3] at 15; with the priest believed -0.5 [-3.8, +2.8]: off
ESTIMATE_AT = 0.5
#: The witches who tell no story name the team's day target in an ESTIMATE (a frame).
ESTIMATE_FRAME = 0  # unmeasured: it frames only where ESTIMATE_RALLY listens
#: The priest marks a seat for the exorcism only when it is at least this likely the familiar or the imp.
EXORCISE_AT = 0.3
#: With at most this many witches expected on the island and the imp there at
#: `IMP_FIRST` odds, islanders look for the imp first: removing the last witch
#: while the imp stays hands the imp the win.
LAST_WITCH, IMP_FIRST = 1.6, 0.4
#: Probabilities this close are a tie.
TIE = 1e-9
#: At night the witches banish the claimants the town leans on, in this order: the knight
#: first (it guards the trusted claimant, so a claimed knight makes the mirror-user hard to
#: reach), then the mirror-user, the priest, the twins (islanders vouched for).
NIGHT_FIRST = ("knight", "mirror", "priest", "twin")
#: The familiar votes for a claimant only when it is at most this likely a witch (a fake
#: mirror claim is usually a witch's: voting it out removes its own team's witch).
FAMILIAR_RISK = 0.2
#: A voter takes the most trusted claimant's named VOTE when it is this close to its own
#: best: votes split over near-equal suspects hand the count to the witches' bloc.
FOLLOW = 0.15  # measured: 0.05 +4.0, 0.15 +5.7, 0.3 -0.6 points at 10 players (seeds 1-300)


def refute(board: ClaimBoard, seat: int, said: tuple[Claim, ...], day: int, voted_out: set[int]) -> None:
    """Public facts a claim cannot survive: a mirror with more findings than nights gone
    (the first comes on day 2), a priest's finding on a seat never voted out, a seat
    that found itself."""
    mirror = [c for c in board.findings.get(seat, {}) if board.roles.get(seat) == "mirror"]
    if len(mirror) > max(0, day - 1):
        board.refute(seat)
    for c in said:
        if c.kind == "FOUND" and (c.target == seat or (c.role == "priest" and c.target not in voted_out)):
            board.refute(seat)


class Reasoner:
    """One seat's reasoning; it reads the seat's own state (`bots.BotSeat`, as `SeatView`
    names it) and nothing else."""

    def __init__(self, seat: SeatView):
        self.s = seat
        self._worlds: Worlds | None = None
        self._key: tuple[object, ...] = ()
        self.story: dict[int, str] = {}  # a witch's fake findings, in the order told
        self.lying: bool | None = None  # a witch's choice to claim without a rival
        self.said: tuple[int, str] | None = None  # (day, line) last said

    def at(self, rule: int) -> bool:
        """Whether a big-table rule (`ONE_STORY`, ...) holds at this table: it names the fewest
        witches in the deck it holds from (0: never); the deck is public."""
        return bool(rule) and self.s.deck.count("witch") >= rule

    # -- what this seat may know -------------------------------------------------
    def knowledge(self) -> Knowledge:
        s = self.s
        role = s.role or "human"
        known = {s.seat: role, **{p: role for p in s.partners}}
        gone = {g: frozenset({"witch"}) for g in s.night_gone if g not in known}
        return Knowledge(s.seat, tuple(s.deck), known, gone, dict(s.findings), frozenset(s.alive))

    def worlds(self) -> Worlds:
        s = self.s
        key = (s.board.facts, tuple(sorted(s.findings.items())), frozenset(s.alive), s.day)
        if self._worlds is None or key != self._key:
            seed = hash((*s.worlds_key, s.day, s.board.facts)) & 0xFFFFFFFF
            self._worlds, self._key = Worlds(rules(s.day), self.knowledge(), s.board, random.Random(seed)), key
        return self._worlds

    def p_witch(self) -> dict[int, float]:
        """Per seat, the odds it must leave for the islanders to win: a witch, or the imp
        (the islanders win only with both gone)."""
        w = self.worlds()
        if w.empty:
            return {}
        witch, imp = w.roles("witch"), w.roles("imp")
        alive = self.s.alive
        if sum(witch[x] for x in alive) <= LAST_WITCH and sum(imp[x] for x in alive) >= IMP_FIRST:
            return {x: imp[x] * (1 - witch[x]) for x in witch}  # the last witch waits: the imp first
        return {x: witch[x] + imp[x] for x in witch}

    # -- decisions ------------------------------------------------------------------
    def speech(self) -> str | None:
        s = self.s
        if s.role in ("mirror", "priest") and s.findings:
            said = [claims.co(s.role)] + [claims.found(s.role, t, f) for t, f in s.findings.items()]
            target = self.suspect()  # always named: the town needs a lead to rally on (FOLLOW)
            return self._say(said + ([claims.vote(target)] if target else []))
        if s.role == "witch" and s.seat == min([s.seat, *(p for p in s.partners if p in s.alive)]):
            line = self._witch_claim()
            if line is not None or self.story:
                return line
        if s.role == "familiar" and self.at(FAMILIAR_BLUFF):
            return self._familiar_claim()
        if self.at(ESTIMATE_FRAME) and s.role == "witch" and s.day >= 2 and not self.story:
            target = self._witch_target(s.others(), by_day=True)
            return self._say([claims.estimate(target, "witch"), claims.vote(target)])
        if self.at(ESTIMATE_RALLY) and s.role == "human" and s.day >= 2:
            return self._estimate()
        if s.role == "twin" and s.day >= 1 and not self.said:
            return self._say([claims.co("twin")])  # two islanders the town need not suspect
        if s.role == "knight" and not self.said and s.seat in s.board.intentions(s.day).values():
            return self._say([claims.co("knight")])  # named for the vote: out of the imp hunt
        return None

    def _say(self, said: list[Claim]) -> str | None:
        line = claims.text(said)
        if self.said == (self.s.day, line):
            return None  # said already today, nothing new
        self.said = (self.s.day, line)
        return line

    def _tell_story(self, lie: Callable[[], tuple[int, str] | None]) -> str | None:
        """A fake mirror-user's claim: one more finding a day (from `lie`), and a vote for
        the first living seat the story calls a witch.  Written once for the witches'
        story and the familiar's bluff, which differ only in whom they lie about."""
        s = self.s
        while len(self.story) < s.day - 1:
            pick = lie()
            if pick is None:
                break
            self.story[pick[0]] = pick[1]
        accused = [t for t, f in self.story.items() if f == "witch" and t in s.alive]
        said = [claims.co("mirror")] + [claims.found("mirror", t, f) for t, f in self.story.items()]
        return self._say(said + [claims.vote(accused[0])] if accused else said)

    def _witch_claim(self) -> str | None:
        s = self.s
        if s.day < 2:
            return None
        if self.at(ONE_STORY) and not self.story and any(s.board.roles.get(p) == "mirror" for p in s.partners):
            return None  # a partner told the team's story: a second fake mirror-user only exposes itself
        rivals = self.rivals("mirror")
        if self.at(FAMILIAR_BLUFF) and not self.story and len(rivals) > 1:
            return None  # two mirror claimants already: one is the team's bluff (the familiar)
        if not rivals and not self.story:
            if self.at(NO_PREEMPT):
                return None  # a lone mirror claim is then the real one: the familiar counters it
            if self.lying is None:
                self.lying = s.rng.random() < PREEMPT
            if not self.lying:
                return None
        return self._tell_story(lambda: self._next_lie(rivals))

    def _estimate(self) -> str | None:
        """A seat with no claim of its own names its likeliest witch (ESTIMATE, with its VOTE)
        when its worlds put that seat at `ESTIMATE_AT` or more: a lead the near-tied can rally on."""
        target = self.suspect()
        p = self.p_witch()
        if target is None or p.get(target, 0.0) < ESTIMATE_AT:
            return None
        return self._say([claims.estimate(target, "witch"), claims.vote(target)])

    def rallied(self, near: list[int]) -> int | None:
        """Among `near`, the seat today's ESTIMATEs name a witch most, each estimate weighed by how
        unlikely its speaker is a witch (a witch's estimate frames); None below one vote's weight."""
        s = self.s
        p = self.p_witch()
        weight: dict[int, float] = {}
        for by, target in s.board.estimates(s.day, "witch").items():
            if target in near and by != s.seat and by in s.alive:
                weight[target] = weight.get(target, 0.0) + 1.0 - p.get(by, 0.0)
        if not weight:
            return None
        top = max(weight.values())
        best = self.draw([x for x in sorted(weight) if weight[x] >= top - TIE])
        return best if weight[best] >= 1.0 - TIE else None

    def _familiar_claim(self) -> str | None:
        """The familiar's bluff: it counters a lone mirror claimant it believes (at most
        `BLUFF_RISK` likely a witch), so the island sees two mirror-users and one of them is
        no witch; nothing when the witches countered first (two claims already)."""
        s = self.s
        if s.day < 2:
            return None
        rivals = [c for c in s.board.claimants("mirror") if c != s.seat]
        if not self.story:
            w = self.worlds()
            if len(rivals) != 1 or w.empty or w.roles("witch").get(rivals[0], 1.0) > BLUFF_RISK:
                return None
        return self._tell_story(lambda: self._familiar_lie(rivals))

    def _familiar_lie(self, rivals: list[int]) -> tuple[int, str] | None:
        """The familiar's next fake finding: the rival is a witch; then, one accusation at a
        time, the seat its worlds hold least likely a witch, else "human" on the likeliest
        witch (a witch cleared is its own team helped)."""
        s = self.s
        told = set(self.story) | {s.seat}
        for r in rivals:
            if r in s.alive and r not in told:
                return r, "witch"
        pool = [x for x in sorted(s.alive) if x not in told]
        w = self.worlds()
        if not pool or w.empty:
            return None
        witch = w.roles("witch")
        if not any(t in s.alive and f == "witch" for t, f in self.story.items()):
            least = min(witch.get(x, 0.0) for x in pool)
            return self.draw([x for x in pool if witch.get(x, 0.0) <= least + TIE]), "witch"
        most = max(witch.get(x, 0.0) for x in pool)
        return self.draw([x for x in pool if witch.get(x, 0.0) >= most - TIE]), "human"

    def bluffing(self, seat: int) -> bool:
        """Whether a claimant's findings are false by what this witch knows (a partner
        "human", an islander "witch"): not the real mirror-user, a bluff of its own team."""
        s = self.s
        team = {s.seat, *s.partners}
        return any((f == "witch") != (t in team) for t, f in s.board.findings.get(seat, {}).items())

    def _next_lie(self, rivals: list[int]) -> tuple[int, str] | None:
        """The next fake finding: a living rival is a witch; else a partner is human; else a
        living islander is a witch (one accusation at a time) or human."""
        s = self.s
        told = set(self.story) | {s.seat}
        for r in rivals:
            if r in s.alive and r not in told:
                return r, "witch"
        for p in s.partners if self.at(CLEAR_PARTNERS) else ():
            if p in s.alive and p not in told:
                return p, "human"
        pool = [x for x in sorted(s.alive) if x not in told and x not in s.partners]
        if not pool:
            return None
        accusing = not any(t in s.alive and f == "witch" for t, f in self.story.items())
        return s.rng.choice(pool), "witch" if accusing else "human"

    def rivals(self, role: str) -> list[int]:
        """Claimants of `role` who are not this seat nor a known partner."""
        s = self.s
        return [c for c in s.board.claimants(role) if c != s.seat and c not in s.partners]

    def suspect(self) -> int | None:
        """The living seat most likely a witch (None when nothing is known); among those
        within `FOLLOW` of the best, the one the most trusted claimant named."""
        s = self.s
        p = self.p_witch()
        others = [x for x in sorted(s.alive) if x != s.seat and x not in s.partners]
        if not p or not others:
            return None
        if self.at(WAIT_FOR_NIGHT) and TEAMS.get(s.role or "") == "islanders":
            others = [x for x in others if x not in self.undecided_mirrors()] or others
        best = max(p[x] for x in others)
        near = [x for x in others if p[x] >= best - max(TIE, FOLLOW)]
        lead = self.trusted_vote() if len(near) > 1 else None
        if lead in near:
            return lead
        if self.at(ESTIMATE_RALLY) and len(near) > 1:
            lead = self.rallied(near)
            if lead is not None:
                return lead
        return self.draw([x for x in others if p[x] >= best - TIE])

    def draw(self, tied: list[int]) -> int:
        """One of seats tied on the odds, by the seat's own seeded draw: a tie broken toward the
        lowest seat voted chair 1 out first in every game (docs/report.md; `kikimimi check witch
        --part fairness`), and every balance figure of the game carried it."""
        return tied[0] if len(tied) == 1 else self.s.rng.choice(tied)

    def undecided_mirrors(self) -> list[int]:
        """The living mirror claimants (not this seat) when two or more live and the worlds
        hold each one lying at odds within `UNSURE`: a vote on either is a coin's toss, and the
        night tells them apart (`WAIT_FOR_NIGHT`); else none."""
        s = self.s
        w = self.worlds()
        live = [c for c in s.board.claimants("mirror") if c in s.alive and c != s.seat]
        if w.empty or len(live) + (s.role == "mirror") < 2:
            return []
        unsure = [c for c in live if UNSURE[0] <= w.p_lying(c) <= UNSURE[1]]
        return unsure if len(unsure) == len(live) else []

    def trusted_vote(self) -> int | None:
        """What the claimant least likely lying said it will vote for today."""
        s = self.s
        w = self.worlds()
        said = s.board.intentions(s.day)
        heads = [c for c in s.board.claimants() if c in said and c != s.seat]
        if not heads or w.empty:
            return None
        return said[min(heads, key=lambda c: (w.p_lying(c), c))]

    def vote(self) -> int:
        s = self.s
        others = s.others()
        if s.role == "witch":
            return self._witch_target(others, by_day=True)
        if s.role == "familiar":
            return self._familiar_vote(others)
        target = self.suspect()
        if TEAMS.get(s.role or "") == "islanders" and target not in s.tied:
            target = self.among_tied(target)
        return target if target is not None else s.rng.choice(others)

    def among_tied(self, target: int | None) -> int | None:
        """In a revote, the tied seat most likely a witch (or the imp) when it is within
        `FOLLOW` of `target`: ballots spread outside the tie leave it to the count over both
        rounds, or the lot."""
        s = self.s
        p = self.p_witch()
        tied = [x for x in s.tied if x in s.alive and x != s.seat and x not in s.partners]
        if not tied or not p:
            return target
        top = max(p[x] for x in tied)
        best = self.draw([x for x in tied if p[x] >= top - TIE])
        return best if target is None or p[best] >= p[target] - FOLLOW else target

    def _familiar_vote(self, others: list[int]) -> int:
        """The familiar does not know the witches: a mirror claimant may be one of them,
        lying.  It votes for the claimant most worth removing (by `NIGHT_FIRST`) that is
        at most `FAMILIAR_RISK` likely a witch, else for the seat least likely a witch."""
        s = self.s
        accused = [t for t, f in self.story.items() if f == "witch" and t in others]
        if accused:
            return accused[0]  # its bluff's accusation: a claimant that will not vote its story is caught
        w = self.worlds()
        if w.empty:
            return s.rng.choice(others)
        witch = w.roles("witch")
        claimed = [c for role in ("mirror", *NIGHT_FIRST) for c in s.board.claimants(role) if c in others]
        for c in dict.fromkeys(claimed):
            if witch.get(c, 0.0) <= FAMILIAR_RISK:
                return c
        least = min(witch.get(x, 0.0) for x in others)
        return s.rng.choice([x for x in others if witch.get(x, 0.0) <= least + TIE])

    def believed(self, role: str) -> int | None:
        """The living claimant of `role` least likely lying, if any."""
        s = self.s
        w = self.worlds()
        live = [c for c in s.board.claimants(role) if c in s.alive and c != s.seat]
        if not live:
            return None
        return min(live, key=lambda c: (w.p_lying(c) if not w.empty else 0.0, c))

    def _witch_target(self, others: list[int], by_day: bool) -> int:
        s = self.s
        pool = [x for x in others if x not in s.partners] or others
        roles = NIGHT_FIRST if not by_day else ("mirror", "priest")
        ranked = [c for role in roles for c in self.rivals(role) if c in pool
                  and not (self.at(FAMILIAR_BLUFF) and self.bluffing(c))]
        stories = [self.story, *(s.board.findings.get(p, {}) for p in s.partners)]  # a partner's lie is ours
        accused = list(dict.fromkeys(t for story in stories for t, f in story.items() if f == "witch" and t in pool))
        if by_day:
            ranked = accused + ranked
        else:  # a seat gone overnight is no witch: banishing the accused would give the story away
            ranked = [c for c in ranked if c not in accused]
            pool = [x for x in pool if x not in accused] or pool
        ranked = list(dict.fromkeys(ranked))
        if not ranked:
            return s.rng.choice(pool)
        if not by_day and len(ranked) > 1 and s.day >= 2 and s.rng.random() < 0.4:
            return ranked[1]  # the knight guards the trusted claimant: sometimes the next one
        return ranked[0]

    def night_target(self) -> int:
        s = self.s
        others = s.others()
        if s.role == "witch":
            if s.witch_choice in s.alive:
                return s.witch_choice
            return self._witch_target(others, by_day=False)
        if s.role == "mirror":
            unseen = [x for x in others if x not in s.findings]
            p = self.p_witch()
            if unseen and p:
                best = max(p[x] for x in unseen)
                return s.rng.choice([x for x in unseen if p[x] >= best - TIE])
            return s.rng.choice(unseen or others)
        if s.role == "knight":
            w = self.worlds()
            live = [c for c in s.board.claimants() if c in s.alive and c != s.seat]
            if live and not w.empty:
                mirrors = [c for c in live if s.board.roles[c] == "mirror" and w.p_lying(c) < UNSURE[1]]
                if self.at(GUARD_MIRROR) and mirrors:
                    live = mirrors
                return min(live, key=lambda c: (w.p_lying(c), s.board.roles[c] != "mirror", c))
        return s.rng.choice(others)

    def exorcise_target(self) -> int | None:
        s = self.s
        w = self.worlds()
        others = s.others()
        if w.empty or not others:
            return None
        odds = {x: w.p_role(x, "familiar") + w.p_role(x, "imp") for x in others}
        top = max(odds.values())
        best = self.draw([x for x in others if odds[x] >= top - TIE])
        return best if odds[best] >= EXORCISE_AT else None
