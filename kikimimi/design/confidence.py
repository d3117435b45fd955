"""95 % intervals for the designer's reports, and whether a difference is real.

A bot-game figure is a sample: "seat 1 wins 61.5 %" from 200 games could be
55 % or 68 %.  Every report that compares two bot kinds or two rule variants
says the interval beside the figure, and calls a difference significant only
when its interval excludes zero.  Normal approximations throughout (Wilson's
score interval for a rate): the reports play hundreds of games or more.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
#: How a figure that does not exist is written (a side that never had the measure).
NONE = "– (not measured on both sides)"


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95 % interval."""

    value: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """For a difference: its interval excludes zero."""
        return self.low > 0 or self.high < 0

    @property
    def missing(self) -> bool:
        """No figure at all (nothing measured, or a measure one side never had)."""
        return math.isnan(self.value)

    def percent(self) -> str:
        if self.missing:
            return NONE
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}]"

    def points(self) -> str:
        """A difference of two rates, in percentage points."""
        if self.missing:
            return NONE
        return f"{100 * self.value:+.1f} pts [{100 * self.low:+.1f}, {100 * self.high:+.1f}]"

    def plain(self, digits: int = 2) -> str:
        if self.missing:
            return NONE
        return f"{self.value:+.{digits}f} [{self.low:+.{digits}f}, {self.high:+.{digits}f}]"

    def mean(self, digits: int = 2) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def rate(hits: int, n: int) -> Estimate:
    """Wilson's score interval for hits out of n (sound near 0 % and 100 % too)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def mean(xs: Sequence[float]) -> Estimate:
    """A mean and its interval."""
    n = len(xs)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    m = statistics.fmean(xs)
    if n == 1:
        return Estimate(m, math.nan, math.nan)
    half = Z95 * statistics.stdev(xs) / math.sqrt(n)
    return Estimate(m, m - half, m + half)


def paired(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """The mean of a − b over pairs (the same seed played two ways): the
    pairing removes the deal's luck from the comparison."""
    if len(a) != len(b):
        raise ValueError("paired samples must be the same length")
    return mean([x - y for x, y in zip(a, b)])


def difference(hits_a: int, n_a: int, hits_b: int, n_b: int) -> Estimate:
    """Rate a − rate b for two independent samples."""
    if n_a <= 0 or n_b <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    pa, pb = hits_a / n_a, hits_b / n_b
    half = Z95 * math.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    return Estimate(pa - pb, pa - pb - half, pa - pb + half)


def mean_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """Mean a − mean b for two independent samples (Welch's standard error)."""
    if len(a) < 2 or len(b) < 2:
        return Estimate(math.nan, math.nan, math.nan)
    d = statistics.fmean(a) - statistics.fmean(b)
    half = Z95 * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return Estimate(d, d - half, d + half)


def p_value(diff: Estimate) -> float:
    """The two-sided p-value of a difference whose interval is a normal 95 % one
    (its half-width is 1.96 standard errors); 1.0 when there is no spread to judge by."""
    se = (diff.high - diff.low) / (2 * Z95)
    if not se > 0:  # nan, or every pair the same
        return 0.0 if se == 0 and diff.value != 0 else 1.0
    return math.erfc(abs(diff.value) / se / math.sqrt(2))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Which of several comparisons stay significant after Holm's step-down
    correction: a report that makes twenty comparisons at 5 % each would
    otherwise call one of them real by chance alone."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    keep = [False] * len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - rank):
            break
        keep[i] = True
    return keep


def verdict(diff: Estimate) -> str:
    return "significant" if diff.significant else "not significant (the interval includes 0)"


Z80 = 0.8416212335729143  # the normal quantile for 80 % power (one side of the test)


def quartiles(xs: Sequence[float]) -> tuple[float, float, float]:
    """(lower quartile, median, upper quartile), Python's "inclusive" method
    (the spread a designer reads beside a median: half the games lie between)."""
    if not xs:
        return (math.nan, math.nan, math.nan)
    if len(xs) == 1:
        return (float(xs[0]),) * 3
    q1, q2, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return (q1, q2, q3)


def games_needed(p: float, delta: float) -> int:
    """Games per arm to see a change of `delta` from a rate `p` at 80 % power and
    a two-sided 5 % level, two independent samples (Fleiss's formula without
    continuity correction): n = (z_a·√(2·p̄·q̄) + z_b·√(p1·q1 + p2·q2))² / δ²,
    p̄ the mean of p1 = p and p2 = p ± δ (toward 50 %, so p2 stays a rate)."""
    if not 0 < delta < 1 or not 0 <= p <= 1:
        raise ValueError("a rate in [0, 1] and a change in (0, 1)")
    p2 = p + delta if p + delta <= 1 and (p <= 0.5 or p - delta < 0) else p - delta
    bar = (p + p2) / 2
    root = Z95 * math.sqrt(2 * bar * (1 - bar)) + Z80 * math.sqrt(p * (1 - p) + p2 * (1 - p2))
    return math.ceil((root / delta) ** 2)


def pairs_needed(sd: float, delta: float) -> int:
    """Pairs (seeds played both ways) to see a mean paired difference of `delta`
    at 80 % power and a two-sided 5 % level, given the per-pair differences'
    standard deviation `sd`: n = ((z_a + z_b)·sd / δ)² (the normal approximation)."""
    if not delta > 0 or not sd >= 0:
        raise ValueError("a positive change and a standard deviation")
    return max(2, math.ceil(((Z95 + Z80) * sd / delta) ** 2))
