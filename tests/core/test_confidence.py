"""The reports' 95 % intervals: known values, and the significance call."""
from __future__ import annotations

import math

import pytest

from kikimimi.design import confidence


def test_wilson_interval_matches_the_textbook():
    est = confidence.rate(5, 10)  # Wilson, z = 1.96: [0.2366, 0.7634]
    assert est.value == 0.5
    assert est.low == pytest.approx(0.2366, abs=1e-4) and est.high == pytest.approx(0.7634, abs=1e-4)
    zero = confidence.rate(0, 20)
    assert zero.low == 0.0 and 0.1 < zero.high < 0.2


def test_a_paired_difference_is_significant_only_when_its_interval_excludes_zero():
    same = confidence.paired([1, 0, 1, 0] * 50, [0, 1, 1, 0] * 50)
    assert same.value == 0 and not same.significant
    better = confidence.paired([1, 1, 1, 0] * 50, [0, 1, 0, 0] * 50)
    assert better.value == pytest.approx(0.5) and better.significant and better.low > 0
    assert "significant" == confidence.verdict(better)
    with pytest.raises(ValueError):
        confidence.paired([1], [1, 2])


def test_independent_difference_and_empty_samples():
    d = confidence.difference(60, 100, 40, 100)
    assert d.value == pytest.approx(0.2) and d.significant
    assert math.isnan(confidence.rate(0, 0).value)
    assert math.isnan(confidence.mean([]).value)
