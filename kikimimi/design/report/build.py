"""`kikimimi report GAME`: plan the games, play them (on one core or many), and
write the page.  The page holds the exact command and seeds that reproduce it
and nothing that depends on how it was run (no date, no worker count, no
cluster), so one worker, many, or a cluster give the same bytes."""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import shlex
import tempfile
import threading
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.design import fairness, versus
from kikimimi.contract.parts import check_bot, part
from kikimimi.contract.declaration import Declaration
from kikimimi.design.report import analysis, figures, page
from kikimimi.design.report.run import Job, Workers, play_job
from kikimimi.design.tuning import Arm, arms as arms_of, plain_variants


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
    report_class = part(decl, decl.report) if decl.report else None
    duels: dict[str, str] = {}
    for w in list(ways):  # a duel's contender is played beside the bot it replaces, seed by seed
        partner = getattr(report_class, "duels", {}).get(w.bot) if w.bot else None
        if partner is None:
            continue
        same = next((v for v in ways if v.bot == partner and dict(v.options) == dict(w.options)), None)
        if same is None:
            same = Arm(f"{w.name} → {partner}" if len(ways) > 1 else partner, partner, dict(w.options))
            ways.insert(ways.index(w) + 1, same)
        duels[w.name] = same.name
    names = [w.name for w in ways]
    if baseline not in (None, versus.ALL_PAIRS):
        versus.pairs_of(names, baseline)  # names the arms when the baseline is none of them
    report = part(decl, decl.report)() if decl.report else None
    dealt = report.deal if report is not None else _as_asked
    rotate = fairness.rotates(decl)

    def deal(s: int, k: int, opts: dict[str, Any]) -> dict[str, Any]:
        """A game's options: who begins rotates with the seed wherever the rules name a first
        player and the designer did not fix one, so a chair's edge and a place's are told apart."""
        out = dealt(s, k, opts)
        if rotate and fairness.FIRST not in opts:
            out.setdefault(fairness.FIRST, fairness.first_of(s, k))
        return out
    if len(ways) * len(counts) * games > MAX_PLAN:
        raise ValueError(f"{len(ways)} arms × {len(counts)} counts × {games} games is more than {MAX_PLAN:,} games")
    # a duel's two sides keep the rules' first player: its contender's seat rotates with the seed
    # instead (seed mod n + 1, as the first player would: the contender would always begin)
    dueling = set(duels) | set(duels.values())

    def dealt_for(w: Arm, s: int, k: int) -> dict[str, Any]:
        return dict(w.options) if w.name in dueling else deal(s, k, dict(w.options))

    for w in ways:  # a wrong option is said before the games, not from the first worker to meet it
        for k in counts:
            decl.check_options(k, dealt_for(w, seed, k))
    jobs = [Job(w.name, s, k, dealt_for(w, s, k), w.bot)
            for w in ways for k in counts for s in range(seed, seed + games)]
    rules = tuple(report.rules) + tuple(f"ability: {a}" for a in dict.fromkeys(report.abilities.values())) \
        if report is not None else ()
    if not rotate:
        how = "the rules name no first player: seats (chairs) only"
    elif dueling and len(dueling) == len(ways):
        how = ("a duel keeps the rules' first player (its contender's seat rotates with the seed instead), so a "
               "place's edge is that seat's")
    elif any(fairness.FIRST in w.options for w in ways):
        how = "who begins is fixed by the options (first=…): a place's edge is that seat's"
    else:
        how = ("who begins rotates with the seed (seat s mod n + 1 begins seed s), so each seat (chair) and each "
               "place in the turn order (place 1 begins) is reported apart")
    plan = analysis.Plan(decl.name, names, {w.name: w.bot for w in ways}, {w.name: dict(w.options) for w in ways},
                         list(counts), games, seed, plain_variants(variants), baseline, detect,
                         command, rules, how, duels)
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
         progress: bool = True, cluster: str | None = None, fairness: bool = False,
         tables: list[dict[str, Any]] | None = None) -> str:
    """Play every job (here, in worker processes, or on a Ray cluster) and return the page's HTML;
    `tables`, when given, receives every table of the page as plain data (`page.tables_of`)."""
    play = functools.partial(play_job, decl.name)
    label = f"report {decl.name}"
    # The helpers load the drawing library as they start, and this process while it plays:
    # otherwise its import is serial time after the last game, which the cores cannot share.
    with Workers(1 if cluster else workers, figures.warm_up) as pool:
        if cluster:
            from kikimimi.design.report.cluster import run_on_cluster

            facts = run_on_cluster(play, jobs, cluster, progress, label)
        else:
            warm = threading.Thread(target=figures.warm_up, daemon=True) if workers > 1 else None
            if warm:
                warm.start()
            facts = pool.map(play, jobs, progress, label)
            if warm:
                warm.join()
        results: dict[str, dict[int, list[tuple[int, Any]]]] = {a: {k: [] for k in plan.counts} for a in plan.arms}
        for job, f in zip(jobs, facts):
            results[job.arm][job.players].append((job.seed, f))
        sections = analysis.sections(plan, results)
        if fairness:  # on request: the null experiment of each arm's bot kind (kikimimi/design/fairness.py)
            from kikimimi.design.fairness import section

            sections.append(section(decl.name, [(plan.bots[a], plan.options[a]) for a in plan.arms], plan.counts, plan.games,
                                    plan.seed, 1 if cluster else workers))
        draw_pictures(pool, sections, progress, label)
    if tables is not None:
        tables.extend(page.tables_of(sections))
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
    return page.render(title, intro, sections, plan.command)


def draw_pictures(pool: Workers, sections: Sequence[page.Section], progress: bool, label: str) -> None:
    """Draw every picture of the page, the pool's processes side by side (a
    picture's bytes do not depend on who draws it), and put each in its place."""
    waiting = [(s, i, part.png) for s in sections for i, part in enumerate(s.parts)
               if isinstance(part, page.Figure) and callable(part.png)]
    drawn = pool.map(figures.drawn, [picture for _, _, picture in waiting], progress, f"{label}: pictures",
                     unit="picture")
    for (s, i, _), png in zip(waiting, drawn):
        s.parts[i] = dataclasses.replace(s.parts[i], png=png)


def beside(output: str) -> tuple[str, str]:
    """The JSON and CSV files of the page's tables, beside it: r.html -> r.json, r.csv."""
    path = Path(output)
    return str(path.with_suffix(".json")), str(path.with_suffix(".csv"))


def check_writable(output: str) -> None:
    """Said before the games, not after them: the page's file must be a file in a
    folder this process can write in (tried with a file of its own, as the page
    will be written)."""
    path = Path(output)
    if path.is_dir():
        raise ValueError(f"-o {output}: that is a folder; give the page's file name")
    folder = path.resolve().parent
    if not folder.is_dir():
        raise ValueError(f"-o {output}: no such folder")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.name}.", suffix=".part"):
            pass
    except OSError as exc:
        raise ValueError(f"-o {output}: cannot write in {folder}: {exc.strerror or exc}") from None


def write_page(output: str, html: str) -> None:
    """Write the page whole or not at all: into a file beside it, then renamed over
    it, so a full disk leaves no half page and an older page as it was.  When the
    page cannot be written there, the games are not lost: it is kept in the
    temporary folder and the one line (a ValueError) says where."""
    path = Path(output)
    data = html.encode("utf-8")
    try:
        _write_whole(path.resolve().parent, path.name, data, path)
        return
    except OSError as exc:
        why = exc.strerror or str(exc)
    kept: str | None = None
    with contextlib.suppress(OSError):
        fd, spare = tempfile.mkstemp(prefix=f"{path.stem}-", suffix=path.suffix or ".html")
        os.close(fd)
        try:
            _write_whole(Path(spare).parent, Path(spare).name, data, Path(spare))
            kept = spare
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(spare)
    old = " (the page that was there is as it was)" if path.is_file() else ""
    raise ValueError(f"-o {output}: {why}{old}; " + (f"the page is kept in {kept} instead" if kept
                                                      else "it could not be kept anywhere else either"))


def _write_whole(folder: Path, name: str, data: bytes, target: Path) -> None:
    fd, part = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".part")
    try:
        mask = os.umask(0o022)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # the mode a plain write would have given it
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise
