"""The claim channel of the hidden-role games: what a seat says it is and what it found.

In the spirit of AIWolf's agent protocol (COMINGOUT, DIVINED/IDENTIFIED,
VOTE, ESTIMATE), a claim is a small typed fact a seat *asserts*, true or a
lie.  Bots say claims as one line of text, so at a table they ride on the
game's own speech and cost its microphone time like any speech; and they
read other seats' claims from what those seats said, which is untrusted
text: `parse` bounds it and refuses anything else in one line.

The text form, one or more sentences joined by "; ":

    CO mirror                 I am the mirror-user (COMINGOUT)
    FOUND mirror 5 witch      as the mirror-user, I found seat 5 to be a witch
    VOTE 5                    I mean to vote for seat 5
    ESTIMATE 5 witch          I think seat 5 is a witch (an opinion, no fact)

The vocabulary (roles, results, seat range) is the game's, so the channel
knows no game.  `ClaimBoard` keeps what each seat has claimed, per day.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: Longest claim text read, in characters: a speech is bounded, and so is a claim line.
MAX_TEXT = 400
#: Most sentences one claim line may hold.
MAX_CLAIMS = 16

KINDS = ("CO", "FOUND", "VOTE", "ESTIMATE")
_WORD = re.compile(r"[a-z][a-z0-9-]{0,23}")
_SEAT = re.compile(r"[1-9][0-9]?")


class ClaimError(ValueError):
    """A text that is not a claim line; its message is one line for a log or a referee."""


@dataclass(frozen=True)
class Vocabulary:
    """What a game's claims may name: its roles, its findings' results, its seats 1..seats."""

    roles: frozenset[str]
    results: frozenset[str]
    seats: int

    @classmethod
    def of(cls, roles: Iterable[str], results: Iterable[str], seats: int) -> Vocabulary:
        return cls(frozenset(roles), frozenset(results), seats)


@dataclass(frozen=True)
class Claim:
    """One asserted fact.  `role` is the role claimed (CO), found with (FOUND) or
    guessed (ESTIMATE, which may name a result too); `target` and `result` as the kind needs."""

    kind: str
    role: str | None = None
    target: int | None = None
    result: str | None = None

    def text(self) -> str:
        if self.kind == "CO":
            return f"CO {self.role}"
        if self.kind == "FOUND":
            return f"FOUND {self.role} {self.target} {self.result}"
        if self.kind == "VOTE":
            return f"VOTE {self.target}"
        return f"ESTIMATE {self.target} {self.role}"


def co(role: str) -> Claim:
    return Claim("CO", role=role)


def found(role: str, target: int, result: str) -> Claim:
    return Claim("FOUND", role=role, target=target, result=result)


def vote(target: int) -> Claim:
    return Claim("VOTE", target=target)


def estimate(target: int, role: str) -> Claim:
    return Claim("ESTIMATE", role=role, target=target)


def text(claims: Iterable[Claim]) -> str:
    """The line a seat says for these claims."""
    return "; ".join(c.text() for c in claims)


def looks_like_claims(line: str) -> bool:
    """Whether a speech is meant as a claim line (starts with a claim word); chatter is not."""
    head = line.lstrip()[:9].split(" ", 1)[0]
    return head in KINDS


def parse(line: str, vocab: Vocabulary) -> tuple[Claim, ...]:
    """The claims of one line; ClaimError (one line, naming the fault) for anything else."""
    if not isinstance(line, str):
        raise ClaimError("a claim line is text")
    if len(line) > MAX_TEXT:
        raise ClaimError(f"a claim line is at most {MAX_TEXT} characters, not {len(line)}")
    if any(not ch.isprintable() for ch in line):
        raise ClaimError("a claim line holds printable characters only")
    parts = [p.strip() for p in line.split(";")]
    if len(parts) > MAX_CLAIMS:
        raise ClaimError(f"a claim line holds at most {MAX_CLAIMS} claims, not {len(parts)}")
    return tuple(_sentence(p, n, vocab) for n, p in enumerate(parts, 1))


def _sentence(part: str, n: int, vocab: Vocabulary) -> Claim:
    words = part.split()
    if not words or words[0] not in KINDS:
        raise ClaimError(f"claim {n}: starts with one of {', '.join(KINDS)}")
    kind, args = words[0], words[1:]
    want = {"CO": 1, "FOUND": 3, "VOTE": 1, "ESTIMATE": 2}[kind]
    if len(args) != want:
        raise ClaimError(f"claim {n}: {kind} takes {want} word{'s' if want > 1 else ''}, not {len(args)}")
    if kind == "CO":
        return co(_role(args[0], n, vocab))
    if kind == "VOTE":
        return vote(_seat(args[0], n, vocab))
    if kind == "FOUND":
        result = args[2]
        if result not in vocab.results:
            raise ClaimError(f"claim {n}: unknown result {result[:24]!r}")
        return found(_role(args[0], n, vocab), _seat(args[1], n, vocab), result)
    guess = args[1]
    if guess not in vocab.roles and guess not in vocab.results:
        raise ClaimError(f"claim {n}: unknown role or result {guess[:24]!r}")
    return estimate(_seat(args[0], n, vocab), guess)


def _role(word: str, n: int, vocab: Vocabulary) -> str:
    if not _WORD.fullmatch(word) or word not in vocab.roles:
        raise ClaimError(f"claim {n}: unknown role {word[:24]!r}")
    return word


def _seat(word: str, n: int, vocab: Vocabulary) -> int:
    if not _SEAT.fullmatch(word) or not 1 <= int(word) <= vocab.seats:
        raise ClaimError(f"claim {n}: a seat is a number 1-{vocab.seats}, not {word[:24]!r}")
    return int(word)


@dataclass
class ClaimBoard:
    """What every seat has claimed: its latest line per day, and what stands of it.

    A seat's role claim is its latest CO (a FOUND names a role, so it claims
    that role too); its findings are every FOUND it ever said, the latest per
    target (`changed` records a seat that said two results for one target:
    a liar in every world; `refuted`, one whose claims a game's public facts
    disprove, as the game calls `refute`).  VOTE and ESTIMATE are opinions, kept per day."""

    lines: dict[int, dict[int, tuple[Claim, ...]]] = field(default_factory=dict)  # day -> seat -> claims
    roles: dict[int, str] = field(default_factory=dict)
    findings: dict[int, dict[int, str]] = field(default_factory=dict)  # seat -> target -> result
    changed: set[int] = field(default_factory=set)
    refuted: set[int] = field(default_factory=set)
    version: int = 0  # moves with every line posted
    facts: int = 0  # moves only when what the worlds weigh moves (a role claim, a finding, a liar)

    def post(self, seat: int, day: int, claims: Iterable[Claim]) -> None:
        said = tuple(claims)
        if not said:
            return
        self.version += 1
        before = (self.roles.get(seat), dict(self.findings.get(seat, {})), seat in self.changed)
        self.lines.setdefault(day, {})[seat] = said
        for c in said:
            if c.kind in ("CO", "FOUND") and c.role is not None:
                self.roles[seat] = c.role
            if c.kind == "FOUND" and c.target is not None and c.result is not None:
                book = self.findings.setdefault(seat, {})
                if book.get(c.target, c.result) != c.result:
                    self.changed.add(seat)
                book[c.target] = c.result
        if before != (self.roles.get(seat), self.findings.get(seat, {}), seat in self.changed):
            self.facts += 1

    def refute(self, seat: int) -> None:
        """A seat said what no honest seat could (by a game's public facts): a liar in every world."""
        if seat not in self.refuted:
            self.refuted.add(seat)
            self.version += 1
            self.facts += 1

    def liars(self) -> frozenset[int]:
        """Seats lying in every world: a finding changed, or refuted."""
        return frozenset(self.changed | self.refuted)

    def claimants(self, role: str | None = None) -> list[int]:
        """Seats with a role claim (of `role`, if named), in seat order."""
        return sorted(s for s, r in self.roles.items() if role is None or r == role)

    def intentions(self, day: int) -> dict[int, int]:
        """Seat -> the seat it said it will vote for, that day."""
        out: dict[int, int] = {}
        for seat, said in self.lines.get(day, {}).items():
            for c in said:
                if c.kind == "VOTE" and c.target is not None:
                    out[seat] = c.target
        return out

    def estimates(self, day: int, result: str) -> dict[int, int]:
        """Seat -> the seat it said (ESTIMATE) holds `result` (a role or a finding's result), that day."""
        out: dict[int, int] = {}
        for seat, said in self.lines.get(day, {}).items():
            for c in said:
                if c.kind == "ESTIMATE" and c.target is not None and c.role == result:
                    out[seat] = c.target
        return out

    def stands(self) -> Mapping[int, tuple[str, Mapping[int, str]]]:
        """Seat -> (claimed role, its findings): what the worlds weigh."""
        return {s: (r, dict(self.findings.get(s, {}))) for s, r in self.roles.items()}
