"""The job catalogue: `jobs.toml` read into checked, immutable entries.

Jobs are data so that a table can follow the app's seasons: a new job is an
entry combining acts and effects the engine already knows (`EFFECTS`), and a
changed job is an override in the game's `job_changes` option.  Anything
the engine cannot play is refused when the catalogue is read, never at the
table in the middle of a night.
"""
from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

TEAMS = ("mafia", "citizens", "cult")
ACTS = ("night", "vote", "approval", "morning", "passive")
CONTACTS = ("", "finds-mafia", "tamed", "seduces-mafia", "robs-mafia", "curses-mafia", "dies")
#: The effects the engine plays (games/mafia42/night.py and game.py); a job names one.
EFFECTS = (
    "none", "kill", "learn-job", "mark", "seduce", "rob", "curse", "revive-self", "check-mafia",
    "protect", "unexecutable", "take-bullet", "read-dead", "scoop", "revelation", "judge",
    "avenge", "envoy", "threaten", "swap", "resurrect", "convert", "inherit",
)
#: The states under which a job's vote power changes (power.py decides them).
POWER_STATES = ("grudge", "revealed", "client-killed", "pair-alive", "unconverted")
KEYS = {"team", "helper", "contact", "acts", "effect", "uses", "from_night", "nights", "heads", "votes",
        "power", "count", "source", "summary", "joint", "again_on_contact", "shot_proof",
        "kills_when_last", "ballot", "on_morning", "unconvertible"}


class CatalogueError(ValueError):
    """A catalogue entry the engine cannot play."""


def number(value: Any, what: str) -> float:
    """A head or vote count: a non-negative whole number or "inf" (a real ∞)."""
    if value == "inf":
        return math.inf
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
        raise CatalogueError(f"{what} must be a whole number 0-99 or \"inf\", not {value!r}")
    return float(value)


@dataclass(frozen=True)
class Job:
    name: str
    team: str
    acts: str
    effect: str
    helper: bool = False
    contact: str = ""
    uses: int = 0
    from_night: int = 1
    nights: str = "all"
    heads: float = 1.0
    votes: float = 1.0
    power: tuple[tuple[str, float, float], ...] = ()
    count: int = 1
    source: str = ""
    summary: str = ""
    joint: bool = False
    again_on_contact: bool = False
    shot_proof: bool = False
    kills_when_last: bool = False
    ballot: int = 1
    on_morning: int = 0
    unconvertible: bool = False


@dataclass(frozen=True)
class Catalogue:
    version: str
    jobs: Mapping[str, Job] = field(default_factory=dict)
    deals: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Job:
        return self.jobs[name]

    def __contains__(self, name: object) -> bool:
        return name in self.jobs

    def changed(self, changes: Mapping[str, Any]) -> "Catalogue":
        """A copy with some jobs changed or added (`{job: {key: value}}`), checked like the file."""
        if not isinstance(changes, Mapping) or len(changes) > 64:
            raise CatalogueError("job_changes must be a table {job: {key: value}}")
        jobs = dict(self.jobs)
        for name, fields_ in changes.items():
            if not isinstance(fields_, Mapping):
                raise CatalogueError(f"job_changes.{name} must be a table")
            base = {} if name not in jobs else _as_raw(jobs[name])
            jobs[str(name)] = parse_job(str(name), {**base, **fields_})
        return Catalogue(f"{self.version}+changes", jobs, self.deals)


def _as_raw(job: Job) -> dict[str, Any]:
    raw: dict[str, Any] = {k: getattr(job, k) for k in KEYS if k != "power"}
    raw["heads"] = "inf" if job.heads == math.inf else int(job.heads)
    raw["votes"] = "inf" if job.votes == math.inf else int(job.votes)
    raw["power"] = [{"state": s, "heads": "inf" if h == math.inf else int(h),
                     "votes": "inf" if v == math.inf else int(v)} for s, h, v in job.power]
    return raw


def _choice(raw: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str, name: str) -> str:
    value = raw.get(key, default)
    if value not in allowed:
        names = ", ".join(repr(a) for a in allowed)
        raise CatalogueError(f"{name}: {key} must be one of {names}, not {value!r}")
    return str(value)


def _int(raw: Mapping[str, Any], key: str, default: int, low: int, high: int, name: str) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CatalogueError(f"{name}: {key} must be a whole number {low}-{high}, not {value!r}")
    return value


def _flag(raw: Mapping[str, Any], key: str, name: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise CatalogueError(f"{name}: {key} must be true or false")
    return value


def parse_job(name: str, raw: Mapping[str, Any]) -> Job:
    """One checked entry; CatalogueError names the job and the key."""
    if not name or len(name) > 32 or not all(c.isalnum() or c == "-" for c in name) or name != name.lower():
        raise CatalogueError(f"job name {name[:40]!r} must be lower-case letters, digits and '-'")
    unknown = set(raw) - KEYS
    if unknown:
        raise CatalogueError(f"{name}: unknown key {sorted(unknown)[0]!r}")
    helper = _flag(raw, "helper", name)
    team = _choice(raw, "team", TEAMS, "", name)
    contact = _choice(raw, "contact", CONTACTS, "", name)
    if helper != bool(contact) or (helper and team != "mafia"):
        raise CatalogueError(f"{name}: a helper is on the mafia team and has a contact trigger; "
                             "only a helper has one")
    power = []
    for entry in raw.get("power", ()) or ():
        if not isinstance(entry, Mapping) or entry.get("state") not in POWER_STATES:
            raise CatalogueError(f"{name}: each power entry needs a state of {', '.join(POWER_STATES)}")
        power.append((str(entry["state"]), number(entry.get("heads", 1), f"{name}: heads"),
                      number(entry.get("votes", 1), f"{name}: votes")))
    for key in ("source", "summary"):
        if not isinstance(raw.get(key, ""), str):
            raise CatalogueError(f"{name}: {key} must be text")
    return Job(
        name=name, team=team, helper=helper, contact=contact,
        acts=_choice(raw, "acts", ACTS, "", name), effect=_choice(raw, "effect", EFFECTS, "", name),
        uses=_int(raw, "uses", 0, 0, 99, name), from_night=_int(raw, "from_night", 1, 1, 99, name),
        nights=_choice(raw, "nights", ("all", "odd"), "all", name),
        heads=number(raw.get("heads", 1), f"{name}: heads"), votes=number(raw.get("votes", 1), f"{name}: votes"),
        power=tuple(power), count=_int(raw, "count", 1, 1, 12, name),
        source=str(raw.get("source", "")), summary=str(raw.get("summary", "")),
        joint=_flag(raw, "joint", name), again_on_contact=_flag(raw, "again_on_contact", name),
        shot_proof=_flag(raw, "shot_proof", name), kills_when_last=_flag(raw, "kills_when_last", name),
        ballot=_int(raw, "ballot", 1, 0, 9, name), on_morning=_int(raw, "on_morning", 0, 0, 99, name),
        unconvertible=_flag(raw, "unconvertible", name),
    )


def parse_catalogue(text: str) -> Catalogue:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(f"jobs catalogue: {exc}") from None
    version = data.get("version")
    if not isinstance(version, str) or not version:
        raise CatalogueError("jobs catalogue: needs a version string")
    jobs = data.get("jobs")
    if not isinstance(jobs, Mapping) or not jobs:
        raise CatalogueError("jobs catalogue: needs [jobs.NAME] tables")
    parsed = {name: parse_job(name, raw) for name, raw in jobs.items()}
    deals: dict[int, tuple[str, ...]] = {}
    for count, deck in (data.get("deals") or {}).items():
        if not str(count).isdigit() or not isinstance(deck, list) or len(deck) != int(count):
            raise CatalogueError(f"jobs catalogue: deals.{count} must list {count} jobs")
        unknown = [j for j in deck if j not in parsed]
        if unknown:
            raise CatalogueError(f"jobs catalogue: deals.{count} names an unknown job {unknown[0]!r}")
        deals[int(count)] = tuple(deck)
    return Catalogue(version, parsed, deals)


def default_catalogue() -> Catalogue:
    """The packaged catalogue (read once; it is immutable)."""
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files(__package__).joinpath("jobs.toml").read_text(encoding="utf-8")
        _DEFAULT = parse_catalogue(text)
    return _DEFAULT


_DEFAULT: Catalogue | None = None


