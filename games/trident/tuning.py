"""The designer's table: what many bot games say about the rules' balance.

It plays through the real engine (`kikimimi.sim.play`), so the figures are
those of the code that runs at the table, not of a model of it.
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kikimimi import confidence
from kikimimi.plot import bars, histogram
from kikimimi.tuning import Ask, Log, Report, Row, Script, Trial

from .pieces import BY_TAG, KIND_LABELS
from .search import focal_seat
from .simulation import SEARCH


def game_stats(script: Script, log: Log) -> dict[str, Any]:
    """One game's figures: winner, ending, length, penalties, deciding piece kind."""
    over = next((e for e in log if e["type"] == "game-over"), None)
    plays = [e for e in log if e["type"] == "play" and not e.get("opening")]
    # a wrong piece counts by why it was wrong, which only the referee's view of the log holds
    penalties = Counter(str(e["why"]) for e in log if e["type"] == "penalty-reason")
    penalties.update(str(e["reason"]) for e in log if e["type"] == "penalty" and e["reason"] != "wrong-piece")
    last = plays[-1]["tag"] if plays else None
    return {
        "places": {e["seat"]: e["place"] for e in over["ranking"]} if over else {},
        "winner": over["ranking"][0]["seat"] if over else None,
        "reason": over["reason"] if over else "unfinished",
        "inputs": len(script) - 1,
        "turns": sum(1 for e in log if e["type"] == "turn"),
        "penalties": penalties,
        "deciding": KIND_LABELS[BY_TAG[last].kind] if last else None,
    }


def report(stats: list[dict[str, Any]], players: int) -> str:
    n = len(stats)
    if not n:
        return "no games played"
    lines = [f"The Trident: {n} bot games, {players} players"]
    wins = Counter(s["winner"] for s in stats)
    lines.append("win rate by seat: " + ", ".join(f"seat {k} {wins[k] / n:.1%}" for k in range(1, players + 1)))
    reasons = Counter(s["reason"] for s in stats)
    lines.append("endings: " + ", ".join(f"{r} {c / n:.1%}" for r, c in sorted(reasons.items())))
    lines.append(f"crash rate: {reasons['crash'] / n:.1%}")
    for what in ("inputs", "turns"):
        xs = [s[what] for s in stats]
        lines.append(f"game length ({what}): mean {statistics.fmean(xs):.1f}, median {statistics.median(xs):g}")
    pen: Counter[str] = Counter()
    for s in stats:
        pen.update(s["penalties"])
    lines.append("penalties per game: " + (", ".join(f"{k} {v / n:.2f}" for k, v in sorted(pen.items())) or "none"))
    out = [s for s in stats if s["reason"] in ("out", "crash") and s["deciding"]]
    deciding = Counter(s["deciding"] for s in out)
    lines.append("deciding (last played) piece kind, games ended by out or crash: "
                 + (", ".join(f"{k} {v / len(out):.1%}" for k, v in deciding.most_common()) or "none"))
    return "\n".join(lines)


def focal(trial: Trial, stats: dict[str, Any]) -> tuple[int, int]:
    """(won, place) of the seat the search bot takes in this seed's game
    (an unfinished game counts as last place)."""
    seat = focal_seat(trial.seed, trial.players)
    place = stats["places"].get(seat, trial.players)
    return int(place == 1), place


def duel(rows: Sequence[Row], ask: Ask) -> tuple[str, dict[str, list[tuple[int, int]]]]:
    """The search bot against the bot it replaces, seed by seed (the same deal)."""
    assert ask.bot is not None
    others = SEARCH[ask.bot]
    by: dict[str, list[tuple[int, int]]] = {"search": [], others: []}
    for trial, stats in rows:
        by[str(trial.label)].append(focal(trial, stats))
    n = len(by["search"])
    lines = [f"The Trident: the search bot in one seat (rotated with the seed) among {others} bots, "
             f"against a {others} bot in that seat: {n} deals, each played both ways, {ask.players} players"]
    for who, xs in by.items():
        wins = sum(w for w, _ in xs)
        lines.append(f"  {who:>7}: win rate {confidence.rate(wins, len(xs)).percent()}, "
                     f"mean place {confidence.mean([p for _, p in xs]).mean()}")
    a, b = by["search"], by[others]
    win = confidence.paired([w for w, _ in a], [w for w, _ in b])
    place = confidence.paired([p for _, p in a], [p for _, p in b])
    lines.append(f"  search − {others}: win rate {win.points()}, {confidence.verdict(win)}; "
                 f"mean place {place.plain()}, {confidence.verdict(place)}")
    lines.append(f"  (fair share of wins: {1 / ask.players:.1%}; intervals are 95 %, paired by deal)")
    return "\n".join(lines), by


class TridentReport(Report):
    """Every game at the asked count; a histogram of turns per game as the plot.
    With a search bot (`--bot search`, `--bot search-random`), every seed is
    played twice, by the search bot and by the bot it replaces, and the report
    is the difference, with its interval."""

    def trials(self, ask: Ask) -> list[Trial]:
        if ask.bot not in SEARCH:
            return list(super().trials(ask))
        others = SEARCH[ask.bot]
        return [Trial(ask.seed + i, ask.players, dict(ask.options), bot, label)
                for i in range(ask.games) for bot, label in ((ask.bot, "search"), (others, others))]

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, Any]:
        return game_stats(script, log)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        if ask.bot in SEARCH:
            return duel(rows, ask)[0]
        return report([stats for _, stats in rows], ask.players)

    def plot(self, rows: Sequence[Row], path: str) -> str:
        labels = {str(trial.label) for trial, _ in rows}
        if "search" in labels:
            places: dict[str, list[int]] = {}
            for trial, stats in rows:
                places.setdefault(str(trial.label), []).append(focal(trial, stats)[1])
            players = rows[0][0].players
            series = {who: [sum(p == k for p in xs) / len(xs) for k in range(1, players + 1)]
                      for who, xs in places.items()}
            return bars(series, [f"place {k}" for k in range(1, players + 1)], path, "share of games")
        return histogram([stats["turns"] for _, stats in rows], path, "turns per game", "games")
