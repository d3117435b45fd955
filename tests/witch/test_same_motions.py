"""The same motions for silence and ballots (`day_acts` together, the
default).  Silence is chosen only at a silence call every living seat answers (SILENCE or
PASS); a ballot is one seat token at the vote call, and a change only the last word, one more
seat token every seat scans; the day acts too wait for the vote call."""
from __future__ import annotations

import random
from collections import Counter

from kikimimi.table.public import public_view
from kikimimi.testkit.roles_script import of, said
from kikimimi.design.sim import play
from support.watcher import Score, Watched, witch_silencer_by_scans

from .table import table

ALL = list(range(1, 9))


def day1(**options):
    s = table(**{"day_acts": "together", **options})
    for seat in ALL:
        s.hand(seat, "cmd:ok")
    return s


def answer_call(s, silent):
    s.console("silencecall")
    for seat in ALL:
        s.hand(seat, "cmd:silence" if seat in silent else "cmd:pass")
    return s


def vote_call(s, ballots, seats=ALL):
    """The talk ended by the referee; every seat's day act (PASS), then its ballot."""
    if seats == ALL or 1 in seats:
        s.console("next", dt=5)
    for seat in seats:
        s.hand(seat, "cmd:pass").hand(seat, "seat:1" if seat != 1 else "seat:2")
        s.hand(seat, f"seat:{ballots[seat]}")
    return s


BALLOTS = {seat: (7 if seat != 7 else 8) for seat in ALL}


def test_silence_outside_a_call_is_refused_and_takes_nothing():
    log = day1().hand(1, "cmd:silence").hand(2, "cmd:silence").hand(3, "cmd:silence").hand(4, "cmd:silence") \
        .hand(5, "cmd:silence").console("next", dt=60).run()
    assert len(said(log, "silence-at-call")) == 5 and not said(log, "silence-noted")
    assert not of(log, "silence")


def test_a_silence_call_ends_at_the_last_answer_whatever_the_answers():
    s = answer_call(day1(), silent={1, 2, 3, 4, 5})
    log = s.run()
    (closed,) = of(log, "silence-call", open=False)
    (silence,) = of(log, "silence")
    assert closed["t"] == silence["t"] == s.t and silence["day_left"] == 660  # at seat 8's scan, a PASS
    assert len(said(log, "silence-noted")) == 5 and len(said(log, "silence-passed")) == 3
    s = answer_call(s, silent={1, 2, 3, 4, 5, 6})  # it can happen again the same day
    log = s.run()
    assert [e["day_left"] for e in of(log, "silence")] == [660, 600]
    s = answer_call(s, silent={1, 2, 3, 4})  # exactly half is not more than half
    log = s.run()
    assert len(of(log, "silence")) == 2 and said(log, "silence-call-over", "table")


def test_the_public_sees_one_answer_from_every_seat_and_no_choice():
    """Two calls, different choosers: the public view is the same but for times and sequence."""
    def public(silent):
        log = answer_call(day1(), silent).run()
        return [(e["type"], e.get("key")) for e in public_view(log)]
    assert public({1, 2, 3}) == public({6, 7, 8})


def test_a_seat_answers_a_call_once_and_pass_is_its_answer_not_a_day_act():
    log = day1().console("silencecall").hand(3, "cmd:pass").hand(3, "cmd:silence").hand(3, "cmd:pass").run()
    assert said(log, "silence-passed", "seat:3") and said(log, "silence-answered", "seat:3")
    assert said(log, "act-at-call", "seat:3")  # the second PASS: a day act, not yet


def test_ballots_and_day_acts_wait_for_the_vote_call():
    log = day1().hand(2, "seat:7").hand(4, "cmd:exorcise").run()
    assert said(log, "vote-at-call", "seat:2") and said(log, "act-at-call", "seat:4")
    assert not said(log, "voted") and not said(log, "voted-call")


def test_the_count_waits_for_the_last_word_every_seat_scans_and_a_change_is_made_there():
    s = vote_call(day1(), BALLOTS, seats=ALL[:-1])
    s.hand(2, "seat:8", dt=2)
    log = s.run()
    assert said(log, "ballot-cast", "seat:2") and not said(log, "last-word")  # a second ballot: refused
    log = vote_call(s, BALLOTS, seats=ALL[-1:]).run()
    assert said(log, "vote-now-all", "table") and said(log, "last-word", "table")
    assert not of(log, "tally")  # every act and ballot is in: the last word, not the count
    for seat in ALL:  # seats 1-4 change to 8 (seat 8 kept 7): the change is the same motion as a keep
        s.hand(seat, "seat:8" if seat <= 4 else f"seat:{BALLOTS[seat]}")
    log = s.run()
    (tally,) = of(log, "tally")
    assert tally["t"] == s.t and tally["ballots"]["1"] == 8 and tally["ballots"]["5"] == 7
    assert len(said(log, "ballot-final")) == 8


def test_a_last_word_is_scanned_once():
    s = vote_call(day1(), BALLOTS)
    s.hand(3, "seat:8").hand(3, "seat:6")
    log = s.run()
    assert said(log, "ballot-final-done", "seat:3") and not of(log, "tally")


def test_a_revote_is_one_ballot_each_then_the_last_word():
    s = vote_call(day1(), {1: 7, 2: 7, 3: 7, 4: 7, 5: 8, 6: 8, 7: 8, 8: 7})
    for seat in ALL:
        s.hand(seat, f"seat:{ {1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 8, 8: 7}[seat]}")  # 4-4: a tie
    log = s.run()
    assert said(log, "revote", "table") and said(log, "revote-call", "table")
    for seat in ALL:
        s.hand(seat, f"seat:{7 if seat != 7 else 8}")
    assert len(of(s.run(), "tally")) == 1  # the revote's ballots are in: its last word, no count yet
    for seat in ALL:
        s.hand(seat, f"seat:{7 if seat != 7 else 8}")
    log = s.run()
    assert [t["round"] for t in of(log, "tally")] == [1, 2] and of(log, "out")[0]["seat"] == 7


def test_the_referee_next_still_counts_the_ballots_cast():
    s = day1().console("next", dt=5)
    s.hand(1, "seat:7").hand(2, "seat:7").hand(3, "seat:8")
    log = s.console("next", dt=5).run()
    assert of(log, "tally") and of(log, "out")[0]["seat"] == 7


def test_the_old_rules_stay_behind_the_option():
    log = day1(day_acts="acts").hand(1, "cmd:silence").hand(2, "seat:7").run()
    assert said(log, "silence-noted", "seat:1") and said(log, "voted", "seat:2")


def test_ear_bots_make_the_same_motions_in_every_window():
    """In the talk (silence calls) and from the vote call to nightfall, every living seat
    scans the same number of pieces, whatever its role or its choice."""
    calls = chose = 0
    for seed in range(1, 4):
        script, log = play("witch", seed, 8, {}, "ear")
        assert not of(log, "error") or all(e.get("private") for e in of(log, "error"))
        calls += len(of(log, "silence-call", open=True))
        chose += len(said(log, "silence-noted"))
        phases = [(e["phase"], e["t"]) for e in of(log, "phase")]
        for (phase, start), (_, end) in zip(phases, phases[1:]):
            if phase != "day":
                continue
            call = min([e["t"] for e in said(log, "vote-now-all") if start <= e["t"] <= end] + [end])
            for a, b in ((start, call), (call, end)):
                per_seat = Counter(line["seat"] for line in script[1:]
                                   if line.get("reader") == "hand" and a < line["t"] <= b)
                assert len(set(per_seat.values())) <= 1, (seed, a, b, per_seat)
    assert calls and chose  # the bots were called, and some chose silence


def test_the_silencer_adversary_catches_the_old_rule_and_not_the_new():
    def score(options):
        out = Score("silencer by talk scans", "who chose silence")
        rng = random.Random(3)
        for seed in range(1, 7):
            script, log = play("witch", seed, 8, options, "ear")
            out.add(witch_silencer_by_scans(Watched.of(script, log), log, rng))
        return out
    leaky = score({"day_acts": "acts"})
    assert leaky.trials and leaky.accuracy.low > leaky.base, leaky.line()
    kept = score({})
    assert kept.trials and kept.holds, kept.line()


def test_a_hint_says_the_open_call_and_whether_this_seat_answered():
    log = day1().console("silencecall").hand(2, "cmd:silence").hand(2, "cmd:hint").hand(3, "cmd:hint").run()
    assert said(log, "silence-call", "seat:2") and said(log, "silence-call", "seat:3")
    assert said(log, "hint-silence-answered", "seat:2") and not said(log, "hint-silence-answered", "seat:3")


def test_the_silence_call_is_the_referees_while_the_talk_is_on_once_at_a_time():
    log = day1().console("silencecall").console("silencecall").run()
    assert len(of(log, "silence-call", open=True)) == 1 and "a silence call is open" in of(log, "error")[-1]["message"]
    log = day1().console("next", dt=5).console("silencecall", dt=3).run()
    assert not of(log, "silence-call") and "only while the day's talk is on" in of(log, "error")[-1]["message"]
    log = day1(day_acts="acts").console("silencecall").run()
    assert not of(log, "silence-call") and of(log, "error")[-1]["private"] == "referee"
