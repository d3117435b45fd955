"""`kikimimi sim onisagashi --games N`: how many declarations until someone answers.

Compares the best-declaration bots with bots that declare at random among
the cards they have not settled, on the same seeds (hence the same deals in
each round's first turn), so the difference is the algorithm's worth.
"""
from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from typing import Any


def turns_per_round(log) -> list[int]:
    """Declarations made in each round up to its verdict."""
    out, n = [], 0
    for ev in log:
        if ev["type"] == "declare":
            n += 1
        elif ev["type"] == "verdict":
            out.append(n)
            n = 0
    return out


def tune(games: int, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None,
         plot: str | None = None, progress: bool = True) -> str:
    from kikimimi.sim import play

    styles = ["best", bot if bot and bot != "best" else "random"]
    results: dict[str, list[int]] = {s: [] for s in styles}
    seeds: Iterable[int] = range(seed, seed + games)
    if progress:
        from tqdm import tqdm

        seeds = tqdm(seeds, desc="onisagashi", unit="game")
    for g in seeds:
        for style in styles:
            _, log = play("onisagashi", g, players, dict(options), style)
            results[style] += turns_per_round(log)
    rules = dict(options).get("rules", "beginner")
    lines = [f"onisagashi: {games} games x {len(styles)} bot kinds, {players} players, {rules} rules",
             "declarations until the round's answer (per round):"]
    for style, turns in results.items():
        if not turns:
            lines.append(f"  {style:7s} no finished rounds")
            continue
        q = statistics.quantiles(turns, n=10) if len(turns) > 1 else [turns[0]] * 9
        lines.append(f"  {style:7s} rounds={len(turns)} mean={statistics.mean(turns):.2f} "
                     f"median={statistics.median(turns):g} p90={q[8]:g} max={max(turns)}")
    if all(results.values()) and len(styles) == 2:
        a, b = (statistics.mean(results[s]) for s in styles)
        lines.append(f"  {styles[1]} bots need {b / a:.2f}x the declarations of best bots")
    if plot:
        lines.append(_plot(results, plot))
    return "\n".join(lines)


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
