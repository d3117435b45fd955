"""One bot game's facts, read from its script and event log, for every game alike.

What the designer's report counts comes from the contract's events
(CONTRACT.md), not from a game's insides, so a new game is reported on the day
it plays: the game-over ranking (a seat's win, a team's, a role's or job's win
and survival), every event type and every rule a game names as fired, the
score margin and the lot.  The facts are plain JSON-able values: worker
processes send them back, and the report is the same whatever ran them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.report.minutes import table_seconds

#: Ranking fields that are a score (the higher the better), in the order looked for.
SCORES = ("points", "cash")
#: Event types that are the table's talk, turns, clocks, deal and books, not a rule firing.
NOT_RULES = frozenset({"say", "turn", "error", "game-over", "phase", "timer-set", "timer-cancel", "role", "job",
                       "partners", "mic", "speech", "cash", "power", "penalty-reason", "death-cause", "dealt"})


def game_facts(script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The facts of one game (see the module's docstring)."""
    header = script[0]
    players = int(header["players"])
    over = next((e for e in reversed(log) if e.get("type") == "game-over"), None)
    ranking = list(over.get("ranking", [])) if over else []
    seats = {int(r["seat"]): r for r in ranking}
    wins = [int(bool(seats[s].get("won", seats[s].get("place") == 1))) if s in seats else 0
            for s in range(1, players + 1)]
    first = (header.get("options") or {}).get("first")
    if isinstance(first, int) and 1 <= first <= players:  # by turn order: the first player's win first
        wins = wins[first - 1:] + wins[:first - 1]
    teams = sorted({str(r["team"]) for r in ranking if "team" in r})
    winner = str(over["winner"]) if over and "winner" in over else None
    roles = [[str(r.get("role", r.get("job"))), int(bool(r.get("won", r.get("place") == 1))),
              int(bool(r.get("alive", True)))]
             for r in sorted(ranking, key=lambda r: int(r["seat"])) if r.get("role") or r.get("job")]
    fired: Counter[str] = Counter()
    lot = 0
    for e in log:
        kind = str(e.get("type"))
        if kind == "night-rules":
            fired.update(f"night: {f}" for f in e.get("fired", []))
        elif kind == "out-cause":
            fired[f"out: {e.get('cause')}"] += 1
        elif kind == "say" and "lot" in str(e.get("key", "")).split("-"):
            lot = 1
        if kind not in NOT_RULES and kind not in ("night-rules", "out-cause"):
            fired[kind] += 1
    return {
        "players": players,
        "finished": int(over is not None and over.get("reason") != "stopped"),
        "reason": str(over.get("reason")) if over else "unfinished",
        "wins": wins,
        "order": "turn" if isinstance(first, int) else "seat",
        "teams": {t: int(winner == t) for t in teams},
        "roles": roles,
        "fired": dict(sorted(fired.items())),
        "margin": _margin(ranking),
        "comeback": _comeback(log, ranking),
        "lot": lot,
        "inputs": len(script) - 1,
        "minutes": round(table_seconds(script, log) / 60.0, 4),
    }


def _score(row: Mapping[str, Any]) -> float | None:
    return next((float(row[k]) for k in SCORES if isinstance(row.get(k), (int, float))), None)


def _margin(ranking: Sequence[Mapping[str, Any]]) -> float | None:
    """How far the winner's score is from the nearest other seat's (None where the
    ranking has no score; the Trident's points count against, so the direction
    is read from the ranking itself)."""
    firsts = [_score(r) for r in ranking if r.get("place") == 1]
    rest = [_score(r) for r in ranking if r.get("place") != 1]
    if not firsts or not rest or None in firsts or None in rest:
        return None
    won = [f for f in firsts if f is not None]
    others = [r for r in rest if r is not None]
    return min(abs(w - o) for w in won for o in others)


def _comeback(log: Sequence[Mapping[str, Any]], ranking: Sequence[Mapping[str, Any]]) -> int | None:
    """1 when a winner was behind at half time (by the score events a game sends
    with a seat: `cash`, `points`), 0 when it led or shared the lead; None
    where the game sends no running score."""
    series = [e for e in log if isinstance(e.get("seat"), int) and any(
        isinstance(e.get(k), (int, float)) and not isinstance(e.get(k), bool) for k in SCORES)
        and e.get("type") in SCORES]
    winners = {int(r["seat"]) for r in ranking if r.get("place") == 1}
    if not series or not winners:
        return None
    half = float(log[-1].get("t", 0.0)) / 2
    standing: dict[int, float] = {}
    for e in series:
        if float(e.get("t", 0.0)) > half:
            break
        standing[int(e["seat"])] = float(next(e[k] for k in SCORES if k in e))
    if not standing:
        return None
    best = max(standing.values())
    return int(not any(standing.get(w) == best for w in winners))
