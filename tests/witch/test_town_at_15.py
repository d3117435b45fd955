"""The islanders at a 15-player table (AIWolf's regulation deck): a priest's findings believed
(a false priest claim is rare: `LIE_AS`), the worlds dealt with the claimants' findings
(`GUIDED_FINDINGS`, tests/roles/test_guided_findings.py); and two rules measured and left off
(docs/bots.md, "The islanders at 15"), tested switched on: the knight guards the mirror claimant
(`GUARD_MIRROR`), the town votes neither of two mirror claimants until the night tells them
apart (`WAIT_FOR_NIGHT`).  Each test fails with its rule switched off."""
from __future__ import annotations

import pytest

from kikimimi_games.witch import bots as witch_bots
from kikimimi_games.witch import reasoning

from .fifteen import said, seat


def test_the_knight_guards_the_mirror_claimant_before_the_priest(monkeypatch):
    """A mirror claimant and a priest claimant: a false priest claim is rarer, so the knight
    guarded the priest, and the witches banished the mirror-user; now it guards the mirror."""
    k = seat(5, "knight", gone=[14], voted=[1])
    said(k, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    said(k, 9, "CO priest; FOUND priest 1 human; VOTE 3")
    monkeypatch.setattr(reasoning, "GUARD_MIRROR", 0)
    assert k.night_target() == 9
    monkeypatch.setattr(reasoning, "GUARD_MIRROR", 3)
    assert k.night_target() == 7


def test_the_town_votes_neither_of_two_mirror_claimants_until_the_night_tells_them_apart(monkeypatch):
    """Seats 7 and 2 each claim the mirror and call the other a witch: a vote on either is a
    coin's toss (and the real one is the town's best lead), so islanders vote another seat; once
    seat 7 is banished overnight (never a witch), seat 2 is a liar and the vote."""
    monkeypatch.setattr(reasoning, "WAIT_FOR_NIGHT", 3)
    for number, role in ((3, "human"), (5, "knight"), (11, "priest")):
        h = seat(number, role, gone=[14], voted=[1])
        said(h, 7, "CO mirror; FOUND mirror 2 witch; VOTE 2")
        said(h, 2, "CO mirror; FOUND mirror 7 witch; VOTE 7")
        assert h.mind.undecided_mirrors() == [2, 7]
        assert h.vote() not in (2, 7)
        monkeypatch.setattr(reasoning, "WAIT_FOR_NIGHT", 0)
        assert h.vote() in (2, 7)  # before: one of the two, on the worlds' noise
        monkeypatch.setattr(reasoning, "WAIT_FOR_NIGHT", 3)
    h = seat(3, "human", day=3, gone=[14, 7], voted=[1, 9])
    said(h, 7, "CO mirror; FOUND mirror 2 witch; VOTE 2")
    said(h, 2, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert h.mind.undecided_mirrors() == [] and h.vote() == 2


def test_the_real_mirror_user_votes_its_rival(monkeypatch):
    """The mirror-user knows its rival lies: it is not held back."""
    monkeypatch.setattr(reasoning, "WAIT_FOR_NIGHT", 3)
    m = seat(7, "mirror", gone=[14], voted=[1])
    m.hear({"to": "seat:7", "key": "mirror-result", "params": {"target": 4, "found": "found:human"}})
    said(m, 2, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert m.mind.undecided_mirrors() == [] and m.vote() == 2


def test_the_wait_is_a_big_table_rule(monkeypatch):
    """At 10 players (2 witches) the town votes as before."""
    monkeypatch.setattr(reasoning, "WAIT_FOR_NIGHT", 3)
    h = seat(3, "human", gone=[10], voted=[1], players=10)
    said(h, 7, "CO mirror; FOUND mirror 2 witch; VOTE 2")
    said(h, 2, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert h.vote() in (2, 7)


def test_the_town_believes_a_priest_whose_findings_hold(monkeypatch):
    """Seed 3's day 4 as seat 1 heard it: the priest found 6 a witch and both mirror claimants
    human (one of them, 14, the familiar: it reads human).  With a false priest claim at 0.2 the
    worlds where the priest lies (the real priest, the familiar and the witches free to sit
    anywhere) outweighed the lie: the town voted out its priest."""
    def day4() -> witch_bots.BotSeat:
        h = seat(1, "human", day=4, gone=[4], voted=[6, 11, 14])
        said(h, 2, "CO priest; FOUND priest 6 witch; FOUND priest 11 human; FOUND priest 14 human; VOTE 10")
        said(h, 11, "CO mirror; FOUND mirror 7 human; VOTE 14")
        said(h, 14, "CO mirror; FOUND mirror 11 witch; FOUND mirror 7 witch; VOTE 7")
        return h
    h = day4()
    assert h.mind.worlds().p_lying(2) < 0.3
    assert h.vote() != 2
    monkeypatch.setattr(reasoning, "LIE_AS", {"priest": 0.2})
    h = day4()
    assert h.mind.worlds().p_lying(2) > 0.5
    assert h.vote() == 2
