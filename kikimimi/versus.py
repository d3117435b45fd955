"""Ways of playing side by side: bot kinds and rule variants over the same seeds.

`kikimimi sim GAME --games N --versus A,B --variant KEY=V1,V2` plays every
way ("arm") on the same seeds; each game gives its numbers (`measures`: a win
of a seat or team is 1 or 0, a game's length is a count).  This module only
does the statistics, on plain numbers, so every game's report shares it:

- each arm's figure with its 95 % interval (Wilson's for a rate);
- each arm against the first (the reference): the mean of the per-seed
  differences (paired by seed, so the deal's luck cancels) with its normal
  95 % interval, or the two samples' difference (Welch) when the seeds differ;
- one line naming the differences that stay significant after Holm's
  correction over every comparison the report makes.
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from kikimimi import confidence
from kikimimi.confidence import Estimate

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
    if keys_a and keys_a == keys_b:
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


def differences(arms: Mapping[str, Units]) -> list[Difference]:
    """Every arm after the first against the first, on every measure, Holm's call included."""
    names = list(arms)
    if len(names) < 2:
        return []
    ref = names[0]
    found = [difference(m, arm, ref, arms[arm], arms[ref]) for m in measures_of(arms) for arm in names[1:]]
    keep = confidence.holm([d.p for d in found])
    return [Difference(d.measure, d.arm, d.reference, d.diff, d.paired, d.p, k) for d, k in zip(found, keep)]


def _figure(est: Estimate, how: str) -> str:
    return est.percent() if how == RATE else est.points() if how == POINTS else est.mean()


def _diff(est: Estimate, how: str) -> str:
    return est.points() if how in (RATE, POINTS) else est.plain()


def text(title: str, arms: Mapping[str, Units]) -> str:
    """The comparison block: per measure, each arm's figure and its difference from the first."""
    names = list(arms)
    width = max((len(n) for n in names), default=0)
    found = {(d.measure, d.arm): d for d in differences(arms)}
    counts = ", ".join(f"{n} {len(arms[n])}" for n in names)
    lines = [f"{title}: {len(names)} ways of playing ({counts} games)"]
    for m in measures_of(arms):
        how = kind(arms, m)
        lines.append(f"{m}:")
        for n in names:
            xs = column(arms[n], m)
            line = f"  {n:<{width}}  {_figure(summary(xs, how), how) if xs else 'none'}"
            d = found.get((m, n))
            if d is not None:
                line += (f"   − {d.reference}: {_diff(d.diff, how)}"
                         f"{' (paired)' if d.paired else ' (unpaired)'}, p {d.p:.3f}")
            lines.append(line)
    every = list(found.values())
    if every:
        real = [f"{d.measure} ({d.arm} − {d.reference} {_diff(d.diff, kind(arms, d.measure))})"
                for d in every if d.holm]
        paired = all(d.paired for d in every)
        test = ("paired by seed: the mean of the per-seed differences with its normal 95 % interval"
                if paired else "the difference of two samples (the seeds differ): normal 95 % interval")
        lines.append(f"significant after Holm's correction over {len(every)} comparisons at 5 %: "
                     + ("; ".join(real) if real else "none"))
        lines.append(f"  (intervals are 95 %; each way against {names[0]}, {test}; "
                     "rates with Wilson's interval)")
    return "\n".join(lines)


def rates_plotted(arms: Mapping[str, Units]) -> tuple[list[str], dict[str, list[Estimate]]]:
    """The rate measures and each arm's estimates of them, for a picture with error bars."""
    rates = [m for m in measures_of(arms) if kind(arms, m) == RATE]
    return rates, {n: [summary(column(u, m), RATE) for m in rates] for n, u in arms.items()}
