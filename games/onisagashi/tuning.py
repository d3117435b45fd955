"""`kikimimi sim onisagashi --games N`: how many declarations until someone answers.

Compares the best-declaration bots with bots that declare at random among
the cards they have not settled, on the same seeds (hence the same deals in
each round's first turn), so the difference is the algorithm's worth.
"""
from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Iterable, Sequence

from kikimimi.design.confidence import rate
from kikimimi.design.fairness import first_of, seat_wins
from kikimimi.game import Ask, each_kind, Log, Report, Row, Script, Trial

from .options import OPTIONS


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
    """Each seed twice: the best-declaration bots, then the asked (or random) ones (its text
    gives each kind's shared first places: its trials are each kind's own, so none is added to
    the comparison's measures)."""
    ladder = ("random", "best")  # weak to strong (--versus ladder)

    def trials(self, ask: Ask) -> Iterable[Trial]:
        """Who declares first rotates with the seed (unless `--option first=N`), as in `kikimimi
        report`: a seat's edge and the turn order's are told apart."""
        for trial in each_kind(ask, styles(ask.bot)):
            if "first" in ask.options:
                yield trial
            else:
                yield dataclasses.replace(trial, options={**trial.options, "first": first_of(trial.seed, trial.players)})

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, list[int]]:
        return {"turns": turns_per_round(log), "wins": seat_wins(log, trial.players)}

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        results = _results(rows)
        kinds = list(results)
        rules = OPTIONS.parse(ask.players, ask.options)["rules"]
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
        lines += [seats_and_places(rows, kind) for kind in kinds]
        return "\n".join(lines)

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return _plot(_results(rows), path)


def seats_and_places(rows: Sequence[Row], kind: str) -> str:
    """One kind's win rate by seat (chair) and by place in the turn order (1 declares first),
    with Wilson's 95 % interval; first places are shared, so the rates add up to more than 100 %."""
    mine = [(t, f) for t, f in rows if t.label == kind]
    n = len(mine)
    players = mine[0][0].players if mine else 0
    seats = [sum(f["wins"][k] for _, f in mine) for k in range(players)]
    places = [sum(f["wins"][(int(t.options.get("first", 1)) - 1 + k) % players] for t, f in mine)
              for k in range(players)]
    ties = sum(sum(f["wins"]) > 1 for _, f in mine)
    firsts = {int(t.options.get("first", 1)) for t, _ in mine}
    dealt = "who begins rotates with the seed" if len(firsts) > 1 else f"seat {min(firsts, default=1)} begins every game"
    return (f"  {kind} bots, win rate by seat: " + ", ".join(f"seat {k + 1} {rate(w, n).percent()}" for k, w in
                                                           enumerate(seats))
            + f"; by place in turn order (1 declares first; {dealt}): "
            + ", ".join(f"{k + 1}. {rate(w, n).percent()}" for k, w in enumerate(places))
            + f"; a shared first place in {rate(ties, n).percent()} of games")


def styles(bot: str | None) -> list[str]:
    return ["best", bot if bot and bot != "best" else "random"]


def _results(rows: Sequence[Row]) -> dict[str, list[int]]:
    results: dict[str, list[int]] = {}
    for trial, figures in rows:
        results.setdefault(trial.label, []).extend(figures["turns"])
    return results


def _plot(results: dict[str, list[int]], path: str) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "  (no plot: install the 'report' extra for matplotlib)"
    fig, ax = plt.subplots()
    top = max(max(v) for v in results.values() if v)
    for style, turns in results.items():
        ax.hist(turns, bins=range(0, top + 2), alpha=0.5, label=style)
    ax.set_xlabel("declarations until the answer")
    ax.set_ylabel("rounds")
    ax.legend()
    fig.savefig(path)
    return f"  plot written to {path}"
