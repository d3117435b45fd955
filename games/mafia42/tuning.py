"""`kikimimi sim mafia42 --games N`: win rates per team by mode and player
count, the reasoning town beside today's town, and how often each job's
ability decided a game.

Each game deals a deck drawn at random from the catalogue (the default
decks hold only some jobs), so every job's ability gets its turn, over a grid
of counts and modes; given `jobs` or `mode` (`--option`, `--variant`), every
game is played at the asked count with exactly the asked options instead.  "Decided"
means the ability changed the board in the night, vote or morning that
ended the game (`decided_by` of the `game-over` event).

Without `--bot`, every deal is played twice in the same run, by the
reasoning bots (`reason`) and by today's (`plain`), same seed, same deck,
same seats: the citizens' win rates side by side with their 95 % intervals,
and the difference paired by deal, called significant only when its
interval excludes zero (`kikimimi.design.confidence`).  `--bot KIND` plays one kind.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.design.confidence import paired, rate, verdict
from kikimimi.game import Ask, Log, Report, Row, Script, Trial

from .bots import BOTS

from .jobs import Catalogue, default_catalogue
from .options import CULT_PLAYERS, parse_options

GRID = ((4, ("classic", "general")), (8, ("classic", "general")), (12, ("classic", "general", "cult")),
        (10, ("cult",)))


def random_deck(rng: random.Random, players: int, mode: str, catalogue: Catalogue | None = None) -> list[str]:
    """A playable deck: mafia (a quarter), perhaps a helper, police, doctor, then special citizens."""
    cat = catalogue or default_catalogue()
    mafia = max(1, players // 4)
    deck = ["mafia"] * mafia
    helpers = sorted(n for n, j in cat.jobs.items() if j.helper)
    if players >= 5:
        deck.append(rng.choice(helpers))
    deck += ["police", "doctor"][: players - len(deck)]
    if mode == "cult":
        deck += ["cult-leader"] + (["fanatic"] if players == 12 else [])
    specials = sorted(n for n, j in cat.jobs.items()
                      if j.team == "citizens" and n not in ("police", "doctor", "citizen"))
    rng.shuffle(specials)
    for job in specials:
        room = players - len(deck)
        size = 2 if job in ("lover", "society") else 1
        if room >= size:
            deck += [job] * size
    return deck + ["citizen"] * (players - len(deck))


#: The options that shape the deck: given one, the report plays the deck asked for, not the grid's.
DECK_OPTIONS = ("jobs", "mode")


def as_asked(ask: Ask) -> bool:
    """Whether the designer chose the deck (`jobs`) or the mode: then every game is played at the
    asked count with exactly the asked options (the game's own deal when no `jobs`), so `sim
    --variant jobs=…` (or `mode=…`) compares what it says and agrees with `kikimimi report`."""
    return any(k in ask.options for k in DECK_OPTIONS)


def _parsed(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as the game reads them (`options.parse_options`): a `jobs` typed as one
    string, or no `jobs` (the catalogue's deal), is the deck the game deals."""
    return parse_options(players, options)


def _cells(ask: Ask) -> list[tuple[int, str]]:
    """The (player count, mode) cells of the grid the report fills (one cell when played as asked)."""
    if as_asked(ask):
        return [(ask.players, str(_parsed(ask.players, ask.options)["mode"]))]
    cells = [(n, m) for n, modes in GRID for m in modes]
    if ask.players not in {n for n, _ in cells}:
        cells.append((ask.players, "classic"))
    return cells


#: The lines that tell a job's ability at work (its results are spoken, to the table or to the
#: job's seat, not sent as events): the designer's page counts each, and lists it at 0 when no game
#: used it (`Report.abilities`; a revival is its own event, `revived`, so it is not counted twice).
ABILITIES = {
    "saved": "doctor: save", "police-mafia": "police: check, mafia found", "police-not-mafia": "police: check, not mafia",
    "threatened-done": "gangster: threat", "scoop": "reporter: scoop", "revelation": "prophet: revelation",
    "envoy": "society: envoy", "found-moon": "society: the moon found", "judge-revealed": "judge: decides",
    "politician-survives": "politician: not executed", "escaped": "skill: escape", "cursed": "witch: curse",
    "marked": "beastman: mark", "seduced": "madam: seduce", "robbed": "thief: rob",
    "magic-set": "magician: trick set", "magic-fired": "magician: trick worked",
    "lover-died-for-you": "lover: took the bullet", "client-killed": "mercenary: client killed",
    "job-of": "a job learned (spy, medium)", "helper-joined": "helper: contact with the mafia",
    "converted-job": "cult leader: conversion", "convert-failed": "cult leader: conversion failed",
}


class Mafia42Report(Report):
    """`games` games in every cell of the grid (count x mode), each with a random deck."""

    abilities = ABILITIES
    ladder = ("plain", "reason")  # weak to strong (--versus ladder)

    def trials(self, ask: Ask) -> Iterable[Trial]:
        cells = _cells(ask)
        rng = random.Random(ask.seed)
        kinds = _kinds(ask)
        if as_asked(ask):
            for g in range(ask.games):
                for kind in kinds:
                    yield Trial(ask.seed + g, ask.players, dict(ask.options), kind, label=cells[0])
            return
        rest = dict(ask.options)
        for n, mode in cells:
            for g in range(ask.games):
                deck = random_deck(rng, n, mode)
                for kind in kinds:
                    yield Trial(ask.seed + g, n, {**rest, "mode": mode, "jobs": deck}, kind, label=(n, mode))

    def figures(self, trial: Trial, script: Script, log: Log) -> Mapping[str, Any] | None:
        return next((ev for ev in reversed(log) if ev["type"] == "game-over"), None)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        kinds = _kinds(ask)
        if len(kinds) == 1:
            return self.one_kind(rows, ask)
        parts = [self.one_kind([r for r in rows if r[0].bot == kind], ask, kind) for kind in kinds]
        teams = ["citizens", "mafia"] + (["cult"] if any(m == "cult" for _, m in _cells(ask)) else [])
        return "\n\n".join([*(_versus(rows, ask, kinds, team) for team in teams), *parts])

    def one_kind(self, rows: Sequence[Row], ask: Ask, kind: str | None = None) -> str:
        cells = _cells(ask)
        wins: dict[tuple[int, str], Counter] = {c: Counter() for c in cells}
        days: dict[tuple[int, str], list[int]] = {c: [] for c in cells}
        decided: Counter = Counter()
        dealt: Counter = Counter()
        for trial, over in rows:
            if over is None:
                wins[trial.label]["unfinished"] += 1
                continue
            wins[trial.label][over["winner"]] += 1
            days[trial.label].append(int(over.get("day", 0)))
            for job in set(_parsed(trial.players, trial.options)["jobs"]):  # the deck the game dealt
                dealt[job] += 1
            for job in over.get("decided_by", []):
                decided[job] += 1
        bots = f"{kind} bots, " if kind else ""
        deck = (f"the deck {','.join(_parsed(ask.players, ask.options)['jobs'])}" if "jobs" in ask.options
                else "the catalogue's deal" if as_asked(ask) else "random decks")
        lines = [f"mafia42: {ask.games} bot games per cell, {bots}{deck} from catalogue "
                 f"{default_catalogue().version}", "players mode     mafia citizens cult  void  mean days"]
        for (n, mode) in cells:
            w, total = wins[(n, mode)], max(1, sum(wins[(n, mode)].values()))
            d = days[(n, mode)]
            rates = " ".join(f"{100 * w[t] / total:5.1f}%" for t in ("mafia", "citizens", "cult", "void"))
            unfinished = f"  unfinished {w['unfinished']}" if w["unfinished"] else ""
            lines.append(f"{n:7d} {mode:8s} {rates}  {sum(d) / max(1, len(d)):5.2f}{unfinished}")
        total_games = sum(sum(w.values()) for w in wins.values())
        lines.append(f"abilities that changed the board in the deciding phase ({total_games} games):")
        if not decided:
            lines.append("  none")
        for job, count in decided.most_common():
            base = dealt.get(job, 0)
            share = f"{100 * count / base:.1f}% of the {base} games dealing it" if base else "a shared skill"
            lines.append(f"  {job:12s} {count:5d} games ({share})")
        return "\n".join(lines)


def _kinds(ask: Ask) -> tuple[str | None, ...]:
    """The bot kinds the report plays: the one asked for, or the reasoning bots beside today's."""
    return (ask.bot,) if ask.bot else BOTS


def _versus(rows: Sequence[Row], ask: Ask, kinds: Sequence[str | None], team: str) -> str:
    """One team's win rate per cell and bot kind, and the difference paired by deal."""
    a, b = str(kinds[0]), str(kinds[1])
    won: dict[tuple[Any, str], dict[int, float]] = {}
    for trial, over in rows:
        hit = 1.0 if over is not None and over["winner"] == team else 0.0
        won.setdefault((trial.label, str(trial.bot)), {})[trial.seed] = hit
    owner = team + ("'" if team.endswith("s") else "'s")
    lines = [f"mafia42: the {owner} win rate, {a} bots beside {b} bots (each deal played by both; "
             f"{ask.games} deals per cell, seeds {ask.seed}..{ask.seed + ask.games - 1}; 95 % intervals)",
             f"players mode     {a + ' bots':>24s} {b + ' bots':>24s}  {a} − {b} (paired by deal)"]
    for cell in _cells(ask):
        if team == "cult" and cell[1] != "cult":
            continue
        x, y = won.get((cell, a), {}), won.get((cell, b), {})
        seeds = sorted(set(x) & set(y))
        xs, ys = [x[s] for s in seeds], [y[s] for s in seeds]
        if not seeds:
            continue
        diff = paired(xs, ys) if len(seeds) > 1 else None
        said = f"{diff.points()}, {verdict(diff)}" if diff is not None else "one deal: no interval"
        lines.append(f"{cell[0]:7d} {cell[1]:8s} {rate(int(sum(xs)), len(xs)).percent():>24s} "
                     f"{rate(int(sum(ys)), len(ys)).percent():>24s}  {said}")
    return "\n".join(lines)
