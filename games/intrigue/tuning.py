"""The designer's table: what many bot games of Intrige say about its balance.

It plays through the real engine (`kikimimi.design.sim.play`), so the figures are
those of the code that runs at the table.  Bribes are read from the
referee's log (hidden offers included).
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.design import confidence
from kikimimi.design import duel as duels
from kikimimi.design.plot import bars, histogram
from kikimimi.game import Ask, Log, Report, Row, Script, Trial

from .bots import EV
from .options import OPTIONS


def game_stats(log: Log) -> dict[str, Any]:
    """One game's figures: winners, final cash, bribes, conflicts."""
    over = next((e for e in log if e["type"] == "game-over"), None)
    ranking = over["ranking"] if over else []
    offers = [e["amount"] for e in log if e["type"] == "offer"]
    return {
        "reason": over["reason"] if over else "unfinished",
        "winners": [e["seat"] for e in ranking if e["place"] == 1],
        "places": {e["seat"]: e["place"] for e in ranking},
        "cash": {e["seat"]: e["cash"] for e in ranking},
        "bribes": sum(1 for a in offers if a > 0),
        "bribed": sum(offers),
        "conflicts": sum(1 for e in log if e["type"] == "conflict"),
        "dismissed": sum(1 for e in log if e["type"] == "dismiss"),
        "turns": sum(1 for e in log if e["type"] == "turn"),
    }


def _mean(xs: list[float]) -> str:
    return f"mean {statistics.fmean(xs):,.0f}, median {statistics.median(xs):,.0f}" if xs else "none"


def report(stats: list[dict[str, Any]], players: int, kinds: Mapping[int, str] | None = None) -> str:
    n = len(stats)
    if not n:
        return "no games played"
    lines = [f"Intrige: {n} bot games, {players} players"]
    wins: Counter[int] = Counter(s for st in stats for s in st["winners"])
    label = {s: f"seat {s}" + (f" ({kinds[s]})" if kinds else "") for s in range(1, players + 1)}
    lines.append("win rate by seat (ties share): "
                 + ", ".join(f"{label[s]} {wins[s] / n:.1%}" for s in range(1, players + 1)))
    ties = sum(1 for st in stats if len(st["winners"]) > 1)
    lines.append(f"games with a shared first place: {ties / n:.1%}")
    finals = [c for st in stats for c in st["cash"].values()]
    spreads = [max(st["cash"].values()) - min(st["cash"].values()) for st in stats if st["cash"]]
    lines.append(f"final cash: {_mean(finals)}; spread (richest - poorest): {_mean(spreads)}")
    lines.append(f"bribes paid per game: {statistics.fmean(st['bribes'] for st in stats):.1f} "
                 f"(total {_mean([st['bribed'] for st in stats])})")
    conflicts = [st["conflicts"] for st in stats]
    lines.append(f"conflicts per game: {statistics.fmean(conflicts):.1f} over "
                 f"{statistics.fmean(st['turns'] for st in stats):.0f} turns; games with a conflict: "
                 f"{sum(1 for c in conflicts if c) / n:.1%}; advisors out per game: "
                 f"{statistics.fmean(st['dismissed'] for st in stats):.1f}")
    endings = Counter(st["reason"] for st in stats)
    lines.append("endings: " + ", ".join(f"{r} {c / n:.1%}" for r, c in sorted(endings.items())))
    return "\n".join(lines)


def _first(trial: Trial) -> int:
    """The seat that began every round of a trial's game, as the play parsed it."""
    first: int = OPTIONS.parse(trial.players, trial.options)["first"]
    return first


def by_position(rows: Sequence[Row], players: int) -> str:
    """Win rate by place in the turn order (1 = the seat that begins every round),
    with 95 % intervals: the first player's edge, apart from any seat's."""
    wins: Counter[int] = Counter()
    for trial, st in rows:
        first = _first(trial)
        wins.update((s - first) % players + 1 for s in st["winners"])
    n = len(rows)
    return ("win rate by turn position (ties share; 1 = begins each round): "
            + ", ".join(f"{k}. {confidence.rate(wins[k], n).percent()}" for k in range(1, players + 1)))


def focal(trial: Trial, st: dict[str, Any]) -> int:
    return int(st["places"].get(duels.focal_seat(trial.seed, trial.players), trial.players))


class IntrigueReport(Report):
    """Every game at the asked count, the seat that begins rotated with the game
    (unless `--option first=N` fixes it), so the first player's edge is measured
    apart from seat 1's; mixed bots are labelled by seat; final cash as the plot.
    `--bot ev` plays each seed twice, with the expected-value bot in one seat and
    with a greedy bot there (kikimimi/design/duel.py)."""

    duels = {EV: "greedy"}
    by_chair = frozenset({"mixed"})  # greedy and random bots in turn: not identical bots
    shares_first = True  # equal cash shares the first place
    ladder = ("random", "greedy", "ev-table")  # weak to strong (--versus ladder)

    def trials(self, ask: Ask) -> list[Trial]:
        if "first" in ask.options or ask.bot in self.duels:
            return list(super().trials(ask))
        return [Trial(ask.seed + i, ask.players, {**ask.options, "first": i % ask.players + 1}, ask.bot)
                for i in range(ask.games)]

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, Any]:
        return game_stats(log)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        if ask.bot == EV:
            title = "Intrige: the expected-value bot in one seat (rotated with the seed) among greedy bots"
            return duels.text(title, EV, "greedy", duels.outcomes(rows, focal), ask.players)
        return self._text(rows, ask) + "\n" + by_position(rows, ask.players)

    def _text(self, rows: Sequence[Row], ask: Ask) -> str:
        from .bots import IntrigueSimulation

        kinds = IntrigueSimulation(ask.seed, ask.players, dict(ask.options), ask.bot).kinds \
            if ask.bot == "mixed" else None
        return report([stats for _, stats in rows], ask.players, kinds)

    def plot(self, rows: Sequence[Row], path: str) -> str:
        if any(trial.label == duels.CONTENDER for trial, _ in rows):
            players = rows[0][0].players
            shares = duels.place_shares(duels.outcomes(rows, focal), players)
            return bars(shares, [f"place {k}" for k in range(1, players + 1)], path, "share of games")
        return histogram([c for _, st in rows for c in st["cash"].values()], path, "final cash", "players")
