"""The same motions for the day powers (`day_acts` acts; together, the default,
adds silence and ballots: test_same_motions.py).

Every living seat makes one day act a day, a power or PASS, each a command tag and a
seat token; the count waits for every act and ballot.  So the priest's EXORCISE and a
human's ADVISE look like everyone's PASS."""
from __future__ import annotations

from collections import Counter

from kikimimi.testkit.roles_script import of, said
from kikimimi.design.sim import play

from .table import table

ALL = list(range(1, 9))


def day1_together():
    s = table(day_acts="acts")
    for seat in ALL:
        s.hand(seat, "cmd:ok")
    return s


def test_the_count_waits_for_every_seats_day_act_and_pass_does_nothing():
    s = day1_together()
    for seat in ALL:
        s.hand(seat, "seat:7" if seat != 7 else "seat:8")
    log = s.run()
    assert not of(log, "tally")  # every ballot is in, but no seat has made its act
    for seat in ALL:
        tag = {4: "cmd:exorcise", 7: "cmd:advise"}.get(seat, "cmd:pass")
        s.hand(seat, tag).hand(seat, "seat:1" if seat != 1 else "seat:2")
    log = s.run()
    assert len(of(log, "tally")) == 1 and of(log, "tally")[0]["t"] == s.t  # at the last act
    assert said(log, "exorcise-noted", "seat:4") and said(log, "advise-noted", "seat:7")
    assert len(said(log, "pass-noted")) == 6
    assert of(log, "out")[0]["seat"] == 7  # the passes' tokens were no votes


def test_one_day_act_a_day():
    s = day1_together().hand(3, "cmd:pass").hand(3, "seat:1").hand(3, "cmd:advise")
    log = s.run()
    assert said(log, "act-done", "seat:3")


def test_the_speaker_tells_everyone_the_motion_expected_of_all():
    log = day1_together().console("next", dt=5).run()
    call = said(log, "vote-now-acts", "table")
    assert call and "PASS" in call[0]["text"]


def test_every_ear_bot_makes_the_same_day_motions_whatever_its_role():
    """The watcher's count: in every game, each living seat scans the same number of
    pieces by day (the act's two, its ballot, a revote's), none a seat's power alone."""
    for seed in range(1, 6):
        script, log = play("witch", seed, 8, {}, "ear")
        days = [e["t"] for e in of(log, "phase") if e["phase"] == "day"]
        nights = [e["t"] for e in of(log, "phase") if e["phase"] == "night"]
        for start, end in zip(days, nights):
            per_seat = Counter(line["seat"] for line in script[1:]
                               if line.get("reader") == "hand" and start < line["t"] <= end)
            assert len(set(per_seat.values())) <= 1, (seed, start, per_seat)
