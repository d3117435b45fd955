"""What the designer's report says: the statistics of every section, from the
games' facts (kikimimi/design/report/facts.py), as tables and figures (page.py).

Every rate has Wilson's 95 % interval; every comparison of two arms is paired
by seed and player count (the same deal played two ways) and, over the
independent questions only, corrected by Holm (kikimimi/design/versus.py).
"""
from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.design import confidence, versus
from kikimimi.design.confidence import Estimate
from kikimimi.design.report import figures, minutes
from kikimimi.design.report.page import Figure, Section, Table
from kikimimi.design.tuning import focal_seat

#: arm -> player count -> [(seed, facts)], in the plan's order.
Results = Mapping[str, Mapping[int, Sequence[tuple[int, Mapping[str, Any]]]]]
MINUTES = "table minutes"


@dataclass(frozen=True)
class Plan:
    """What was asked: the arms (bot kind and options), counts, seeds, and how to compare."""

    game: str
    arms: Sequence[str]
    bots: Mapping[str, str | None]  # arm -> its bot kind
    options: Mapping[str, Mapping[str, Any]]  # arm -> its options
    counts: Sequence[int]
    games: int
    seed: int
    variants: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    baseline: str | None = None
    detect: float | None = None  # percentage points
    command: str = ""
    rules: Sequence[str] = ()  # every rule firing listed, at 0 when none fired (Report.rules, .abilities)
    dealt: str = ""  # how who begins was dealt (build.plan_of)
    duels: Mapping[str, str] = field(default_factory=dict)  # a contender's arm -> the arm of the bot it replaces


def pct(e: Estimate) -> str:
    if e.missing:
        return confidence.NONE
    return f"{100 * e.value:.1f} % [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def pts(e: Estimate) -> str:
    if e.missing:
        return confidence.NONE
    return f"{100 * e.value:+.1f} pts [{100 * e.low:+.1f}, {100 * e.high:+.1f}]"


def num(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}"


def _rate(values: Sequence[int | float]) -> Estimate:
    return confidence.rate(int(sum(values)), len(values))


def _cells(plan: Plan, results: Results) -> list[tuple[str, int, list[Mapping[str, Any]]]]:
    return [(arm, k, [f for _, f in results[arm][k]]) for arm in plan.arms for k in plan.counts]


def _label(plan: Plan, arm: str, k: int) -> str:
    return f"{arm}, {k} players" if len(plan.arms) > 1 else f"{k} players"


def _teams(results: Results) -> list[str]:
    seen: dict[str, None] = {}
    for by_count in results.values():
        for rows in by_count.values():
            for _, f in rows:
                seen.update(dict.fromkeys(f["teams"]))
    return list(seen)


def table_minutes(plan: Plan, results: Results) -> Section:
    s = Section("How long a game takes at the table")
    s.paragraphs.append(
        "Minutes at a table, modelled per input: the longer of the game's own clock (a timer the bots "
        f"waited out) and the table's speech at {minutes.SPEECH_WPM} words a minute plus a person's act "
        f"({minutes.ACT_SECONDS:g} s, the middle of the 3–8 s the seat bots take to pass for a person, "
        f"docs/seat-bots.md; {minutes.REPEAT_SECONDS:g} s for the same tag tapped again). A model, not a "
        "measurement: no timing here is measured from real players. The median and the quartiles "
        "(IQR: half the games lie between them) give the spread.")
    rows: list[list[str]] = []
    data: dict[str, dict[str, list[float]]] = {}
    for arm, k, facts in _cells(plan, results):
        xs = [float(f["minutes"]) for f in facts]
        q1, q2, q3 = confidence.quartiles(xs)
        m = confidence.mean(xs)
        inputs = statistics.median([f["inputs"] for f in facts]) if facts else float("nan")
        rows.append([_label(plan, arm, k), str(len(xs)), num(q2), f"{num(q1)}–{num(q3)}",
                     f"{num(m.value)} [{num(m.low)}, {num(m.high)}]", num(min(xs)) if xs else "–",
                     num(max(xs)) if xs else "–", f"{inputs:g}"])
        data.setdefault(f"{k} players", {})[arm] = xs
    table = Table("Table minutes per game by player count", ["arm and player count", "games", "median", "IQR",
                                                              "mean [95 % interval]", "shortest", "longest",
                                                              "inputs (median)"], rows)
    medians = "; ".join(f"{r[0]}: median {r[2]} min (IQR {r[3]})" for r in rows)
    png = figures.later(figures.boxes, data,
                        f"{plan.game}: table minutes per game by player count "
                        f"({plan.games} games per cell, seeds {plan.seed}–{plan.seed + plan.games - 1})",
                        "table minutes (model)")
    s.parts.append(Figure(png, f"Box plot of table minutes per game. {medians}.",
                          "Table minutes per game (box: quartiles; line: median; whiskers: 1.5 IQR).", table))
    return s


def balance(plan: Plan, results: Results) -> Section:
    s = Section("Balance across player counts")
    teams = _teams(results)
    rows: list[list[str]] = []
    data: dict[str, dict[str, Estimate]] = {}
    if teams:
        s.paragraphs.append("Each team's win rate with Wilson's 95 % interval, every arm at every player count. "
                            "A game stopped before its end (the referee's limit) counts as no team's win.")
        for arm, k, facts in _cells(plan, results):
            ests = {t: _rate([f["teams"].get(t, 0) for f in facts]) for t in teams}
            done = _rate([f["finished"] for f in facts])
            rows.append([_label(plan, arm, k), str(len(facts))] + [pct(ests[t]) for t in teams] + [pct(done)])
            for t in teams:
                data.setdefault(f"{t}, {k}p", {})[arm] = ests[t]
        header = ["arm and player count", "games"] + [f"{t} win" for t in teams] + ["finished"]
        fair, fair_label = 1.0 / len(teams), f"even ({100 / len(teams):.0f} %)"
    else:
        s.paragraphs.append("Each seat's win rate is in the next section; here the spread between the best and "
                            "the worst seat (chair), beside a fair share: the seats' wins per game over the "
                            "players, so a game where two seats share the first place gives each seat a larger "
                            "share (the tie rate is the share of games with more than one winner).")
        shared: dict[str, float] = {}
        for arm, k, facts in _cells(plan, results):
            per_seat = [_rate([f["wins"][i] for f in facts]) for i in range(k)]
            best = max(range(k), key=lambda i: per_seat[i].value)
            worst = min(range(k), key=lambda i: per_seat[i].value)
            done = _rate([f["finished"] for f in facts])
            share = fair_share(facts, k)
            ties = _rate([int(sum(f["wins"]) > 1) for f in facts])
            rows.append([_label(plan, arm, k), str(len(facts)), f"{100 * share:.1f} %",
                         f"seat {best + 1}: {pct(per_seat[best])}", f"seat {worst + 1}: {pct(per_seat[worst])}",
                         pct(ties), pct(done)])
            data.setdefault(f"{k}p best", {})[arm] = per_seat[best]
            data.setdefault(f"{k}p worst", {})[arm] = per_seat[worst]
            shared[f"{k}p best"] = shared[f"{k}p worst"] = share
        header = ["arm and player count", "games", "fair share", "best seat", "worst seat",
                  "tie rate (shared first place)", "finished"]
        fair, fair_label = None, "fair share"
    table = Table("Balance table: every arm at every player count", header, rows)
    shares = shared if fair is None else None
    png = figures.later(figures.points, data,
                        f"{plan.game}: win rates (95 % intervals), {plan.games} games per cell",
                        "win rate (%)", fair, fair_label, shares=shares)
    alt = "Win rates with 95 % intervals. " + "; ".join(f"{r[0]}: " + ", ".join(
        f"{h} {c}" for h, c in zip(header[2:], r[2:])) for r in rows) + "."
    s.parts.append(Figure(png, alt, "Win rates by arm and player count, with 95 % intervals.", table))
    return s


def fair_share(facts: Sequence[Mapping[str, Any]], k: int) -> float:
    """The mean seat's win rate: the seats' wins per game over the players (1/k when one seat
    wins a game; more where first places are shared, as 鬼探し's often are)."""
    return statistics.fmean(sum(f["wins"]) for f in facts) / k if facts and k else 0.0


def seat_edge(plan: Plan, results: Results) -> Section:
    s = Section("Each seat's and each turn-order place's edge")
    s.paragraphs.append("A seat is a chair at the table, numbered clockwise; a place is the turn order (place 1 "
                        "begins). An edge is the win rate minus the mean win rate over the seats at that count "
                        "(the fair share; in a team game the share of seats on the winning side), with the "
                        "Wilson 95 % interval moved by the same amount.")
    if plan.dealt:
        s.paragraphs.append(f"How it was dealt: {plan.dealt}.")
    rows: list[list[str]] = []
    data: dict[str, dict[str, Estimate]] = {}
    for arm, k, facts in _cells(plan, results):
        by_place = bool(facts) and all(f.get("places") is not None for f in facts)
        groups = [("seat", "wins")] + ([("place", "places")] if by_place else [])
        for what, key in groups:
            per_seat = [_rate([f[key][i] for f in facts]) for i in range(k)]
            fair = statistics.fmean(e.value for e in per_seat) if per_seat else 0.0
            for i, e in enumerate(per_seat):
                edge = Estimate(e.value - fair, e.low - fair, e.high - fair)
                who = f"place {i + 1} in turn order" if what == "place" else f"seat {i + 1}"
                rows.append([f"{_label(plan, arm, k)}, {who}", pct(e), f"{100 * fair:.1f} %", pts(edge)])
                data.setdefault(f"{k}p {what} {i + 1}", {})[arm] = edge
    table = Table("Each seat's and place's win rate and edge over the fair share",
                  ["seat or place", "win rate", "fair share", "edge"], rows)
    png = figures.later(figures.points, data,
                        f"{plan.game}: each seat's edge over the fair share (95 % intervals)",
                        "edge (percentage points)", 0.0, "fair share")
    widest = sorted(rows, key=lambda r: -abs(float(r[3].split()[0])))[:3]
    alt = ("Each seat's edge over the fair share, with 95 % intervals, by player count. The largest: "
           + "; ".join(f"{r[0]} {r[3]}" for r in widest) + ". The table below lists every seat.")
    s.parts.append(Figure(png, alt, "Seat edge in percentage points (dashed line: the fair share).", table))
    return s


def roles(plan: Plan, results: Results) -> Section | None:
    if not any(f["roles"] for by in results.values() for rows in by.values() for _, f in rows):
        return None
    s = Section("Each role's win and survival")
    s.paragraphs.append("Per role (job) card, every seat that was dealt it: how often it was on the winning side, "
                        "and how often it was still in the game at the end, each with Wilson's 95 % interval.")
    rows: list[list[str]] = []
    data: dict[str, dict[str, Estimate]] = {}
    for arm, k, facts in _cells(plan, results):
        won: dict[str, list[int]] = {}
        alive: dict[str, list[int]] = {}
        for f in facts:
            for role, w, a in f["roles"]:
                won.setdefault(role, []).append(int(w))
                alive.setdefault(role, []).append(int(a))
        for role in sorted(won):
            w_est, a_est = _rate(won[role]), _rate(alive[role])
            rows.append([f"{_label(plan, arm, k)}, {role}", str(len(won[role])), pct(w_est), pct(a_est)])
            data.setdefault(f"{role} {k}p", {})[arm] = w_est
    table = Table("Each role's win rate and survival rate", ["role", "seats dealt", "win rate", "survival"], rows)
    png = figures.later(figures.points, data, f"{plan.game}: each role's win rate (95 % intervals)", "win rate (%)")
    alt = "Each role's win rate with 95 % intervals: " + "; ".join(f"{r[0]} {r[2]}" for r in rows[:12]) + (
        "; and more in the table below." if len(rows) > 12 else ".")
    s.parts.append(Figure(png, alt, "Role win rates by arm and player count.", table))
    return s


def _units(plan: Plan, results: Results, measure: Any) -> dict[str, dict[Any, dict[str, float]]]:
    return {arm: {(k, seed): measure(f) for k in plan.counts for seed, f in results[arm][k]} for arm in plan.arms}


def firings(plan: Plan, results: Results) -> Section:
    s = Section("How often each rule fires")
    s.paragraphs.append("Per game, how often each event a rule makes was sent (night rules and the causes of an "
                        "exit or a death by name, and each job's ability a game's table only speaks of), read from "
                        "the referee's event log; the table's talk, clocks and the deal are left out. A rule the "
                        "game names that never fired is listed at 0.")
    units = _units(plan, results, lambda f: {k: float(v) for k, v in f["fired"].items()})
    names = sorted({r for arm in units.values() for u in arm.values() for r in u} | set(plan.rules))
    for arm in units.values():
        for u in arm.values():
            for r in names:
                u.setdefault(r, 0.0)
    means = {r: {arm: statistics.fmean(u[r] for u in units[arm].values()) for arm in plan.arms} for r in names}
    header = ["rule"] + [f"{arm} per game" for arm in plan.arms]
    found = {}
    if len(plan.arms) > 1:
        found = {(d.measure, d.arm, d.reference): d for d in versus.differences(units, plan.baseline, names)}
        pairs = versus.pairs_of(list(plan.arms), plan.baseline)
        header += [f"{a} − {b}" for a, b in pairs]
    rows = []
    for r in names:
        row = [r] + [num(means[r][arm], 2) for arm in plan.arms]
        if found:
            row += [found[(r, a, b)].diff.plain() for a, b in versus.pairs_of(list(plan.arms), plan.baseline)]
        rows.append(row)
    table = Table("Rule firings per game, by arm" + (" (differences paired by seed, 95 % intervals)" if found else ""),
                  header, rows)
    if names:
        png = figures.later(figures.bars, means,
                            f"{plan.game}: rule firings per game ({plan.games} games per arm and count)",
                            "firings per game")
        alt = "Bar chart of rule firings per game. " + "; ".join(
            f"{r}: " + ", ".join(f"{arm} {means[r][arm]:.2f}" for arm in plan.arms) for r in names[:15]) + "."
        s.parts.append(Figure(png, alt, "Rule firings per game.", table))
    else:
        s.paragraphs.append("No rule events in these games.")
    return s


def closeness(plan: Plan, results: Results) -> Section:
    s = Section("How close games are")
    s.paragraphs.append(
        "The margin is the winner's score over the nearest other seat, in the unit the game ranks by (the "
        "Trident's pieces left in hand, or their points under competition scoring; 鬼探し's points; "
        "イントリーゲ's cash), where the ranking has one. A comeback is a game that turned: in a team game, the winning side was behind at some day's end "
        "(the moment the table goes to night), measured as the share of its own starting strength still in play "
        "against the other sides' together — vote power where the game sends its win arithmetic (マフィア42), "
        "else members still on the table (闇に笑う魔女); in a game with a running score (cash, or the points the "
        "table announces), a winner behind at half time; in a game won by emptying one's hand (The Trident), a "
        "winner holding more pieces than the fewest at half time. Lead changes (a running score only) count "
        "each time a seat leads alone that was not the last to lead alone. A lot is a result the table drew by lot (where "
        "the rules have one). A blank says the game has no such thing.")
    teams = _teams(results)
    rows = []
    lead_cells: list[str] = []
    data: dict[str, dict[str, Estimate]] = {}
    for arm, k, facts in _cells(plan, results):
        margins = [float(f["margin"]) for f in facts if f["margin"] is not None]
        backs = [int(f["comeback"]) for f in facts if f["comeback"] is not None]
        q1, q2, q3 = confidence.quartiles(margins)
        reasons = Counter(str(f["reason"]) for f in facts)
        by_side = []
        for t in teams:  # among each side's wins: which side's wins were turned games
            won = [int(f["comeback"]) for f in facts if f["teams"].get(t) and f["comeback"] is not None]
            by_side.append(f"{t}: {pct(_rate(won))} of {len(won)}" if won else f"{t}: no wins")
        unit = next((str(f["unit"]) for f in facts if f.get("unit")), "")
        leads = [float(f["leads"]) for f in facts if f.get("leads") is not None]
        l1, l2, l3 = confidence.quartiles(leads)
        lead_cells.append(f"{l2:g} ({l1:g}–{l3:g}), at most {max(leads):g}" if leads else "–")
        rows.append([_label(plan, arm, k), f"{q2:g} {unit} ({q1:g}–{q3:g})" if margins else "–",
                     f"{pct(_rate(backs))} of {len(backs)}" if backs else "–"]
                    + (["; ".join(by_side)] if teams else [])
                    + [pct(_rate([f["lot"] for f in facts])), ", ".join(f"{r} {c}" for r, c in sorted(reasons.items()))])
        if backs:
            data.setdefault(f"{k} players", {})[arm] = _rate(backs)
    header = (["arm and player count", "margin median (IQR)", "comebacks (games won from behind)"]
              + (["comebacks among each side's wins"] if teams else []) + ["decided by lot", "endings (games)"])
    if any(c != "–" for c in lead_cells):  # a running score: how often the lead changed hands
        header.insert(3, "lead changes median (IQR)")
        rows = [r[:3] + [c] + r[3:] for r, c in zip(rows, lead_cells)]
    table = Table("Closeness: margins, comebacks, lots and endings", header, rows)
    if data:
        png = figures.later(figures.points, data,
                            f"{plan.game}: share of games won from behind (95 % intervals), "
                            f"{plan.games} games per cell", "comebacks (% of games)")
        alt = "Comeback rates with 95 % intervals: " + "; ".join(f"{r[0]} {r[2]}" for r in rows) + "."
        s.parts.append(Figure(png, alt, "Comebacks: games the winner won from behind, by arm and player count.",
                              table))
    else:
        s.parts.append(table)
    return s


def outcome(f: Mapping[str, Any]) -> dict[str, float]:
    """A game's numbers for comparing arms: each team's win (or each seat's), and its minutes."""
    out = {f"{t} win": float(w) for t, w in f["teams"].items()} if f["teams"] else {
        f"seat {i + 1} wins": float(w) for i, w in enumerate(f["wins"])}
    if not f["teams"] and f.get("places") is not None:  # the turn order, apart from the chairs
        out.update((f"place {i + 1} wins", float(w)) for i, w in enumerate(f["places"]))
    out["finished"] = float(f["finished"])
    out[MINUTES] = float(f["minutes"])
    return out


def _measures(units: Mapping[str, versus.Units]) -> list[str]:
    ms = versus.measures_of(units)
    if all(v == 1.0 for u in units.values() for figs in u.values() for k, v in figs.items() if k == "finished"):
        ms = [m for m in ms if m != "finished"]
    return ms


def comparisons(plan: Plan, results: Results) -> Section | None:
    if len(plan.arms) < 2:
        return None
    units = _units(plan, results, outcome)
    measures = _measures(units)
    found = versus.differences(units, plan.baseline, measures)
    asked = versus.questions(found, units)
    left = [m for m in measures if m not in versus.independent(units, measures)]
    s = Section("Arms compared")
    warning = unfelt_paragraph(plan, results)
    if warning:
        s.paragraphs.append(warning)
    against = ("every pair of arms" if plan.baseline == versus.ALL_PAIRS
               else f"each arm against {plan.baseline or plan.arms[0]}")
    s.paragraphs.append(
        f"{against[0].upper()}{against[1:]}: the mean of the per-game differences, paired by seed and player count "
        "(the same deal played both ways, so its luck cancels), with its normal 95 % interval. Holm's correction "
        f"runs over {asked} independent questions at 5 %"
        + (f"; left out as the others' answer again: {', '.join(left)}" if left else "") + ".")
    rows, marks = [], []
    for d in found:
        how = versus.kind(units, d.measure)
        text = pts(d.diff) if how in (versus.RATE, versus.POINTS) else f"{d.diff.plain()} min"
        holm = "yes" if d.holm else ("left out (complement)" if d.measure in left else "no")
        rows.append([d.measure, f"{d.arm} − {d.reference}", text, str(d.paired) if d.paired else "unpaired",
                     f"{d.p:.4f}", holm])
        if how == versus.RATE:
            marks.append((f"{d.measure}: {d.arm} − {d.reference}", d.diff, d.holm))
    s.paragraphs.extend(verdict(d, versus.kind(units, d.measure)) for d in found if d.measure not in left)
    table = Table("Paired differences between arms (95 % intervals; Holm at 5 %)",
                  ["measure", "arms", "difference", "pairs", "p", "significant after Holm"], rows)
    if marks:
        png = figures.later(figures.differences, marks,
                            f"{plan.game}: paired differences of win rates, {plan.games} seeds per "
                            f"count ({', '.join(map(str, plan.counts))} players)", "difference (points)")
        alt = "Paired differences with 95 % intervals: " + "; ".join(
            f"{label} {pts(e)}{' (significant after Holm)' if k else ''}" for label, e, k in marks) + "."
        s.parts.append(Figure(png, alt, "Paired differences (filled: significant after Holm).", table))
    else:
        s.parts.append(table)
    return s


def verdict(d: versus.Difference, how: str) -> str:
    """One line a designer can act on, per question: which way, by how much, and whether these
    games can tell it from noise (Holm's call over every question of the page)."""
    rate = how in (versus.RATE, versus.POINTS)
    size = f"{abs(100 * d.diff.value):.1f} points" if rate else f"{abs(d.diff.value):.2f} min"
    shown = pts(d.diff) if rate else f"{d.diff.plain()} min"
    if d.diff.missing:
        return f"Verdict on {d.measure}, {d.arm} against {d.reference}: one arm never had it, no comparison."
    if d.holm:
        way = "higher" if d.diff.value > 0 else "lower"
        return (f"Verdict on {d.measure}: {way} by {size} with {d.arm} than with {d.reference} ({shown}), "
                "a difference these games tell from noise after Holm's correction.")
    return (f"Verdict on {d.measure}, {d.arm} against {d.reference}: no difference these games can tell from "
            f"noise ({shown}); more games would tell a smaller one (--detect says how many).")


def unfelt(plan: Plan, results: Results) -> list[tuple[str, str, str, int]]:
    """(option, arm, other arm, games) for every pair of arms that differ in one varied option
    only and whose bots made the same moves in every game (`moves` of the facts): the option
    changed no bot's decision, so a designer must not read its figures as how players would
    play it (the Trident's scoring: the bots ignore it; what changes is the ranking alone)."""
    found = []
    for key, values in plan.variants.items():
        if len(values) < 2:
            continue
        for i, a in enumerate(plan.arms):
            for b in plan.arms[i + 1:]:
                oa, ob = plan.options[a], plan.options[b]
                if plan.bots[a] != plan.bots[b] or oa.get(key) == ob.get(key) or any(
                        oa.get(k) != ob.get(k) for k in set(oa) | set(ob) if k != key):
                    continue
                pairs = [(fa.get("moves"), fb.get("moves")) for k in plan.counts
                         for (_, fa), (_, fb) in zip(results[a][k], results[b][k])]
                if pairs and all(x is not None and x == y for x, y in pairs):
                    found.append((key, a, b, len(pairs)))
    return found


def unfelt_paragraph(plan: Plan, results: Results) -> str | None:
    same = unfelt(plan, results)
    if not same:
        return None
    return ("Warning: " + "; ".join(
        f"{a} and {b} ({key} varied) saw the same bot moves in all {n} games" for key, a, b, n in same)
        + ". No bot decision depends on that option, so its differences here are the rule's own arithmetic "
        "(the ranking, the clock), not how players would adapt to it: play it with people, or with bots "
        "that read it, before changing the rule on these figures.")


def interaction(plan: Plan, results: Results) -> Section | None:
    keys = [k for k, v in plan.variants.items() if len(v) == 2]
    if len(keys) != 2 or len(plan.variants) != 2:
        return None
    a, b = keys
    s = Section(f"Interaction of {a} and {b}")
    s.paragraphs.append(
        f"How much the effect of {b} changes with {a}: the 2×2 contrast (both changed − only {a} changed) − "
        f"(only {b} changed − neither), per seed and count, with its normal 95 % interval. An interval that holds "
        "0 says the two options' effects simply add up (as far as these games can tell).")
    units = _units(plan, results, outcome)
    rows = []
    bots = list(dict.fromkeys(plan.bots[arm] for arm in plan.arms))
    for bot in bots:
        def cell(va: Any, vb: Any, bot: str | None = bot) -> str:
            return next(arm for arm in plan.arms if plan.bots[arm] == bot
                        and plan.options[arm].get(a) == va and plan.options[arm].get(b) == vb)
        (a0, a1), (b0, b1) = plan.variants[a], plan.variants[b]
        cells = [units[cell(a0, b0)], units[cell(a0, b1)], units[cell(a1, b0)], units[cell(a1, b1)]]
        for m in versus.independent(units, _measures(units)):  # a complement's contrast is the same, negated
            est, n = versus.interaction(m, cells)
            rate = versus.kind(units, m) == versus.RATE
            rows.append([f"{m}" + (f" ({bot or 'default'} bots)" if len(bots) > 1 else ""), str(n),
                         pts(est) if rate else f"{est.plain()} min", confidence.verdict(est)])
    s.parts.append(Table(f"Interaction contrast of {a} × {b}", ["measure", "pairs", "contrast", "verdict"], rows))
    return s


def skill(plan: Plan, results: Results) -> Section | None:
    bots = list(dict.fromkeys(plan.bots[arm] for arm in plan.arms))
    if len(bots) < 2:
        return None
    s = Section("How far the balance depends on the bots' skill")
    s.paragraphs.append("The same rules under each bot kind, side by side: each figure with its 95 % interval, "
                        "and each kind against the first paired by seed. A rule's effect that holds under every "
                        "kind does not hang on how well the bots play.")
    units = _units(plan, results, outcome)
    rules = list(dict.fromkeys(" ".join(f"{k}={v}" for k, v in plan.options[arm].items()
                                        if k in plan.variants) for arm in plan.arms))
    rows = []
    for rule in rules:
        arms = [arm for arm in plan.arms if " ".join(f"{k}={v}" for k, v in plan.options[arm].items()
                                                   if k in plan.variants) == rule]
        sub = {arm: units[arm] for arm in arms}
        for m in _measures(sub):
            rate = versus.kind(sub, m) == versus.RATE
            figs = [pct(versus.summary(versus.column(sub[arm], m), versus.RATE)) if rate
                    else versus.summary(versus.column(sub[arm], m)).mean(1) for arm in arms]
            d = versus.difference(m, arms[-1], arms[0], sub[arms[-1]], sub[arms[0]])
            rows.append([f"{m}" + (f" ({rule})" if rule else ""), *[f"{arm}: {f}" for arm, f in zip(arms, figs)],
                         pts(d.diff) if rate else d.diff.plain()])
    width = max(len(r) for r in rows) if rows else 3
    header = ["measure"] + [f"bot kind {i + 1}" for i in range(width - 2)] + ["last − first kind"]
    s.parts.append(Table("The same rules under each bot kind", header, [r + [""] * (width - len(r)) for r in rows]))
    return s


def detect(plan: Plan, results: Results) -> Section | None:
    if plan.detect is None:
        return None
    delta = plan.detect / 100
    units = _units(plan, results, outcome)
    measures = [m for m in versus.independent(units, _measures(units)) if versus.kind(units, m) == versus.RATE]
    s = Section(f"Games needed to see a {plan.detect:g}-point change")
    s.paragraphs.append(
        "At 80 % power and a two-sided 5 % level. Two independent samples (Fleiss, without continuity "
        "correction): n = (z₀.₉₇₅·√(2·p̄·(1−p̄)) + z₀.₈·√(p₁(1−p₁) + p₂(1−p₂)))² / δ², games per arm, with p₁ the "
        "rate seen in the baseline arm and p₂ = p₁ ± δ. Paired by seed (the same deals played both ways): "
        "n = ((z₀.₉₇₅ + z₀.₈)·σ_d / δ)² pairs, σ_d the standard deviation of the per-seed differences seen here "
        "between the arms (only when two arms were played).")
    base = plan.arms[0] if plan.baseline in (None, versus.ALL_PAIRS) else plan.baseline
    rows = []
    for m in measures:
        xs = versus.column(units[base], m)
        p = statistics.fmean(xs) if xs else 0.0
        n = confidence.games_needed(p, delta)
        paired = "–"
        others = [arm for arm in plan.arms if arm != base]
        if others:
            keys = [k for k in units[base] if k in units[others[0]] and m in units[base][k] and m in units[others[0]][k]]
            ds = [units[others[0]][k][m] - units[base][k][m] for k in keys]
            if len(ds) > 1:
                paired = f"{confidence.pairs_needed(statistics.stdev(ds), delta)} ({others[0]} − {base})"
        rows.append([m, f"{100 * p:.1f} %", str(n), paired])
    s.parts.append(Table(f"Games needed for a {plan.detect:g}-point change at 80 % power",
                         ["measure", f"rate seen ({base})", "games per arm (independent)", "pairs (paired by seed)"],
                         rows))
    return s


#: The most rates a sweep draws (a seat game has one a seat and one a place).
SWEPT = 6


def sweep(plan: Plan, results: Results) -> Section | None:
    """One option tried at three values or more, one bot kind: each rate over the option's values,
    in the order given, with its interval (a table and a plot), and the minutes beside them."""
    keys = [k for k, v in plan.variants.items() if len(v) > 1]
    if len(keys) != 1 or len(plan.variants[keys[0]]) < 3 or len(set(plan.bots.values())) > 1:
        return None
    key = keys[0]
    units = _units(plan, results, outcome)
    rates = [m for m in versus.independent(units, _measures(units)) if versus.kind(units, m) == versus.RATE]
    rates = sorted(rates, key=lambda m: not m.startswith("place "))[:SWEPT]  # the turn order's first: the rules'

    s = Section(f"Sweep of {key}")
    s.paragraphs.append(f"Each rate over the values of {key}, in the order given, with Wilson's 95 % interval "
                        f"({plan.games} seeds per value and count, {', '.join(map(str, plan.counts))} players), and "
                        "the table minutes' mean beside them. Pairwise differences are under Arms compared.")
    rows = []
    data: dict[str, dict[str, Estimate]] = {}
    for arm in plan.arms:
        ests = {m: versus.summary(versus.column(units[arm], m), versus.RATE) for m in rates}
        length = confidence.mean(versus.column(units[arm], MINUTES))
        rows.append([arm] + [pct(ests[m]) for m in rates] + [f"{num(length.value)} [{num(length.low)}, {num(length.high)}]"])
        for m in rates:
            data.setdefault(arm, {})[m] = ests[m]
    table = Table(f"Rates over the values of {key}", [key] + rates + ["table minutes, mean [95 %]"], rows)
    if rates:
        png = figures.later(figures.points, data, f"{plan.game}: rates over {key} (95 % intervals)", "rate (%)")
        alt = f"Rates over the values of {key}: " + "; ".join(
            f"{r[0]}: " + ", ".join(f"{m} {c}" for m, c in zip(rates, r[1:])) for r in rows) + "."
        s.parts.append(Figure(png, alt, f"Each rate over {key}, in the order the values were given.", table))
    else:
        s.parts.append(table)
    return s


def duel(plan: Plan, results: Results) -> Section | None:
    """A contender bot (`--bot ev`, `--bot search`) in one seat, rotated with the seed, against
    the bot it replaces in that seat on the same deal: the strong-against-weak result."""
    if not plan.duels:
        return None
    s = Section("The contender against the bot it replaces")
    s.paragraphs.append("The contender takes one seat (seed mod players + 1, so no seat's edge counts as skill) "
                        "among the other bots; the same seed is played again with the replaced bot in that seat. "
                        "Each side's win rate in that seat with Wilson's 95 % interval, and the difference paired "
                        "by seed with its normal 95 % interval; the fair share is one winner among the players.")
    rows = []
    for contender, baseline in plan.duels.items():
        for k in plan.counts:
            mine = {seed: f["wins"][focal_seat(seed, k) - 1] for seed, f in results[contender][k]}
            theirs = {seed: f["wins"][focal_seat(seed, k) - 1] for seed, f in results[baseline][k]}
            seeds = [x for x in mine if x in theirs]
            a, b = [float(mine[x]) for x in seeds], [float(theirs[x]) for x in seeds]
            diff = confidence.paired(a, b) if len(seeds) > 1 else Estimate(float("nan"), float("nan"), float("nan"))
            rows.append([f"{contender} against {baseline}, {k} players", str(len(seeds)), pct(_rate(a)), pct(_rate(b)),
                         f"{100 / k:.1f} %", pts(diff), confidence.verdict(diff) if len(seeds) > 1 else "–"])
    s.parts.append(Table("The contender's seat: its win rate, the replaced bot's, and the paired difference",
                         ["duel and player count", "deals", "contender wins", "replaced bot wins", "fair share",
                          "contender − replaced", "verdict"], rows))
    return s


def sections(plan: Plan, results: Results) -> list[Section]:
    """Every section the asked arms give, in the order a designer asks."""
    found = [table_minutes(plan, results), balance(plan, results), seat_edge(plan, results), roles(plan, results),
             firings(plan, results), closeness(plan, results), sweep(plan, results), comparisons(plan, results),
             interaction(plan, results), skill(plan, results), duel(plan, results), detect(plan, results)]
    return [s for s in found if s is not None]
