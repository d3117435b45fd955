"""The witches' side at a 15-player table (AIWolf's regulation deck: 8 humans, the mirror,
the priest, the knight, 3 witches, the familiar): one fake mirror-user per team, the
familiar's bluff, the witches sparing their team's bluff, and `reason-witches` (each
side's skill).  Each test fails with the rule before it (docs/bots.md, "at 15 players")."""
from __future__ import annotations

import random

from kikimimi.roles import claims
from kikimimi.design.sim import play
from kikimimi_games.witch import bots as witch_bots
from kikimimi_games.witch import reasoning

from .fifteen import DECK15, said, seat


def test_a_witch_whose_partner_told_the_story_keeps_quiet():
    """Once a partner claimed the mirror (here voted out since), a second witch starting its own
    fake mirror story against the real one is a liar in every world: it says nothing."""
    w = seat(5, "witch", partners=[2, 9], day=3, gone=[14], voted=[2])
    said(w, 2, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    said(w, 7, "CO mirror; FOUND mirror 3 human; FOUND mirror 2 witch; VOTE 2")
    assert w.mind.speech() is None


def test_the_familiar_counters_a_lone_mirror_claim():
    """The familiar (who does not know the witches) counters a lone mirror claimant it believes:
    the island sees two mirror-users, and the one it may vote out is no witch."""
    f = seat(4, "familiar", gone=[14], voted=[1])
    said(f, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    line = f.mind.speech()
    assert line is not None
    assert claims.parse(line, witch_bots.VOCAB)[:2] == (claims.co("mirror"), claims.found("mirror", 7, "witch"))
    assert f.vote() == 7  # it votes its story's accusation


def test_the_familiar_stays_quiet_when_the_mirror_is_countered_already():
    f = seat(4, "familiar", gone=[14], voted=[1])
    said(f, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    said(f, 9, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert f.mind.speech() is None


def test_a_witch_does_not_make_a_third_mirror_claim():
    """Two mirror claimants and neither a partner: one is the team's bluff (the familiar); the
    witch who would tell the team's story (the lowest living seat) says nothing."""
    w = seat(2, "witch", partners=[5, 9], gone=[14], voted=[1])
    said(w, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    said(w, 4, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert w.mind.speech() is None


def test_the_witches_vote_the_real_mirror_and_spare_their_teams_bluff():
    """Seat 4 called seat 7 a witch: the witches know that is false, so seat 4 is their bluff;
    they vote (and banish) seat 7, never seat 4 (the lower seat, the old first choice)."""
    w = seat(5, "witch", partners=[2, 9], gone=[14], voted=[1])
    said(w, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    said(w, 4, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert w.mind.bluffing(4) and not w.mind.bluffing(7)
    assert w.vote() == 7
    w.hear({"to": "table", "key": "night", "params": {}})
    assert w.night_target() == 7


def test_the_familiars_bluff_is_a_big_table_rule():
    """At 8 players (2 witches) the familiar keeps quiet as before (`FAMILIAR_BLUFF` = 3 witches)."""
    f = witch_bots.BotSeat(4, 8, "reason", random.Random(4))
    f.hear({"to": "seat:4", "key": "your-role", "params": {"role": "role:familiar"}})
    f.hear({"to": "table", "key": "morning", "params": {"seats": [6]}})
    f.hear({"to": "table", "key": "day", "params": {"day": 2}})
    said(f, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    assert f.mind.speech() is None


def test_reason_witches_seats_the_witches_team_reasoning_and_the_islanders_plain():
    modes = {}
    for role in ("witch", "familiar", "human", "mirror"):
        s = witch_bots.BotSeat(1, 15, "reason-witches", random.Random(1), DECK15)
        s.hear({"to": "seat:1", "key": "your-role", "params": {"role": f"role:{role}"}})
        modes[role] = s.mode
    assert modes == {"witch": "reason", "familiar": "reason", "human": "plain", "mirror": "plain"}


def test_a_seeded_15_player_game_shows_the_familiars_bluff():
    """Seed 6: the familiar counters the real mirror, and no witch claims beside it."""
    _, log = play("witch", 6, 15, {"roles": DECK15}, "reason")
    over = next(e for e in log if e["type"] == "game-over")
    roles = {r["seat"]: r["role"] for r in over["ranking"]}
    mirror_claims = [e["params"]["seat"] for e in log if e["type"] == "say" and e["key"] == "speech"
                     and e["params"]["text"].startswith("CO mirror")]
    assert {roles[s] for s in mirror_claims} == {"mirror", "familiar"}


def test_a_seat_without_a_claim_names_its_likeliest_witch(monkeypatch):
    """Switched on (`ESTIMATE_RALLY`; measured, left off: docs/bots.md): A lone mirror claimant called seat 9 a witch: a human names seat 9 in an ESTIMATE (with its
    VOTE), a lead for the near-tied; before, a human said no claim line."""
    monkeypatch.setattr(reasoning, "ESTIMATE_RALLY", 3)
    monkeypatch.setattr(reasoning, "ESTIMATE_AT", 0.4)  # a lone claimant's "witch" reads about 0.47 in these worlds
    h = seat(3, "human", gone=[14], voted=[1])
    said(h, 7, "CO mirror; FOUND mirror 9 witch")
    assert h.mind.speech() == "ESTIMATE 9 witch; VOTE 9"


def test_near_tied_voters_rally_on_the_seat_the_estimates_name(monkeypatch):
    """Switched on (`ESTIMATE_RALLY`): Nothing is claimed: every seat is near-tied for a human, who follows the seat two others
    named in today's ESTIMATEs."""
    monkeypatch.setattr(reasoning, "ESTIMATE_RALLY", 3)
    h = seat(3, "human", gone=[14], voted=[1])
    said(h, 5, "ESTIMATE 11 witch; VOTE 11")
    said(h, 6, "ESTIMATE 11 witch; VOTE 11")
    assert h.mind.suspect() == 11
    assert h.vote() == 11


def test_a_witch_without_a_story_frames_the_teams_day_target(monkeypatch):
    """Switched on (`ESTIMATE_FRAME`): The witch telling no story (its partner tells none either: none claims) names the team's
    day target, the real mirror claimant, in an ESTIMATE."""
    monkeypatch.setattr(reasoning, "ESTIMATE_FRAME", 3)
    w = seat(9, "witch", partners=[2, 5], gone=[14], voted=[1])
    said(w, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    said(w, 4, "CO mirror; FOUND mirror 7 witch; VOTE 7")
    assert w.mind.speech() == "ESTIMATE 7 witch; VOTE 7"


def test_at_a_big_table_the_witches_leave_a_lone_mirror_claim_to_the_familiar():
    """From 3 witches (`NO_PREEMPT`) the witch telling the team's story never claims the mirror
    before a rival does, even when it meant to lie (the old rule's `PREEMPT` draw): a lone mirror
    claim is then the real one, and the familiar's counter never accuses a witch."""
    w = seat(2, "witch", partners=[5, 9], gone=[14], voted=[1])
    w.mind.lying = True  # the draw that made the old rule claim
    assert w.mind.speech() is None
    said(w, 7, "CO mirror; FOUND mirror 3 human; VOTE 3")
    line = w.mind.speech()  # a rival: the counter-claim, as before
    assert line is not None and line.startswith("CO mirror; FOUND mirror 7 witch")
