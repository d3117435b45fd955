"""Issue 34 (1): a referee's `next` typed just after the last ballot set off the count
was applied to the tied revote and wiped it."""
from __future__ import annotations

from kikimimi.roles.testing import of, said

from .table import day1, vote


def _tied_revote(dt_next: float):
    s = day1()
    s.console("next", dt=5)  # the talk is over: to the ballots
    vote(s, {1: 2, 2: 1, 3: 2, 4: 1, 5: 2, 6: 1, 7: 3, 8: 4})  # 3 and 3: a tie, the revote opens
    return s.console("next", dt=dt_next)


def test_next_just_after_the_count_is_refused_to_the_referee_and_the_revote_stands():
    log = _tied_revote(0.4).run()
    assert said(log, "revote") and not said(log, "nobody-out")
    refused = of(log, "error")[-1]
    assert refused["private"] == "referee" and refused["message"].startswith("next: a scan moved the game on")


def test_next_after_the_settle_counts_as_before():
    log = _tied_revote(3.0).run()
    assert said(log, "revote") and said(log, "nobody-out")
