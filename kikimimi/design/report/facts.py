"""One bot game's facts, read from its script and event log, for every game alike.

What the designer's report counts comes from the contract's events
(docs/contract.md), not from a game's insides, so a new game is reported on the day
it plays: the game-over ranking (a seat's win, a team's, a role's or job's win
and survival), every event type and every rule a game names as fired, the
score margin and the lot.  The facts are plain JSON-able values: worker
processes send them back, and the report is the same whatever ran them.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.design.report.minutes import table_seconds

#: Ranking fields that are a score (the higher the better), in the order looked for.
SCORES = ("points", "cash")
#: Event types that are the table's talk, turns, clocks, deal and books, not a rule firing.
NOT_RULES = frozenset({"say", "turn", "error", "game-over", "phase", "timer-set", "timer-cancel", "role", "job",
                       "partners", "mic", "speech", "cash", "power", "penalty-reason", "dealt"})
#: Events that say why a seat left, counted by their cause (闇に笑う魔女's `out-cause`, マフィア42's
#: `death-cause`: "death: mafia", "death: vote"), not as one more event.
CAUSES = {"out-cause": "out", "death-cause": "death"}


def game_facts(script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]],
               abilities: Mapping[str, str] | None = None, margin: str | None = None) -> dict[str, Any]:
    """The facts of one game (see the module's docstring).  `abilities` names the say keys that
    tell a job's ability at work (`Report.abilities`); `margin` the ranking field the game ranks
    by under these options (`Report.margin_field`; else the first score of SCORES it holds)."""
    header = script[0]
    players = int(header["players"])
    over = next((e for e in reversed(log) if e.get("type") == "game-over"), None)
    ranking = list(over.get("ranking", [])) if over else []
    seats = {int(r["seat"]): r for r in ranking}
    wins = [int(bool(seats[s].get("won", seats[s].get("place") == 1))) if s in seats else 0
            for s in range(1, players + 1)]
    first = (header.get("options") or {}).get("first")
    places = None  # by turn order (place 1 began), beside the chairs, where the game names who begins
    if isinstance(first, int) and not isinstance(first, bool) and 1 <= first <= players:
        places = wins[first - 1:] + wins[:first - 1]
    teams = sorted({str(r["team"]) for r in ranking if "team" in r})
    winner = str(over["winner"]) if over and "winner" in over else None
    roles = [[str(r.get("role", r.get("job"))), int(bool(r.get("won", r.get("place") == 1))),
              int(bool(r.get("alive", True)))]
             for r in sorted(ranking, key=lambda r: int(r["seat"])) if r.get("role") or r.get("job")]
    fired: Counter[str] = Counter()
    lot = 0
    told: set[tuple[Any, ...]] = set()  # an ability's line told to several seats is one firing
    for e in log:
        kind = str(e.get("type"))
        if kind == "night-rules":
            fired.update(f"night: {f}" for f in e.get("fired", []))
        elif kind in CAUSES:
            fired[f"{CAUSES[kind]}: {e.get('cause')}"] += 1
        elif kind == "say":
            key = str(e.get("key", ""))
            if "lot" in key.split("-"):
                lot = 1
            if abilities and key in abilities:
                once = (e.get("in"), e.get("t"), key, repr(e.get("params")))
                if once not in told:
                    told.add(once)
                    fired[f"ability: {abilities[key]}"] += 1
        if kind not in NOT_RULES and kind not in CAUSES and kind != "night-rules":
            fired[kind] += 1
    field, amount = _margin(ranking, margin)
    return {
        "players": players,
        "finished": int(over is not None and over.get("reason") != "stopped"),
        "reason": str(over.get("reason")) if over else "unfinished",
        "wins": wins,
        "places": places,
        "first": first if places is not None else None,
        "teams": {t: int(winner == t) for t in teams},
        "roles": roles,
        "fired": dict(sorted(fired.items())),
        "margin": amount,
        "unit": field,
        "comeback": _comeback(log, ranking, winner),
        "leads": lead_changes(log),
        "lot": lot,
        "inputs": len(script) - 1,
        "moves": moves_digest(script),
        "minutes": round(table_seconds(script, log) / 60.0, 4),
    }


def moves_digest(script: Sequence[Mapping[str, Any]]) -> str:
    """What the bots did, as a short digest of every input without its time: two games with the
    same digest saw the same moves (the page warns when a varied option changed no bot's move,
    so that its figures show only the rule's own arithmetic, not players adapting to it)."""
    lines = [{k: v for k, v in line.items() if k != "t"} for line in script[1:]]
    text = json.dumps(lines, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _score(row: Mapping[str, Any], field: str | None = None) -> float | None:
    keys = (field,) if field else SCORES
    return next((float(row[k]) for k in keys if isinstance(row.get(k), (int, float))
                 and not isinstance(row.get(k), bool)), None)


def _margin(ranking: Sequence[Mapping[str, Any]], field: str | None = None) -> tuple[str | None, float | None]:
    """(its unit, how far the winner's score is from the nearest other seat's), in the field the
    game ranks by (the Trident's pieces under normal scoring, its points under competition), or
    the first score of SCORES the ranking holds; (None, None) where it has none.  A score may
    count against (the Trident's), so the direction is read from the ranking itself."""
    field = field or next((k for k in SCORES if ranking and all(isinstance(r.get(k), (int, float)) for r in ranking)),
                          None)
    if field is None:
        return None, None
    firsts = [_score(r, field) for r in ranking if r.get("place") == 1]
    rest = [_score(r, field) for r in ranking if r.get("place") != 1]
    if not firsts or not rest or None in firsts or None in rest:
        return None, None
    won = [f for f in firsts if f is not None]
    others = [r for r in rest if r is not None]
    return field, min(abs(w - o) for w in won for o in others)


def _comeback(log: Sequence[Mapping[str, Any]], ranking: Sequence[Mapping[str, Any]],
              winner: str | None) -> int | None:
    """Whether the game turned: 1 when the winner was behind at some point, 0 when it
    never was, None where the game gives nothing to be behind in.  A team game
    (the ranking names teams) reads its day's ends (`_team_comeback`); a game
    with a running score, the score at half time (`_score_comeback`); a game
    won by emptying one's hand, the hands at half time (`_held_comeback`)."""
    if winner is not None and any("team" in r for r in ranking):
        return _team_comeback(log, ranking, winner)
    scored = _score_comeback(log, ranking)
    return scored if scored is not None else _held_comeback(log, ranking)


def _score_series(log: Sequence[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """(event, row) of each running score a game sends: events with a seat and a score (`cash`,
    `points`), or else the scores the table speaks (a `say` keyed `score`: 鬼探し's)."""
    series = [(e, e) for e in log if isinstance(e.get("seat"), int) and e.get("type") in SCORES
              and _score(e) is not None]
    if not series:
        series = [(e, e["params"]) for e in log if e.get("type") == "say" and e.get("key") == "score"
                  and isinstance(e.get("params"), Mapping) and isinstance(e["params"].get("seat"), int)
                  and _score(e["params"]) is not None]
    return series


def lead_changes(log: Sequence[Mapping[str, Any]]) -> int | None:
    """How often the lead changed hands in a game with a running score (the drama a yes/no
    comeback misses): each time a seat leads alone that is not the last seat to lead alone,
    read after each input's scores are all in.  None where the game sends no running score."""
    series = _score_series(log)
    if not series:
        return None
    standing: dict[int, float] = {}
    last: int | None = None  # the last seat to lead alone (a shared lead changes nothing yet)
    changes = 0
    for i, (e, row) in enumerate(series):
        score = _score(row)
        if score is not None:
            standing[int(row["seat"])] = score
        nxt = series[i + 1][0] if i + 1 < len(series) else None
        if nxt is not None and (nxt.get("in"), nxt.get("t")) == (e.get("in"), e.get("t")):
            continue  # the same input's other scores first
        best = max(standing.values())
        leaders = [s for s, v in standing.items() if v == best]
        if len(leaders) == 1:
            changes += last is not None and leaders[0] != last
            last = leaders[0]
    return changes


def _score_comeback(log: Sequence[Mapping[str, Any]], ranking: Sequence[Mapping[str, Any]]) -> int | None:
    """1 when a winner was behind at half time, 0 when it led or shared the lead;
    None where the game sends no running score.  The score is read from the
    events a game sends with a seat (`cash`, `points`), or else from the scores
    the table speaks (a `say` keyed `score` whose params hold a seat and its
    points: 鬼探し's after each verdict)."""
    series = _score_series(log)
    winners = {int(r["seat"]) for r in ranking if r.get("place") == 1}
    if not series or not winners:
        return None
    half = float(log[-1].get("t", 0.0)) / 2
    standing: dict[int, float] = {}
    for e, row in series:
        if float(e.get("t", 0.0)) > half:
            break
        score = _score(row)
        if score is not None:
            standing[int(row["seat"])] = score
    if not standing:
        return None
    best = max(standing.values())
    return int(not any(standing.get(w) == best for w in winners))


def _held_comeback(log: Sequence[Mapping[str, Any]], ranking: Sequence[Mapping[str, Any]]) -> int | None:
    """1 when a winner held more pieces than the fewest at half time, 0 when it
    held the fewest (or shared them); None where no piece goes into a hand.  It
    is what the table sees of a shedding game (The Trident): how many pieces
    each seat has.  Pieces are followed by tag: a `draw` puts one in a seat's
    hand, a `play` takes it out of whichever hand held it (an opening piece
    comes from the basket and leaves none), and a `rotate` passes every hand
    on (right: seat k's hand to seat k + 1; left: to seat k − 1)."""
    seats = sorted({int(r["seat"]) for r in ranking if isinstance(r.get("seat"), int)})
    winners = {int(r["seat"]) for r in ranking if r.get("place") == 1}
    if not seats or not winners or not log:
        return None
    half = float(log[-1].get("t", 0.0)) / 2
    n = len(seats)
    holder: dict[str, int] = {}
    drew = False
    for e in log:
        if float(e.get("t", 0.0)) > half:
            break
        kind = e.get("type")
        if kind == "draw" and isinstance(e.get("seat"), int) and isinstance(e.get("tag"), str):
            holder[e["tag"]] = e["seat"]
            drew = True
        elif kind == "play" and isinstance(e.get("tag"), str):
            holder.pop(e["tag"], None)
        elif kind == "rotate" and e.get("direction") in ("right", "left"):
            step = 1 if e["direction"] == "right" else -1
            holder = {tag: (seat - 1 + step) % n + 1 for tag, seat in holder.items()}
    if not drew:
        return None
    held = Counter(holder.values())
    fewest = min(held.get(s, 0) for s in seats)
    return int(not any(held.get(w, 0) == fewest for w in winners))


#: Events that take a seat out of play (闇に笑う魔女's `out`, マフィア42's `death`).
REMOVALS = frozenset({"out", "death"})


def _team_comeback(log: Sequence[Mapping[str, Any]], ranking: Sequence[Mapping[str, Any]],
                   winner: str) -> int | None:
    """1 when the winning side was behind at some day's end (the moment the table
    goes to night), 0 when it never was; None when no day ended.

    Sides differ in size and in what they need to win, so a side's standing is
    the share of its own starting strength still in play: its vote power where
    the game sends its win arithmetic (マフィア42's `power`: mafia votes against
    citizen votes), else its members still on the table (闇に笑う魔女's `out`).
    The winner is behind when its share is below the other sides' together: a
    witch banished on day one and the witches winning anyway is a comeback, the
    witches winning after losing nobody is not."""
    teams = {int(r["seat"]): str(r["team"]) for r in ranking if "team" in r}
    if winner not in teams.values():
        return None
    gone: set[int] = set()
    power: Mapping[str, Any] | None = None
    first_power: Mapping[str, Any] | None = None
    ended = behind = False
    for i, e in enumerate(log):
        kind = e.get("type")
        if kind == "game-over":
            break
        if kind in REMOVALS and isinstance(e.get("seat"), int):
            gone.add(int(e["seat"]))
        elif kind == "power" and isinstance(e.get("sides"), Mapping):
            power = e["sides"]
            first_power = first_power or power
        if _day_ends(log, i):
            ended = True
            if power is not None and first_power is not None and winner in first_power:
                mine, rest = _vote_shares(first_power, power, winner)
            else:
                mine, rest = _member_shares(teams, gone, winner)
            behind = behind or mine < rest
    return int(behind) if ended else None


def _day_ends(log: Sequence[Mapping[str, Any]], i: int) -> bool:
    """Whether the table is at a day's end after event i: the last event of the
    step that turned the phase to night (the step's removals and its `power`
    are in by then; a game's first night, before any day, counts too: nothing
    has happened, so nobody is behind)."""
    step = log[i]
    same = next((j for j in range(i, -1, -1) if log[j].get("type") == "phase"
                 or (log[j].get("in"), log[j].get("t")) != (step.get("in"), step.get("t"))), None)
    if same is None or log[same].get("type") != "phase" or log[same].get("phase") != "night":
        return False
    nxt = log[i + 1] if i + 1 < len(log) else None
    return nxt is None or nxt.get("type") == "phase" or (nxt.get("in"), nxt.get("t")) != (step.get("in"), step.get("t"))


def _member_shares(teams: Mapping[int, str], gone: set[int], winner: str) -> tuple[float, float]:
    mine = [s for s, t in teams.items() if t == winner]
    rest = [s for s, t in teams.items() if t != winner]
    def share(seats: list[int]) -> float:
        return sum(s not in gone for s in seats) / len(seats) if seats else 1.0
    return share(mine), share(rest)


def _votes(side: Any) -> float:
    v = side.get("votes", 0) if isinstance(side, Mapping) else 0
    return math.inf if v == "inf" else float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


def _vote_shares(start: Mapping[str, Any], now: Mapping[str, Any], winner: str) -> tuple[float, float]:
    def share(sides: list[str]) -> float:
        have = sum(_votes(now.get(s)) for s in sides)
        had = sum(_votes(start.get(s)) for s in sides)
        if math.isinf(have):
            return math.inf  # a revealed judge: that side cannot lose the count
        return have / had if had and not math.isinf(had) else 1.0
    return share([winner]), share([s for s in start if s != winner])
