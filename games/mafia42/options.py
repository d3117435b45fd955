"""The header options of a マフィア42 table (docs/contract.md), on the shared schema.

Every value comes from a script header, a config file or the console: the
schema (`OPTIONS`) refuses a bad name, mode, clock or skill in one line naming
the option; what it cannot say (a deck must fit the player count and the
printed cards, a changed job keeps its printed team) is checked here, in the
game's own one line.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from kikimimi.game import anything, choice, number, Options, seat_table

from .jobs import Catalogue, CatalogueError, default_catalogue
from .power import MODES, SKILLS

TIMERS = {"night": 25, "discussion_per_player": 15, "vote": 15, "defence": 15, "approval": 10, "morning": 5}
CLOCK_HELP = {"night": "seconds a night lasts", "discussion_per_player": "seconds of discussion per living player",
              "vote": "seconds the vote lasts", "defence": "seconds of the accused's last defence",
              "approval": "seconds the approval vote lasts", "morning": "seconds the morning news lasts"}
OPTIONS = Options(
    choice("mode", MODES, "the app's mode; cult is for 9 to 12 players"),
    anything("jobs", None, "the job deck (a list of job names, one per seat); default: the catalogue's deal"),
    seat_table("skills", SKILLS[1:], "seats' skills, e.g. {\"3\": \"escape\"}"),
    anything("job_changes", {}, "changes to the catalogue's jobs, {job: {key: value}} (docs: jobs.toml)"),
    *(number(name, seconds, CLOCK_HELP[name], low=1, high=600)
      for name, seconds in TIMERS.items()),
)
DEFAULTS: dict[str, Any] = OPTIONS.defaults
CULT_PLAYERS = range(9, 13)


def cult_deck(deck: list[str], players: int) -> list[str]:
    """The seed's cult: 9-11 players one cult leader, 12 a cult leader and a fanatic,
    in place of the deck's last citizens."""
    cult = ["cult-leader"] + (["fanatic"] if players == 12 else [])
    out = list(deck)
    for job in cult:
        spot = max((i for i, j in enumerate(out) if j == "citizen"), default=None)
        if spot is None:
            spot = max(i for i, j in enumerate(out)
                       if j not in ("mafia", "police", "doctor", "cult-leader", "lover", "society"))
        out[spot] = job
    return out


def parse_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Validated options with the catalogue and the deck filled in; ValueError names the bad one."""
    out = OPTIONS.parse(players, options)
    if out["mode"] == "cult" and players not in CULT_PLAYERS:
        raise ValueError("cult mode is for 9 to 12 players")
    out["catalogue"] = table_catalogue(out["job_changes"])
    out["jobs"] = deck(out["catalogue"], out["mode"], players, out["jobs"])
    return out


def table_catalogue(changes: Any) -> Catalogue:
    """The catalogue with the table's changes: only the jobs whose cards are printed, and never
    their team, their helper mark or their contact, which the cards show."""
    for name, fields in changes.items() if isinstance(changes, Mapping) else ():
        if name not in default_catalogue():
            raise ValueError(f"job_changes: {str(name)[:32]!r} is not a job of the catalogue "
                             "(a new job and its cards go into jobs.toml)")
        if isinstance(fields, Mapping) and {"team", "helper", "contact"} & set(fields):
            raise ValueError(f"job_changes: {name}'s team is printed on its card; change the catalogue")
    try:
        return default_catalogue().changed(changes) if changes else default_catalogue()
    except CatalogueError as exc:
        raise ValueError(str(exc)) from None


def deck(catalogue: Catalogue, mode: str, players: int, jobs: Any) -> list[str]:
    """The deck dealt (the catalogue's for this count unless the table names one): one printed
    card a seat, no more copies than the catalogue prints, a mafia, pairs whole, the cult in its mode."""
    if jobs is None:
        jobs = list(catalogue.deals.get(players, ()))
        if mode == "cult":
            jobs = cult_deck(jobs, players)
    if not isinstance(jobs, list) or len(jobs) != players or not all(isinstance(j, str) for j in jobs):
        raise ValueError(f"jobs must list one job name per player ({players})")
    bad = [j for j in jobs if j not in catalogue]
    if bad:
        raise ValueError(f"jobs: unknown job {bad[0][:32]!r}")
    counts = Counter(jobs)
    over = [j for j, n in counts.items() if n > catalogue[j].count]
    if over:
        raise ValueError(f"jobs: at most {catalogue[over[0]].count} {over[0]} in a deck")
    if not any(catalogue[j].team == "mafia" and not catalogue[j].helper for j in jobs):
        raise ValueError("jobs: the deck needs at least one mafia")
    if mode != "cult" and any(catalogue[j].team == "cult" for j in jobs):
        raise ValueError("jobs: the cult plays only in cult mode")
    for pair in ("lover", "society"):
        if counts.get(pair, 0) not in (0, 2):
            raise ValueError(f"jobs: {pair} come in pairs")
    return jobs
