"""The designer's table for 闇に笑う魔女: what many bot games say about a role deck.

Games run through the real engine (`kikimimi.design.sim.play`).

`kikimimi sim witch --games N` (no `--bot`) sets today's town beside the
reasoning town in the same run: N deals at each player count (6, 8, 10 and
`--players`, or `--option counts=[...]`), each deal played by every kind in
`--option kinds=[...]` (default `["plain", "reason"]`: today's bots, then the
reasoning bots on both sides).  Per count and role mix it gives each kind's
win rate per team with its 95 % interval (Wilson's), and each kind against
the first: the islanders' win-rate difference paired by deal, its 95 %
interval, and whether it is significant (the interval excludes zero).

With `--bot KIND` it reports that kind alone: each team's win rate by player
count and role mix, the game length in days, and how often each night rule
(and each way a vote ended) fired per game; `--option counts=[5,8,12]`
spreads the N games over those counts.
"""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kikimimi.design import confidence
from kikimimi.game import Ask, each_kind, Log, Report, Row, Script, Trial

from .rules import ROLES, TEAMS

#: The comparison's player counts (with `--players` added) and kinds, when `--bot` is not given.
COMPARE_COUNTS = (6, 8, 10)
COMPARE_KINDS = ("plain", "reason")
#: The teams a comparison line shows.
SHOWN = ("islanders", "witches", "imp")


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


def _fitted(opts: Mapping[str, Any], players: int) -> dict[str, Any]:
    """The options at one player count: a deck for another count gives way to that count's default."""
    return {k: v for k, v in opts.items() if k != "roles" or len(v) == players}


class WitchReport(Report):
    """`--option counts=[5,8,12]` picks the player counts; without `--bot`, `--option
    kinds=[...]` the kinds compared (see the module's docstring).  A deck (`roles`) is played
    at its own count: the counts default to it, and a count it does not fit is refused."""

    own_options = frozenset({"counts", "kinds"})
    ladder = ("random", "plain", "reason")  # weak to strong (--versus ladder)
    #: Every night rule games/witch/night.py fires (`night-rules`): the page lists each, at 0
    #: when no game fired it (tests/report/test_statistics.py holds the list to night.py).
    rules = tuple(f"night: {r}" for r in ("banish", "banish-imp-immune", "banish-none", "exorcism-hit",
                                          "exorcism-miss", "guard-saved", "mirror-imp", "mirror-imp-both-leave",
                                          "mirror-untold"))

    def trials(self, ask: Ask) -> Iterable[Trial]:
        opts = dict(ask.options)
        counts = opts.pop("counts", None)
        kinds = opts.pop("kinds", None)
        if counts is not None and (not isinstance(counts, list) or not counts
                                   or not all(isinstance(c, int) and 5 <= c <= 16 for c in counts)):
            raise ValueError("counts must be a list of player counts 5-16, e.g. [5,8,12]")
        deck = opts.get("roles")
        if isinstance(deck, list) and counts is None and ask.bot is None:
            counts = [len(deck)]  # the comparison's grid: a deck for 8 is played at 8, not dropped at 6 and 10
        if ask.bot is not None:
            if kinds is not None:
                raise ValueError("kinds compares bot kinds: give it without --bot")
            yield from self._spread(ask, counts or [ask.players], opts)
            return
        from .bots import BOTS

        kinds = kinds if kinds is not None else list(COMPARE_KINDS)
        if not isinstance(kinds, list) or len(kinds) < 2 or not all(k in BOTS for k in kinds):
            raise ValueError(f"kinds must list two bot kinds or more of {', '.join(BOTS)}, e.g. [\"plain\",\"reason\"]")
        yield from each_kind(ask, kinds, counts or sorted({*COMPARE_COUNTS, ask.players}), lambda k: _fitted(opts, k))

    def _spread(self, ask: Ask, counts: list[int], opts: dict[str, Any]) -> Iterable[Trial]:
        for i in range(ask.games):
            k = counts[i % len(counts)]
            yield Trial(ask.seed + i, k, _fitted(opts, k), ask.bot)

    def figures(self, trial: Trial, script: Script, log: Log) -> dict[str, Any]:
        return game_stats(log, trial.players)

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        if rows and rows[0][0].label is not None:
            return compare(rows)
        return report([stats for _, stats in rows])

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return "plot skipped: the witch report is a table"


def compare(rows: Sequence[Row]) -> str:
    """Each kind's team win rates per count and mix, and each kind against the first, paired by deal."""
    kinds = list(dict.fromkeys(str(t.label) for t, _ in rows))
    groups: dict[tuple[int, str], dict[str, dict[int, str]]] = defaultdict(lambda: defaultdict(dict))
    for trial, stats in rows:
        groups[(trial.players, stats["mix"])][str(trial.label)][trial.seed] = stats["winner"]
    deals = len({t.seed for t, _ in rows})
    lines = [f"闇に笑う魔女: today's town beside the reasoning town, {deals} deals at each count, "
             f"each played by {', '.join(kinds)} (the first is the reference)"]
    for (players, mix), by_kind in sorted(groups.items()):
        n = len(next(iter(by_kind.values())))
        lines.append(f"  {players} players [{mix}], {n} deals:")
        width = max(map(len, kinds))
        for kind in kinds:
            won = by_kind.get(kind, {})
            rates = ", ".join(f"{team} {confidence.rate(sum(w == team for w in won.values()), len(won)).percent()}"
                              for team in SHOWN)
            lines.append(f"    {kind:>{width}}: {rates}")
        reference = by_kind.get(kinds[0], {})
        for kind in kinds[1:]:
            won = by_kind.get(kind, {})
            seeds = sorted(set(won) & set(reference))
            diff = confidence.paired([float(won[s] == "islanders") for s in seeds],
                                     [float(reference[s] == "islanders") for s in seeds])
            lines.append(f"    {kind} − {kinds[0]}: islanders {diff.points()}, {confidence.verdict(diff)}")
    lines.append("(intervals are 95 %; a difference is paired by deal: the same seed deals the same roles)")
    return "\n".join(lines)
