"""The designer's table for 闇に笑う魔女: what many bot games say about a role deck.

Games run through the real engine (`kikimimi.sim.play`).  The report gives
each team's win rate by player count and role mix, the game length in days,
and how often each night rule (and each way a vote ended) fired per game.
`--option counts=[5,8,12]` plays the games spread over those player counts.
"""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.tuning import Ask, Log, Report, Row, Script, Trial

from .rules import ROLES, TEAMS

WINNERS = ("islanders", "witches", "imp", "void")


def game_stats(log: Log, players: int) -> dict[str, Any]:
    """One game's figures, read from its event log (the referee's copy)."""
    over = next((e for e in log if e["type"] == "game-over"), None)
    roles = Counter(str(r["role"]) for r in over["ranking"]) if over else Counter()
    fired: Counter[str] = Counter()
    for e in log:
        if e["type"] == "night-rules":
            fired.update(e["fired"])
        elif e["type"] == "out-cause" and str(e["cause"]).startswith("vote-"):
            fired[e["cause"]] += 1
        elif e["type"] == "silence":
            fired["silence"] += 1
        elif e["type"] == "say" and e.get("key") == "revote":
            fired["revote"] += 1
    days = max((int(e["day"]) for e in log if e["type"] == "phase" and e["phase"] == "day"), default=0)
    return {"players": players, "winner": over["winner"] if over else "unfinished",
            "mix": mix_label(roles), "days": days, "fired": fired}


def mix_label(roles: Mapping[str, int]) -> str:
    return " ".join(f"{role}×{roles[role]}" if roles[role] > 1 else role for role in ROLES if roles.get(role))


def report(stats: list[dict[str, Any]]) -> str:
    n = len(stats)
    if not n:
        return "no games played"
    lines = [f"闇に笑う魔女: {n} bot games"]
    groups: dict[tuple[int, str], list[dict[str, Any]]] = defaultdict(list)
    for s in stats:
        groups[(s["players"], s["mix"])].append(s)
    lines.append("win rate by player count and role mix (islanders / witches / imp / unfinished or stopped):")
    for (players, mix), group in sorted(groups.items()):
        wins = Counter(s["winner"] for s in group)
        k = len(group)
        rest = k - wins["islanders"] - wins["witches"] - wins["imp"]
        lines.append(f"  {players:2d} players, {k:4d} games  {wins['islanders'] / k:6.1%} {wins['witches'] / k:6.1%} "
                     f"{wins['imp'] / k:6.1%} {rest / k:6.1%}   [{mix}]")
    days = [s["days"] for s in stats]
    lines.append(f"game length in days: mean {statistics.fmean(days):.2f}, median {statistics.median(days):g}, "
                 f"max {max(days)}")
    fired: Counter[str] = Counter()
    for s in stats:
        fired.update(s["fired"])
    lines.append("rules fired per game: " + (", ".join(f"{k} {v / n:.2f}" for k, v in sorted(fired.items()))
                                             or "none"))
    teams = sorted(set(TEAMS.values()))
    lines.append("teams: " + ", ".join(f"{t} = {', '.join(r for r in ROLES if TEAMS[r] == t)}" for t in teams))
    return "\n".join(lines)


class WitchReport(Report):
    """`--option counts=[5,8,12]` spreads the games over those player counts."""

    def trials(self, ask: Ask) -> Iterable[Trial]:
        opts = dict(ask.options)
        counts = opts.pop("counts", None) or [ask.players]
        if not isinstance(counts, list) or not all(isinstance(c, int) and 5 <= c <= 16 for c in counts):
            raise ValueError("counts must be a list of player counts 5-16, e.g. [5,8,12]")
        for i in range(ask.games):
            k = counts[i % len(counts)]
            game_opts = dict(opts)
            if "roles" in game_opts and len(game_opts["roles"]) != k:
                game_opts.pop("roles")  # a deck for another count: that count's default
            yield Trial(ask.seed + i, k, game_opts, ask.bot)

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, Any]:
        return game_stats(log, trial.players)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        return report([stats for _, stats in rows])

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return "plot skipped: the witch report is a table"
