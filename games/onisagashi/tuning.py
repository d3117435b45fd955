"""`kikimimi sim onisagashi --games N`: how many declarations until someone answers.

Compares the best-declaration bots with bots that declare at random among
the cards they have not settled, on the same seeds (hence the same deals in
each round's first turn), so the difference is the algorithm's worth.
"""
from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Iterable, Sequence

from kikimimi.design.fairness import first_of
from kikimimi.game import Ask, each_kind, Log, Report, Row, Script, Trial


def turns_per_round(log: Log) -> list[int]:
    """Declarations made in each round up to its verdict."""
    out, n = [], 0
    for ev in log:
        if ev["type"] == "declare":
            n += 1
        elif ev["type"] == "verdict":
            out.append(n)
            n = 0
    return out


class OnisagashiReport(Report):
    """Each seed twice: the best-declaration bots, then the asked (or random) ones."""

    def trials(self, ask: Ask) -> Iterable[Trial]:
        """Who declares first rotates with the seed (unless `--option first=N`), as in `kikimimi
        report`: a seat's edge and the turn order's are told apart."""
        for trial in each_kind(ask, styles(ask.bot)):
            if "first" in ask.options:
                yield trial
            else:
                yield dataclasses.replace(trial, options={**trial.options, "first": first_of(trial.seed, trial.players)})

    def figures(self, trial: Trial, script: Script, log: Log) -> list[int]:
        return turns_per_round(log)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        results = _results(rows)
        kinds = list(results)
        rules = dict(ask.options).get("rules", "beginner")
        lines = [f"onisagashi: {ask.games} games x {len(kinds)} bot kinds, {ask.players} players, {rules} rules",
                 "declarations until the round's answer (per round):"]
        for style, turns in results.items():
            if not turns:
                lines.append(f"  {style:7s} no finished rounds")
                continue
            q = statistics.quantiles(turns, n=10) if len(turns) > 1 else [turns[0]] * 9
            lines.append(f"  {style:7s} rounds={len(turns)} mean={statistics.mean(turns):.2f} "
                         f"median={statistics.median(turns):g} p90={q[8]:g} max={max(turns)}")
        if all(results.values()) and len(kinds) == 2:
            a, b = (statistics.mean(results[s]) for s in kinds)
            lines.append(f"  {kinds[1]} bots need {b / a:.2f}x the declarations of best bots")
        return "\n".join(lines)

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return _plot(_results(rows), path)


def styles(bot: str | None) -> list[str]:
    return ["best", bot if bot and bot != "best" else "random"]


def _results(rows: Sequence[Row]) -> dict[str, list[int]]:
    results: dict[str, list[int]] = {}
    for trial, turns in rows:
        results.setdefault(trial.label, []).extend(turns)
    return results


def _plot(results: dict[str, list[int]], path: str) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "  (no plot: install the 'plot' extra for matplotlib)"
    fig, ax = plt.subplots()
    top = max(max(v) for v in results.values() if v)
    for style, turns in results.items():
        ax.hist(turns, bins=range(0, top + 2), alpha=0.5, label=style)
    ax.set_xlabel("declarations until the answer")
    ax.set_ylabel("rounds")
    ax.legend()
    fig.savefig(path)
    return f"  plot written to {path}"
