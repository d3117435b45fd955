"""the live tally waited for every voter but not for a threatened seat, so a
threatened player who scanned nothing let the tally be read, while a seat that only
abstained held it back: the public view named the gangster's target."""
from __future__ import annotations

from kikimimi.testkit.roles_script import of, public_view, said

from .table import Table

C = "citizen"
JOBS = ["mafia", "gangster", C, C, C]


def vote_with(target: int, scanners: dict[int, int]) -> list[dict]:
    """Night: the gangster (seat 2) threatens `target`, the others scan as cover, the mafia
    kills seat 5; day: the vote with the given ballots, a reading's moment, the close."""
    t = Table(JOBS).night({1: 5, 2: target, 3: 1, 4: 1, 5: 1})
    t.next().next().heard()  # morning -> discussion -> vote, its clock started
    for seat, choice in scanners.items():
        t.hand(seat, f"seat:{choice}")
    t.wait(6).next()
    return t.run()


def test_the_same_motions_give_the_same_public_view_whoever_was_threatened():
    """Seat 4 scans nothing in both: once it is the threatened seat, once an abstainer."""
    ballots = {1: 3, 2: 3, 3: 1}
    a, b = vote_with(3, ballots), vote_with(4, ballots)
    assert said(a, "threatened-scan", "seat:3") and said(b, "threatened-scan", "seat:4")
    assert public_view(a) == public_view(b)
    assert not of(public_view(b), "tally", final=False)  # seat 4 not seen scanning: no reading


def test_a_threatened_seat_that_scans_lets_the_tally_be_read_and_counts_nothing():
    ballots = {1: 3, 2: 3, 3: 1, 4: 1}
    a, b = vote_with(3, ballots), vote_with(4, ballots)
    assert public_view(a) == public_view(b)
    readings = [e["totals"] for e in of(public_view(b), "tally") if not e.get("final")]
    assert readings == [{"3": 2, "1": 1}]  # seat 4's ballot was refused, in its earphone only
    assert said(b, "threatened", "seat:4") and not said(b, "voted", "seat:4")


def test_the_line_tells_the_threatened_seat_to_scan_in_both_languages():
    for lang in ("en", "ja"):
        t = Table(JOBS, lang=lang).night({2: 3})
        log = t.next().next().run()
        line = said(log, "threatened-scan", "seat:3")
        assert line and line[0]["text"], lang


def test_the_watchers_threat_adversary_sits_at_its_base_rate_with_human_like_seats():
    """Seats that scan nothing when told they cannot vote: no reading is ever heard while a
    living seat has not scanned, so the adversary's guess is its blind twin's, trial by trial."""
    from kikimimi.design.sim import play
    from support.watcher import HUMAN_LIKE, Score, Watched

    prepare, [(name, secret, adversary)] = HUMAN_LIKE["mafia42"]
    score = Score(name, secret)
    rng = __import__("random").Random(1)
    for seed in range(1, 41):
        script, log = play("mafia42", seed, 8, {}, "ear", prepare=prepare)
        assert not said(log, "voted", "seat:0")
        score.add(adversary(Watched.of(script, log), log, rng))
    told = sum(1 for t in score.trials if t.base == 0.0)
    assert told > 5, "human-like threatened seats sat votes out"
    assert all(t.hit == (t.base == 1.0) for t in score.trials), score.line()
    assert score.holds
