"""The designer's table: what many bot games say about the rules' balance.

It plays through the real engine (`kikimimi.sim.play`), so the figures are
those of the code that runs at the table, not of a model of it.
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kikimimi.plot import histogram
from kikimimi.tuning import Ask, Log, Report, Row, Script, Trial

from .pieces import BY_TAG, KIND_LABELS


def game_stats(script: Script, log: Log) -> dict[str, Any]:
    """One game's figures: winner, ending, length, penalties, deciding piece kind."""
    over = next((e for e in log if e["type"] == "game-over"), None)
    plays = [e for e in log if e["type"] == "play" and not e.get("opening")]
    # a wrong piece counts by why it was wrong, which only the referee's view of the log holds
    penalties = Counter(str(e["why"]) for e in log if e["type"] == "penalty-reason")
    penalties.update(str(e["reason"]) for e in log if e["type"] == "penalty" and e["reason"] != "wrong-piece")
    last = plays[-1]["tag"] if plays else None
    return {
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


class TridentReport(Report):
    """Every game at the asked count; a histogram of turns per game as the plot."""

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, Any]:
        return game_stats(script, log)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        return report([stats for _, stats in rows], ask.players)

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return histogram([stats["turns"] for _, stats in rows], path, "turns per game", "games")
