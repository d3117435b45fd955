"""Ways of playing side by side: bot kinds and rule variants over the same seeds.

`kikimimi sim GAME --games N --versus A,B --variant KEY=V1,V2` plays every
way ("arm") on the same seeds; each game gives its numbers (`measures`: a win
of a seat or team is 1 or 0, a game's length is a count).  This module only
does the statistics, on plain numbers, so every game's report shares it:

- each arm's figure with its 95 % interval (Wilson's for a rate);
- each arm against a baseline (the first, or one named) or every pair of arms:
  the mean of the per-seed differences (paired by seed, so the deal's luck
  cancels) with its normal 95 % interval, or the two samples' difference
  (Welch) when the seeds differ;
- one line naming the differences that stay significant after Holm's
  correction over the independent questions: of measures that always add up
  to one game (the islanders' win and the witches' when nobody else can win;
  every seat's win in a game one seat wins) the last is left out, since it is
  the others' answer again;
- the interaction of two varied options (a 2×2 contrast, paired by seed).
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from kikimimi.design import confidence
from kikimimi.design.confidence import Estimate

#: One arm's games: a unit (a seed, and whatever else names one game of it) -> its measures.
Units = Mapping[Hashable, Mapping[str, float]]


@dataclass(frozen=True)
class Difference:
    """One arm against the reference, on one measure."""

    measure: str
    arm: str
    reference: str
    diff: Estimate
    paired: int  # the number of pairs, or 0 when the samples were compared unpaired
    p: float
    holm: bool = False


RATE, POINTS, MEAN = "rate", "points", "mean"


def is_rate(values: Sequence[float]) -> bool:
    return bool(values) and all(v in (0, 1) for v in values)


def kind(arms: Mapping[str, Units], measure: str) -> str:
    """RATE when every arm's values are 0 or 1; POINTS for a difference of two such
    (every value -1, 0 or 1: shown in percentage points); MEAN otherwise."""
    values = [v for units in arms.values() for v in column(units, measure)]
    if not values:
        return MEAN
    if all(v in (0, 1) for v in values) and " − " not in measure:
        return RATE
    if all(v in (-1, 0, 1) for v in values) and measure.endswith(" wins"):
        return POINTS
    return MEAN


def summary(values: Sequence[float], how: str | None = None) -> Estimate:
    """A rate's Wilson interval (when every value is 0 or 1), else a mean's."""
    if how == RATE or (how is None and is_rate(values)):
        return confidence.rate(int(sum(values)), len(values))
    return confidence.mean(values)


def measures_of(arms: Mapping[str, Units]) -> list[str]:
    """Every measure: the rates first, then differences, then the rest, each in the
    order the games first gave them."""
    seen: dict[str, None] = {}
    for units in arms.values():
        for figures in units.values():
            seen.update(dict.fromkeys(figures))
    order = {RATE: 0, POINTS: 1, MEAN: 2}
    return sorted(seen, key=lambda m: (order[kind(arms, m)], " − " in m))


def column(units: Units, measure: str) -> list[float]:
    return [float(f[measure]) for f in units.values() if measure in f]


def difference(measure: str, arm: str, reference: str, a: Units, b: Units) -> Difference:
    """Arm a minus the reference b: paired by unit when every unit of either is in both."""
    keys_a = {k for k, f in a.items() if measure in f}
    keys_b = {k for k, f in b.items() if measure in f}
    if not keys_a or not keys_b:  # one arm never had it (a team it does not seat): no difference,
        nothing = Estimate(math.nan, math.nan, math.nan)  # never "+nan pts [-100.0, +100.0]"
        return Difference(measure, arm, reference, nothing, 0, 1.0)
    if keys_a == keys_b:
        keys = [k for k in a if k in keys_b]
        diff = confidence.paired([float(a[k][measure]) for k in keys], [float(b[k][measure]) for k in keys])
        pairs = len(keys)
    else:
        xa, xb = column(a, measure), column(b, measure)
        if is_rate(xa) and is_rate(xb):
            diff = confidence.difference(int(sum(xa)), len(xa), int(sum(xb)), len(xb))
        else:
            diff = confidence.mean_difference(xa, xb)
        pairs = 0
    p = confidence.p_value(diff)  # from the normal interval, before any clipping
    bound = max((abs(v) for v in column(a, measure) + column(b, measure)), default=0.0)
    if bound <= 1:  # a difference of rates lies in [-1, 1] (the normal interval may not, on few games)
        diff = Estimate(diff.value, max(-1.0, diff.low), min(1.0, diff.high))
    return Difference(measure, arm, reference, diff, pairs, p)


ALL_PAIRS = "all"


def pairs_of(names: Sequence[str], baseline: str | None = None) -> list[tuple[str, str]]:
    """(arm, reference) pairs: each arm against the baseline (default the first),
    or every pair of arms when the baseline is ALL_PAIRS."""
    if baseline == ALL_PAIRS:
        return [(b, a) for i, a in enumerate(names) for b in names[i + 1:]]
    ref = names[0] if baseline is None else baseline
    if ref not in names:
        raise ValueError(f"--baseline {ref!r}: no such arm (have: {', '.join(names)})")
    return [(n, ref) for n in names if n != ref]


def _family(measure: str) -> str:
    """Measures that answer one question: the same last word ("win", "wins"), and a seat's win
    apart from a turn-order place's ("seat 2 wins", "place 2 wins": each adds up to one game)."""
    words = measure.split(" ")
    return (words[0] + " " if words[0] in ("seat", "place") and len(words) > 2 else "") + words[-1]


def independent(arms: Mapping[str, Units], measures: Sequence[str]) -> list[str]:
    """The measures that are separate questions: within a family of rates (the
    same last word, "win" or "wins") whose values add up to exactly 1 in every
    game of every arm, the last is the others' answer again and is left out."""
    rates = [m for m in measures if kind(arms, m) == RATE]
    families: dict[str, list[str]] = {}
    for m in rates:
        families.setdefault(_family(m), []).append(m)
    dropped = set()
    for members in families.values():
        if len(members) < 2:
            continue
        sums = [sum(float(f[m]) for m in members if m in f)
                for units in arms.values() for f in units.values()]
        if sums and all(abs(x - 1.0) < 1e-9 for x in sums):
            dropped.add(members[-1])
    return [m for m in measures if m not in dropped]


def differences(arms: Mapping[str, Units], baseline: str | None = None,
                measures: Sequence[str] | None = None) -> list[Difference]:
    """Each comparison (pairs_of) on every measure, Holm's call over the
    independent ones (a left-out complement keeps holm False)."""
    names = list(arms)
    if len(names) < 2:
        return []
    chosen = list(measures) if measures is not None else measures_of(arms)
    found = [difference(m, arm, ref, arms[arm], arms[ref]) for m in chosen for arm, ref in pairs_of(names, baseline)]
    asked = set(independent(arms, chosen))
    tested = [i for i, d in enumerate(found) if d.measure in asked]
    keep = dict(zip(tested, confidence.holm([found[i].p for i in tested])))
    return [Difference(d.measure, d.arm, d.reference, d.diff, d.paired, d.p, keep.get(i, False))
            for i, d in enumerate(found)]


def questions(found: Sequence[Difference], arms: Mapping[str, Units]) -> int:
    """How many comparisons Holm's correction counted."""
    asked = set(independent(arms, list(dict.fromkeys(d.measure for d in found))))
    return sum(d.measure in asked for d in found)


def interaction(measure: str, cells: Sequence[Units]) -> tuple[Estimate, int]:
    """The 2×2 contrast (a11 − a10) − (a01 − a00) of two varied options, paired by
    the units all four cells played: how much the second option's effect changes
    with the first.  Returns the estimate and the number of units."""
    a00, a01, a10, a11 = cells
    keys = [k for k in a00 if all(k in c and measure in c[k] for c in cells)]
    values = [float(a11[k][measure]) - float(a10[k][measure]) - float(a01[k][measure]) + float(a00[k][measure])
              for k in keys]
    return confidence.mean(values), len(keys)


def _figure(est: Estimate, how: str) -> str:
    return est.percent() if how == RATE else est.points() if how == POINTS else est.mean()


def _diff(est: Estimate, how: str) -> str:
    return est.points() if how in (RATE, POINTS) else est.plain()


def text(title: str, arms: Mapping[str, Units], baseline: str | None = None) -> str:
    """The comparison block: per measure, each arm's figure and its differences from the
    baseline (the first arm unless named), or from every earlier arm (ALL_PAIRS)."""
    names = list(arms)
    width = max((len(n) for n in names), default=0)
    every = differences(arms, baseline)
    counts = ", ".join(f"{n} {len(arms[n])}" for n in names)
    lines = [f"{title}: {len(names)} ways of playing ({counts} games)"]
    for m in measures_of(arms):
        how = kind(arms, m)
        lines.append(f"{m}:")
        for n in names:
            xs = column(arms[n], m)
            line = f"  {n:<{width}}  {_figure(summary(xs, how), how) if xs else 'none'}"
            if how == MEAN and xs:  # a length's spread, not its mean alone
                q1, q2, q3 = confidence.quartiles(xs)
                line += f" (median {q2:.4g}, IQR {q1:.4g}–{q3:.4g}, {min(xs):.4g}–{max(xs):.4g})"
            for d in (d for d in every if d.measure == m and d.arm == n):
                line += (f"   − {d.reference}: {_diff(d.diff, how)}"
                         f"{' (paired)' if d.paired else ' (unpaired)'}, p {d.p:.3f}")
            lines.append(line)
    if every:
        real = [f"{d.measure} ({d.arm} − {d.reference} {_diff(d.diff, kind(arms, d.measure))})"
                for d in every if d.holm]
        paired = all(d.paired for d in every)
        test = ("paired by seed: the mean of the per-seed differences with its normal 95 % interval"
                if paired else "the difference of two samples (the seeds differ): normal 95 % interval")
        against = "every pair of ways" if baseline == ALL_PAIRS else f"each way against {baseline or names[0]}"
        lines.append(f"significant after Holm's correction over {questions(every, arms)} comparisons at 5 %: "
                     + ("; ".join(real) if real else "none"))
        lines.append(f"  (intervals are 95 %; {against}, {test}; rates with Wilson's interval)")
    return "\n".join(lines)


def rates_plotted(arms: Mapping[str, Units]) -> tuple[list[str], dict[str, list[Estimate]]]:
    """The rate measures and each arm's estimates of them, for a picture with error bars."""
    rates = [m for m in measures_of(arms) if kind(arms, m) == RATE]
    return rates, {n: [summary(column(u, m), RATE) for m in rates] for n, u in arms.items()}
