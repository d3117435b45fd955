"""`kikimimi report GAME`: plan the games, play them (on one core or many), and
write the page.  The page holds the exact command and seeds that reproduce it
and nothing that depends on how it was run (no date, no worker count, no
cluster), so one worker, many, or a cluster give the same bytes."""
from __future__ import annotations

import functools
import shlex
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi import versus
from kikimimi.declared import check_bot, part
from kikimimi.declaration import Declaration
from kikimimi.report import analysis, figures, page
from kikimimi.report.run import Job, play_all, play_job
from kikimimi.tuning import arms as arms_of


def plan_of(decl: Declaration, games: int, seed: int, counts: Sequence[int], options: Mapping[str, Any],
            bots: Sequence[str | None], variants: Mapping[str, Sequence[Any]], baseline: str | None,
            detect: float | None, command: str) -> tuple[analysis.Plan, list[Job]]:
    """The arms and every game to play, in a fixed order: arm, then count, then seed."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games: give a whole number from 1 to {MAX_GAMES:,}")
    for b in bots:
        check_bot(decl, b)
    for k in counts:
        if not decl.min_players <= k <= decl.max_players:
            raise ValueError(f"{decl.name} is for {decl.min_players}-{decl.max_players} players, not {k}")
    if any(not v for v in variants.values()):
        raise ValueError("a varied option needs at least one value")
    if detect is not None and not 0 < detect < 100:
        raise ValueError("--detect: a change in percentage points, more than 0 and less than 100")
    ways = arms_of(list(bots), {k: list(v) for k, v in variants.items()}, dict(options))
    names = [w.name for w in ways]
    if baseline not in (None, versus.ALL_PAIRS):
        versus.pairs_of(names, baseline)  # names the arms when the baseline is none of them
    deal = part(decl, decl.report)().deal if decl.report else _as_asked
    if len(ways) * len(counts) * games > MAX_PLAN:
        raise ValueError(f"{len(ways)} arms × {len(counts)} counts × {games} games is more than {MAX_PLAN:,} games")
    for w in ways:  # a wrong option is said before the games, not from the first worker to meet it
        for k in counts:
            decl.check_options(k, deal(seed, k, dict(w.options)))
    jobs = [Job(w.name, s, k, deal(s, k, dict(w.options)), w.bot)
            for w in ways for k in counts for s in range(seed, seed + games)]
    plan = analysis.Plan(decl.name, names, {w.name: w.bot for w in ways}, {w.name: dict(w.options) for w in ways},
                         list(counts), games, seed, {k: list(v) for k, v in variants.items()}, baseline, detect,
                         command)
    return plan, jobs


#: The most games per arm and count, and in one report: a plan is held in memory.
MAX_GAMES = 1_000_000
MAX_PLAN = 5_000_000


def _as_asked(seed: int, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    return dict(options)


def command_line(game: str, games: int, seed: int, counts: Sequence[int], options: Sequence[str],
                 versus_bots: str | None, bot: str | None, variants: Sequence[str], baseline: str | None,
                 detect: float | None, output: str) -> str:
    """The command that reproduces the page (the worker count changes nothing, so it is left out)."""
    words = ["kikimimi", "report", game, "--games", str(games), "--seed", str(seed),
             "--players", ",".join(map(str, counts))]
    for o in options:
        words += ["--option", o]
    if bot:
        words += ["--bot", bot]
    if versus_bots:
        words += ["--versus", versus_bots]
    for v in variants:
        words += ["--variant", v]
    if baseline:
        words += ["--baseline", baseline]
    if detect is not None:
        words += ["--detect", f"{detect:g}"]
    words += ["-o", output]
    return shlex.join(words)


def make(decl: Declaration, plan: analysis.Plan, jobs: Sequence[Job], workers: int = 1,
         progress: bool = True, cluster: str | None = None) -> str:
    """Play every job (here, in worker processes, or on a Ray cluster) and return the page's HTML."""
    if cluster:
        from kikimimi.report.cluster import run_on_cluster

        facts = run_on_cluster(functools.partial(play_job, decl.name), jobs, cluster, progress,
                               f"report {decl.name}")
    else:
        # The page's drawing library loads while the workers play: otherwise its import
        # is serial time after the last game, which two cores cannot share.
        warm = threading.Thread(target=figures.warm_up, daemon=True) if workers > 1 else None
        if warm:
            warm.start()
        facts = play_all(decl.name, jobs, workers, progress, label=f"report {decl.name}")
        if warm:
            warm.join()
    results: dict[str, dict[int, list[tuple[int, Any]]]] = {a: {k: [] for k in plan.counts} for a in plan.arms}
    for job, f in zip(jobs, facts):
        results[job.arm][job.players].append((job.seed, f))
    title = f"{decl.name}: the designer's report"
    last = plan.seed + plan.games - 1
    intro = [
        f"{plan.games} bot games per arm and player count (seeds {plan.seed}–{last}, the same seeds in every arm), "
        f"at {', '.join(map(str, plan.counts))} players; arms: "
        + "; ".join(f"{a} (bot {plan.bots[a] or 'default'}"
                    + (", " + ", ".join(f"{k}={v}" for k, v in plan.options[a].items()) if plan.options[a] else "")
                    + ")" for a in plan.arms) + ".",
        "Every rate has Wilson's 95 % interval; every difference between arms is paired by seed and player count.",
    ]
    return page.render(title, intro, analysis.sections(plan, results), plan.command)
