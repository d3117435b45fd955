"""The tagged pieces of an Intrige table: advisors (owner's colour, role, copy) and section tokens."""
from __future__ import annotations

from typing import NamedTuple

from .editions import ALL_ROLES, COPIES

SET = "intrigue"
MAX_SEATS = 5
MAX_SECTIONS = 5


class Advisor(NamedTuple):
    owner: int
    role: str
    copy: int

    @property
    def tag(self) -> str:
        return f"{SET}:advisor-{self.owner}-{self.role}-{self.copy}"


def advisor_tag(owner: int, role: str, copy: int) -> str:
    return Advisor(owner, role, copy).tag


def section_tag(k: int) -> str:
    return f"{SET}:section-{k}"


def parse_advisor(tag: str) -> Advisor | None:
    """The advisor a tag names, or None (a section token, a typo)."""
    prefix = f"{SET}:advisor-"
    if not tag.startswith(prefix):
        return None
    parts = tag[len(prefix):].split("-")
    if len(parts) != 3 or not parts[0].isdigit() or parts[1] not in ALL_ROLES or not parts[2].isdigit():
        return None
    owner, copy = int(parts[0]), int(parts[2])
    if not 1 <= owner <= MAX_SEATS or not 1 <= copy <= COPIES:
        return None
    return Advisor(owner, parts[1], copy)


def advisor_of(tag: str) -> Advisor:
    """The advisor of a tag the game itself placed (never raw input: use `parse_advisor`)."""
    a = parse_advisor(tag)
    if a is None:
        raise ValueError(f"not an advisor: {tag!r}")
    return a


def parse_section(tag: str) -> int | None:
    prefix = f"{SET}:section-"
    if tag.startswith(prefix) and tag[len(prefix):].isdigit():
        k = int(tag[len(prefix):])
        if 1 <= k <= MAX_SECTIONS:
            return k
    return None


def all_tags(players: int) -> frozenset[str]:
    """Every piece of the biggest edition for `players` seats (an edition refuses what it lacks)."""
    advisors = {advisor_tag(s, r, c) for s in range(1, players + 1) for r in ALL_ROLES for c in range(1, COPIES + 1)}
    return frozenset(advisors | {section_tag(k) for k in range(1, MAX_SECTIONS + 1)})
