"""Bot seats and the physical table for `kikimimi sim witch`.

Each bot learns only what its seat hears: the `say` events addressed to the
table or to its own earphone (`visible_to`), never a logged event's fields,
so the same bots can later play by ear alone.  Claims travel as typed
speech, which the other bots parse from the spoken text, exactly as people
at a remote table would: the claim channel's lines ("CO mirror; FOUND
mirror 3 witch; VOTE 3", `kikimimi.roles.claims`) and today's plain form
("mirror 3 witch, 5 human"); both land on every seat's `ClaimBoard`.

The kinds (`--bot`):
- `reason` (the default): every seat reasons over the possible role
  assignments and claims through the channel (`reasoning.py`);
- `reason-town`: islanders (and the imp) reason, the witches' team plays `plain`;
- `reason-witches`: the witches' team reasons, islanders (and the imp) play `plain` (with
  `reason-town`, each side's skill: its reasoning bots against its plain ones, the other
  side reasoning in both);
- `plain` (the older default, docs/bots.md): the mirror-user publishes its
  findings, one witch claims to be the mirror with consistent fake findings,
  islanders vote on the findings of the claimant they trust (a claimant who
  accuses them falsely is a liar), the knight guards the trusted claimant,
  the witches banish the real one;
- `random`: legal moves at random.
"""
from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import load_catalogue, visible_to
from kikimimi.roles import assign_with_preferences, claims
from kikimimi.roles.claims import Claim, ClaimBoard, ClaimError

from .reasoning import VOCAB, Reasoner, refute
from .options import OPTIONS
from .rules import TEAMS, default_deck

BOTS = ("reason", "reason-town", "reason-witches", "plain", "random")
CLAIM = re.compile(r"\b(mirror|priest)((?:,?\s+\d+\s+(?:witch|human))+)")


def claim_text(findings: Mapping[int, str], role: str = "mirror") -> str:
    return f"{role} " + ", ".join(f"{t} {f}" for t, f in sorted(findings.items()))


def parse_claim(text: str, role: str = "mirror") -> dict[int, str] | None:
    """The findings a speech claims for `role` ("mirror 3 witch, 5 human"), or None."""
    for m in CLAIM.finditer(text):
        if m.group(1) == role:
            return {int(t): f for t, f in re.findall(r"(\d+)\s+(witch|human)", m.group(2))}
    return None


def role_of(spoken: Any) -> str:
    """A role from its parameter: the catalogue key (`role:mirror`) or its spoken English name."""
    text = str(spoken)
    if text.startswith("role:"):
        return text[5:]
    _, names = load_catalogue("witch", "en")
    return next((k[5:] for k, v in names.items() if k.startswith("role:") and v == text), text)


class BotSeat:
    """One seat's knowledge, fed only with the phrases its seat hears."""

    def __init__(self, seat: int, players: int, style: str, rng: random.Random,
                 deck: Sequence[str] | None = None, talk: random.Random | None = None,
                 worlds: tuple[int, ...] | None = None):
        """`deck`: the table's role deck, public (a table setting).  `rng`, `talk` and
        `worlds` (the key of the sampled worlds) are this seat's own: the table draws
        them apart from the deal and never hands a seat the seed that deals the roles
        (docs/bots.md, "What a bot is handed")."""
        self.seat, self.players, self.style, self.rng = seat, players, style, rng
        self.deck = list(deck) if deck is not None else default_deck(players)
        self.worlds_key = worlds if worlds is not None else (0, seat)
        #: A reasoning seat's talk (chatter, how long it holds the microphone, silence) draws on a
        #: generator of its own, so a role-dependent choice never shifts what the table hears of it.
        self.talk = talk if talk is not None else random.Random(f"talk-0-{seat}")
        self.board = ClaimBoard()
        self.night_gone: set[int] = set()  # left overnight: never a witch
        self.voted_out: set[int] = set()
        self.mind = Reasoner(self)
        self.role: str | None = None
        self.partners: list[int] = []
        self.alive = set(range(1, players + 1))
        self.findings: dict[int, str] = {}  # my own (mirror, priest)
        self.claimed: dict[int, str] = {}  # what I have claimed so far
        self.claims: dict[int, dict[int, str]] = {}  # mirror claimant -> its findings
        self.priest_claims: dict[int, dict[int, str]] = {}  # priest claimant -> its findings
        self.witch_choice: int | None = None
        self.tied: list[int] = []  # today's count tied between these seats: the revote
        self.exorcised = False
        self.day = 0

    def hear(self, ev: Any) -> None:
        """One phrase this seat heard: a logged `say`, or an ear's `Heard` (parameters as spoken)."""
        if isinstance(ev, Mapping):
            to, key, p = ev.get("to"), ev.get("key"), ev.get("params") or {}
        else:
            to, key, p = ev.to, ev.key, ev.params
        mine = to == f"seat:{self.seat}"
        if key == "your-role" and mine:
            self.role = role_of(p["role"])
        elif key == "partners" and mine:
            self.partners = list(p["seats"])
        elif key in ("mirror-result", "priest-result") and mine:
            self.findings[int(p["target"])] = str(p["found"]).rsplit(":", 1)[-1]
        elif key in ("voted-out", "morning"):
            self.alive -= set(p["seats"])
            (self.voted_out if key == "voted-out" else self.night_gone).update(p["seats"])
        elif key == "day":
            self.day, self.witch_choice, self.tied = int(p["day"]), None, []
        elif key == "revote":
            self.tied = [int(x) for x in p["seats"]]
        elif key == "witches-chose" and mine:
            self.witch_choice = int(p["seat"])
        elif key == "speech" and p.get("seat") != self.seat:
            self._heard_speech(int(p["seat"]), str(p.get("text", "")))

    def _heard_speech(self, seat: int, text: str) -> None:
        """Another seat's words: its claims go on the board (and in today's books, so the
        plain bots hear the channel too); chatter and a garbled claim line are ignored."""
        said: tuple[Claim, ...] = ()
        if claims.looks_like_claims(text):
            try:
                said = claims.parse(text, VOCAB)
            except ClaimError:
                return
        else:
            for role in ("mirror", "priest"):
                found = parse_claim(text, role)
                if found:
                    said += (claims.co(role), *(claims.found(role, t, f) for t, f in found.items()))
        if not said:
            return
        self.board.post(seat, self.day, said)
        refute(self.board, seat, said, self.day, self.voted_out)
        for c in said:
            book = {"mirror": self.claims, "priest": self.priest_claims}.get(c.role or "")
            if c.kind == "FOUND" and book is not None and c.target is not None and c.result is not None:
                book.setdefault(seat, {})[c.target] = c.result

    @property
    def mode(self) -> str:
        """How this seat plays: its style, `reason-town` and `reason-witches` split by the seat's team."""
        if self.style == "reason-town":
            return "plain" if TEAMS.get(self.role or "") == "witches" else "reason"
        if self.style == "reason-witches":
            return "reason" if TEAMS.get(self.role or "") == "witches" else "plain"
        return self.style

    # -- decisions ------------------------------------------------------------------
    def others(self) -> list[int]:
        return sorted(self.alive - {self.seat})

    def is_witch(self) -> bool:
        return self.role == "witch"

    def trusted_claimant(self) -> int | None:
        """The mirror claimant this seat believes (never one who lied about what it knows)."""
        honest = []
        known = dict(self.findings)
        if len(self.priest_claims) == 1:  # a lone priest claim is believed
            known.update(next(iter(self.priest_claims.values())))
        for c, found in self.claims.items():
            lies = any((t == self.seat or t in self.partners) and f == "witch" and not self.is_witch()
                       for t, f in found.items())
            lies = lies or any(known.get(t, f) != f for t, f in found.items())
            if not lies and c in self.alive:
                honest.append(c)
        if self.role == "mirror" or not honest:
            return None
        return sorted(honest)[self.day % len(honest)] if len(honest) > 1 else honest[0]

    def speech(self, answer: bool = False) -> str | None:
        """What this seat says at its turn; a second turn (`answer`) of a reasoning seat
        says only a new claim line, else nothing (None)."""
        if self.mode == "reason":
            said = self.mind.speech()
            return said if said or answer else self.chatter()
        if self.mode == "plain":
            if self.role in ("mirror", "priest") and self.findings and self.findings != self.claimed:
                self.claimed = dict(self.findings)
                return claim_text(self.claimed, self.role)
            if self.is_witch() and self.seat == min([self.seat, *[p for p in self.partners if p in self.alive]]):
                pool = [s for s in self.others() if s not in self.partners and s not in self.claimed]
                if pool and self.day >= 1:
                    self.claimed[self.rng.choice(pool)] = "witch"  # never a partner: a consistent lie
                    return claim_text(self.claimed)
        return self.chatter()

    def chatter(self) -> str:
        rng = self.talk if self.mode == "reason" else self.rng
        return rng.choice(["...", "hmm, who could it be", "I trust seat " + str(rng.choice(self.others()))])

    def vote(self) -> int:
        others = self.others()
        if self.mode == "random" or not others:
            return self.rng.choice(others or [self.seat])
        if self.mode == "reason":
            return self.mind.vote()
        if self.is_witch():
            rivals = [c for c in self.claims if c in self.alive and c not in self.partners]
            pool = rivals or [s for s in others if s not in self.partners] or others
            return self.rng.choice(pool)
        known = dict(self.findings)
        trusted = self.trusted_claimant()
        if trusted is not None:
            known.update(self.claims[trusted])
        witches = [s for s, f in known.items() if f == "witch" and s in self.alive and s != self.seat]
        if witches:
            return min(witches)
        liars = [c for c in self.claims if c in self.alive and c != trusted and c != self.seat]
        if liars:
            return min(liars)
        safe = {s for s, f in known.items() if f == "human"} | set(self.partners) | (
            {trusted} if trusted is not None else set())
        return self.rng.choice([s for s in others if s not in safe] or others)

    def night_target(self) -> int:
        others = self.others()
        if not others:
            return self.seat
        if self.mode == "reason":
            return self.mind.night_target()
        if self.mode == "random":  # legal at random: a witch never names a witch
            return self.rng.choice([s for s in others if not (self.is_witch() and s in self.partners)] or others)
        if self.is_witch():
            if self.witch_choice in self.alive:
                return self.witch_choice
            claimants = [c for c in self.claims if c in self.alive and c not in self.partners]
            return self.rng.choice(claimants or [s for s in others if s not in self.partners] or others)
        if self.role == "mirror":
            unknown = [s for s in others if s not in self.findings]
            return self.rng.choice(unknown or others)
        if self.role == "knight":
            trusted = self.trusted_claimant()
            return trusted if trusted is not None else self.rng.choice(others)
        return self.rng.choice(others)


class WitchSimulation:
    """The table: deals the cards, runs the prologue, days and nights; bots act through it."""

    def __init__(self, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None):
        style = bot or "reason"
        if style not in BOTS:
            raise ValueError(f"unknown bot {style!r} (have: {', '.join(BOTS)})")
        self.opts = OPTIONS.parse(players, options)
        self.rng = random.Random(seed)
        self.players = players
        self.style = style
        deck = self.opts["roles"]
        #: Each seat's own generators, from streams apart from the deal's (`self.rng`); the
        #: key of its sampled worlds drawn from one more, so no seat holds the seed.
        keys = random.Random(f"worlds-{seed}")
        self.bots = {s: BotSeat(s, players, style, random.Random(seed * 1000 + s), deck,
                                random.Random(f"talk-{seed}-{s}"), (keys.getrandbits(64), s))
                     for s in range(1, players + 1)}
        plan = assign_with_preferences(self.opts["roles"], self.opts["preferences"], players, self.rng)
        counts: dict[str, int] = {}
        self.cards: dict[int, str] = {}
        for seat in range(1, players + 1):
            counts[plan[seat]] = counts.get(plan[seat], 0) + 1
            self.cards[seat] = f"witch:role-{plan[seat]}-{counts[plan[seat]]}"
        self.queue: deque[tuple[str, int]] = deque()
        self.alive = set(range(1, players + 1))
        self.phase = "deal"
        self.over = False
        self.idle = 0
        self._mic_seconds = 1.0

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        for ev in events:
            if ev.get("type") == "game-over":
                self.over = True
            if ev.get("type") != "say":
                continue
            for seat, bot in self.bots.items():
                if visible_to(ev, seat):
                    bot.hear(ev)
            if visible_to(ev, None):
                self._table(ev)

    def _table(self, ev: Mapping[str, Any]) -> None:
        """What the table (everybody) heard on the speaker starts the next round of acts."""
        key, p = ev.get("key"), ev.get("params") or {}
        if key in ("voted-out", "morning"):
            self.alive -= set(p["seats"])
        if key == "scan-role":
            self.queue.extend(("card", s) for s in self._order(range(1, self.players + 1)))
        elif key == "prologue":
            self.phase = "prologue"
            talkers = self._order(self.alive)[:2]
            self.queue.extend([("speak", s) for s in talkers] + [("ok", s) for s in self._order(self.alive)])
        elif key == "day":
            self.phase = "day"
            self.queue.clear()
            order = self._order(self.alive)
            together = self.opts["day_acts"] in ("together", "acts")
            at_calls = self.opts["day_acts"] == "together"  # silence and ballots only at calls all answer
            if not at_calls:
                self.queue.extend(("silence" if together else "power", s) for s in order)
            self.queue.extend(("speak", s) for s in order)
            if self.style.startswith("reason"):  # a second turn: answer the claims heard in the first
                self.queue.extend(("answer", s) for s in order)
            if at_calls:  # the talk done: a silence call, then the referee's `next` calls the vote
                self.queue.append(("silencecall", 0))
            for s in [] if at_calls else self._order(self.alive):  # together: every seat's day act, then its ballot
                self.queue.extend([("act", s), ("vote", s)] if together else [("vote", s)])
        elif key == "silence-call":
            self.queue.extend(("hush", s) for s in self._order(self.alive))
        elif key == "vote-now-all":
            for s in self._order(self.alive):
                self.queue.extend([("act", s), ("vote", s)])
        elif key == "last-word":
            self.queue.extend(("vote", s) for s in self._order(self.alive))
        elif key == "revote":
            self.queue.clear()
            self.queue.extend(("vote", s) for s in self._order(self.alive))
        elif key == "night":
            self.phase = "night"
            self.queue.clear()
            self.queue.extend(("night", s) for s in self._order(self.alive))

    def _order(self, seats: Any) -> list[int]:
        out = sorted(seats)
        self.rng.shuffle(out)
        return out

    def next_input(self) -> dict[str, Any] | None:
        if self.over:
            return None
        while self.queue:
            what, seat = self.queue.popleft()
            line = self._act(what, seat)
            if line is not None:
                self.idle = 0
                return line
        self.idle += 1
        return {"console": "next" if self.idle < 50 else "stop", "dt": 1.0}

    def _act(self, what: str, seat: int) -> dict[str, Any] | None:
        if what == "silencecall":  # the referee's
            return {"console": "silencecall"}
        bot = self.bots[seat]
        hand = {"reader": "hand", "seat": seat}
        if what == "card":
            return {**hand, "tag": self.cards[seat], "dt": 2.0}
        if what == "mic-off":  # the token comes off the field after the speech
            return {"reader": "field", "tag": f"seat:{seat}", "removed": True, "dt": self._mic_seconds}
        if seat not in self.alive:
            return None
        if what == "ok":
            return {**hand, "tag": "cmd:ok"}
        if what == "speak":
            return self._speak(seat, bot.speech() or bot.chatter())
        if what == "answer":
            text = bot.speech(answer=True)
            return self._speak(seat, text) if text else None
        if what == "vote":
            return {**hand, "tag": f"seat:{bot.vote()}", "dt": 1.5}
        if what == "night":
            return {**hand, "tag": f"seat:{bot.night_target()}", "dt": 2.0}
        if what == "power":
            return self._power(seat, bot)
        if what == "silence":
            return self._silence(seat, bot)
        if what == "hush":  # a silence call: every seat answers, SILENCE or PASS
            return self._silence(seat, bot) or {"console": f"nosilence {seat}"}
        if what == "act":
            return self._day_act(seat, bot)
        return None

    def _silence(self, seat: int, bot: BotSeat) -> dict[str, Any] | None:
        rng = self.rng if self.style in ("plain", "random") else bot.talk
        return {"console": f"silence {seat}"} if bot.others() and rng.random() < 0.4 else None

    def _day_act(self, seat: int, bot: BotSeat) -> dict[str, Any] | None:
        """The day act (`day_acts` together): the power, or PASS and any seat, typed as the
        two scans they are; the same for every role, so nothing but the role moves it."""
        others = bot.others()
        if not others:
            return None
        line = self._power(seat, bot, silence=False)
        return line if line is not None else {"console": f"pass {seat} {self.rng.choice(others)}"}

    def _speak(self, seat: int, text: str) -> dict[str, Any]:
        """Claims are typed (console); otherwise odd seats type and even seats talk
        with their token on the field reader, so both ways to play are exercised."""
        if seat % 2 or self.phase != "day" or parse_claim(text) or claims.looks_like_claims(text):
            return {"console": f"speak {seat} {text}", "dt": 3.0}
        rng = self.rng if self.style in ("plain", "random") else self.bots[seat].talk  # a reasoning seat's own
        seconds = round(rng.uniform(5, 40), 1)
        self.queue.appendleft(("mic-off", seat))
        self._mic_seconds = seconds
        return {"reader": "field", "tag": f"seat:{seat}", "dt": 1.0}

    def _power(self, seat: int, bot: BotSeat, silence: bool = True) -> dict[str, Any] | None:
        """The day's powers and silence.  Today's bots draw on the table's generator; a
        reasoning seat on its own, so no other seat's role moves its choices."""
        others = bot.others()
        if not others:
            return None
        rng = self.rng if self.style in ("plain", "random") else bot.rng
        if bot.role == "priest" and not bot.exorcised and bot.day >= 2 and bot.mode == "reason":
            target = bot.mind.exorcise_target()
            if target is not None:
                bot.exorcised = True
                return {"console": f"exorcise {seat} {target}"}
        elif bot.role == "priest" and not bot.exorcised and bot.day >= 2 and rng.random() < 0.5:
            bot.exorcised = True
            return {"console": f"exorcise {seat} {rng.choice(others)}"}
        if bot.role == "human" and rng.random() < 0.3:
            return {"console": f"advise {seat} {rng.choice(others)}"}
        if silence and (rng if self.style in ("plain", "random") else bot.talk).random() < 0.4:
            return {"console": f"silence {seat}"}
        return None
