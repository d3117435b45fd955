"""The designer's table: what many bot games say about the rules' balance.

It plays through the real engine (`kikimimi.design.sim.play`), so the figures are
those of the code that runs at the table, not of a model of it.
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.design import confidence
from kikimimi.design import duel as duels
from kikimimi.design.plot import bars, histogram
from kikimimi.game import Ask, Log, Report, Row, Script, Trial

from .options import TridentOptions
from .pieces import BY_TAG, KIND_LABELS
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


def report(rows: Sequence[Row], players: int) -> str:
    """The text of `kikimimi sim trident --games N`: every rate of a seat with
    Wilson's 95 % interval (kikimimi/design/confidence.py, as the designer's page)."""
    stats = [s for _, s in rows]
    n = len(stats)
    if not n:
        return "no games played"
    lines = [f"The Trident: {n} bot games, {players} players"]
    wins = Counter(s["winner"] for s in stats)
    lines.append("win rate by seat (95 % interval): "
                 + ", ".join(f"seat {k} {confidence.rate(wins[k], n).percent()}" for k in range(1, players + 1)))
    firsts = Counter(_first(trial) for trial, _ in rows)
    if len(firsts) > 1:  # the first player rotated: the edge of a place in the turn order, apart from a chair's
        places = Counter((s["winner"] - _first(trial)) % players + 1
                         for trial, s in rows if s["winner"] is not None)
        lines.append("win rate by place in turn order (1 plays first; the first player rotates with the seed): "
                     + ", ".join(f"{k}. {confidence.rate(places[k], n).percent()}" for k in range(1, players + 1)))
    else:
        lines.append(f"the first player: seat {next(iter(firsts))} in every game")
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


def _first(trial: Trial) -> int:
    """The seat that played first in a trial's game, as the play parsed it."""
    return TridentOptions.parse(trial.players, trial.options).first


def focal(trial: Trial, stats: dict[str, Any]) -> int:
    """The place of the seat the search bot takes in this seed's game
    (an unfinished game counts as last place)."""
    return int(stats["places"].get(duels.focal_seat(trial.seed, trial.players), trial.players))


def duel(rows: Sequence[Row], ask: Ask) -> tuple[str, dict[str, list[tuple[int, int]]]]:
    """The search bot against the bot it replaces, seed by seed (the same deal)."""
    assert ask.bot is not None
    others = SEARCH[ask.bot]
    by = duels.outcomes(rows, focal)
    title = (f"The Trident: the search bot in one seat (rotated with the seed) among {others} bots, "
             f"against a {others} bot in that seat")
    return duels.text(title, "search", others, by, ask.players), by


class TridentReport(Report):
    """Every game at the asked count; a histogram of turns per game as the plot.
    With a search bot (`--bot search`, `--bot search-random`), every seed is
    played twice, by the search bot and by the bot it replaces, and the report
    is the difference, with its interval (kikimimi/design/duel.py)."""

    duels = SEARCH
    ladder = ("random", "human")  # weak to strong (--versus ladder)

    def trials(self, ask: Ask) -> Iterable[Trial]:
        """Each seed's game with the first player that seed deals (`deal`, as the
        designer's page plays it), so the first player's edge is measured; a duel,
        or `--option first=N`, keeps its own."""
        if ask.bot in self.duels or "first" in ask.options:
            return super().trials(ask)
        return [Trial(s, ask.players, self.deal(s, ask.players, ask.options), ask.bot)
                for s in range(ask.seed, ask.seed + ask.games)]

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, Any]:
        return game_stats(script, log)

    def deal(self, seed: int, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The first player rotates with the seed (unless `--option first=N` fixes it):
        `kikimimi report` then reads each seat's edge by its place in the turn order."""
        return {"first": seed % players + 1, **options}

    def margin_field(self, options: Mapping[str, Any]) -> str | None:
        """The rules rank by pieces left in hand, or by their points under competition scoring
        (docs/rules/trident.md): the margin is read in the same unit."""
        return "points" if options.get("scoring") == "competition" else "pieces"

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        if ask.bot in SEARCH:
            return duel(rows, ask)[0]
        return report(rows, ask.players)

    def plot(self, rows: Sequence[Row], path: str) -> str:
        if any(trial.label == duels.CONTENDER for trial, _ in rows):
            players = rows[0][0].players
            shares = duels.place_shares(duels.outcomes(rows, focal), players)
            return bars(shares, [f"place {k}" for k in range(1, players + 1)], path, "share of games")
        return histogram([stats["turns"] for _, stats in rows], path, "turns per game", "games")
