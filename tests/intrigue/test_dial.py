"""The hidden-bribe dial tells a watcher nothing by its taps.

The dial once wrapped at the bidder's own cash, so the number of BRIBE taps (which every
watcher sees) spread as wide as the cash, and a rich bidder's larger bribes showed as
more taps (the watcher's bench: 37.3 % against a 33.8 % base rate).  Now it wraps at the
starting cash for every bidder: from a start drawn uniformly on that fixed dial, the taps
to any amount are uniform on the same range, whatever the amount and the cash."""
from __future__ import annotations

from collections import Counter

from kikimimi.design.sim import play
from support.watcher import Watched, intrigue_bribe_trials

from .helpers import Script

STEP, START = 10_000, 320_000
TOP = START // STEP  # the dial's last position, in steps


def poorer_bidder() -> tuple[Script, int]:
    """Seat 1 has paid two steps for one advisor and now offers for the next: its cash is
    no longer the starting cash.  Returns the script and the second dial's start (steps)."""
    s = Script(bribes="hidden")
    s.send(1, "1-law-1", 2).send(1, "1-finance-1", 3)
    first = [e for e in s.run().log if e.get("key") == "offer-dial"][-1]["params"]["amount"] // STEP
    s.offer(1, (2 - first) % (TOP + 1))  # seat 2's turn: two steps for the law advisor
    s.place(2, "1-law-1", 1).send(2, "2-law-1", 4).send(2, "2-finance-1", 1)
    r = s.run()  # seat 3's turn: seat 1 offers for its finance advisor, 30 steps in hand
    assert r.cash(1) == START - 2 * STEP
    dials = [e for e in r.log if e.get("key") == "offer-dial"]
    assert len(dials) == 2 and dials[-1]["to"] == "seat:1"
    return s, dials[-1]["params"]["amount"] // STEP


def heard(run, line: int) -> list[tuple[str, int]]:
    return [(e["key"], e["params"]["amount"]) for e in run.at(line)
            if e["type"] == "say" and e["key"] in ("offer-raised", "offer-dial-over")]


def test_the_dial_wraps_at_the_starting_cash_whatever_the_bidders_cash():
    s, start = poorer_bidder()
    lines = []
    for _ in range(TOP + 1):
        lines.append(s.cmd(1, "bribe").line)
    r = s.run()
    seen = [h for line in lines for h in heard(r, line)]
    assert len(seen) == TOP + 1
    amounts = [a // STEP for _, a in seen]
    # one full turn of the dial is TOP + 1 taps for every bidder (it was the bidder's cash + 1)
    assert amounts[-1] == start and sorted(amounts) == list(range(TOP + 1))
    cash = (START - 2 * STEP) // STEP
    assert {a // STEP for k, a in seen if k == "offer-dial-over"} == set(range(cash + 1, TOP + 1))


def test_ok_past_the_bidders_cash_is_refused_to_the_bidder_alone_and_changes_nothing():
    s, start = poorer_bidder()
    over = TOP  # the dial's top: more than seat 1's cash now
    for _ in range((over - start) % (TOP + 1)):
        s.cmd(1, "bribe")
    s.cmd(1, "ok")
    r = s.run()
    refused = [e for e in r.at(s.line) if e["type"] == "say"]
    assert [(e["key"], e["to"]) for e in refused] == [("offer-over-cash", "seat:1")]
    assert not r.of("offer", s.line) and r.cash(1) == START - 2 * STEP
    s.cmd(1, "bribe").cmd(1, "ok")  # on past the top: back to nothing, which it can offer
    assert s.run().of("offer", s.line)[0]["amount"] == 0


def test_a_watcher_counting_taps_sees_the_same_spread_for_every_amount():
    """A small seeded watcher: over ear-bot games with hidden bribes, every tap count up to
    the dial's top is possible and none beyond it, and the taps' mean is alike for the
    amounts offered (on the old dial a wider cash meant both more taps and more money)."""
    by_amount: dict[int, list[int]] = {}
    for seed in range(1, 13):
        script, log = play("intrigue", seed, 4, {"bribes": "hidden", "seed": 1000 + seed}, "ear")
        for taps, amount in intrigue_bribe_trials(Watched.of(script, log), log):
            by_amount.setdefault(amount, []).append(taps)
    assert max(max(t) for t in by_amount.values()) <= TOP + 1  # the OK is a scan too
    counts = Counter(a for a, t in by_amount.items() for _ in t)
    common = [a for a, n in counts.items() if n >= 40]
    assert len(common) >= 2
    means = [sum(by_amount[a]) / len(by_amount[a]) for a in common]
    assert max(means) - min(means) < 4, means  # uniform on 0..32: mean 16, sd 9.5
