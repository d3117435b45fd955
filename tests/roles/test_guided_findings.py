"""`Rules.guided_findings` (kikimimi/roles/worlds.py): the guided draw deals a claimant's
findings as claimed once it has dealt the claimant its claimed role.  Many findings otherwise
leave few drawn worlds where they all hold (闇に笑う魔女 at 15 seats: about twenty by day 5;
docs/bots.md, "The islanders at 15")."""
from __future__ import annotations

import random

import pytest

from kikimimi.roles import claims, worlds
from kikimimi.roles.claims import ClaimBoard, Vocabulary
from kikimimi.roles.worlds import Knowledge, Rules, Worlds

VOCAB = Vocabulary.of(("witch", "mirror", "priest", "human", "familiar"), ("witch", "human"), 12)
READ = {"witch": "witch", "mirror": "human", "priest": "human", "human": "human", "familiar": "human"}
TEAMS = {"witch": "witches", "familiar": "witches", "mirror": "islanders", "priest": "islanders",
         "human": "islanders"}
DECK = ("witch", "witch", "mirror", "priest", "familiar", *("human",) * 5)


def _ess(w: Worlds) -> float:
    weights = [x for _, x in w.worlds]
    return sum(weights) ** 2 / sum(x * x for x in weights)


def _rules(findings: bool) -> Rules:
    return Rules(TEAMS, {"mirror": READ, "priest": READ}, {"witches": 0.3, "islanders": 0.02},
                 lie_as={"priest": 0.2}, guided=True, guided_findings=findings)


def test_guided_findings_rest_on_more_worlds_and_agree_with_the_exact_answer(monkeypatch):
    """A mirror claimant and a priest claimant with five findings between them on a 10-seat deck:
    dealing the findings as claimed draws many more worlds that count, and the answer still
    agrees with the exact one (the draw's ratio undoes the guidance)."""
    know = Knowledge(1, DECK, {1: "human"})
    board = ClaimBoard()
    board.post(2, 2, claims.parse("CO mirror; FOUND mirror 5 witch; FOUND mirror 6 human; FOUND mirror 7 human", VOCAB))
    board.post(3, 2, claims.parse("CO priest; FOUND priest 8 witch; FOUND priest 9 human", VOCAB))
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10**6)
    exact = Worlds(_rules(False), know, board)
    assert exact.exact
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10)
    plain = Worlds(_rules(False), know, board, random.Random(5))
    guided = Worlds(_rules(True), know, board, random.Random(5))
    assert not guided.exact and len(guided.worlds) == worlds.SAMPLES
    assert guided.worlds == Worlds(_rules(True), know, board, random.Random(5)).worlds  # replays from its seed
    assert _ess(guided) > 1.5 * _ess(plain), (_ess(guided), _ess(plain))
    for seat in range(2, 11):
        assert guided.p_team(seat, "witches") == pytest.approx(exact.p_team(seat, "witches"), abs=0.1)
    assert guided.p_lying(2) == pytest.approx(exact.p_lying(2), abs=0.1)


def test_guided_findings_never_draw_a_world_the_hard_facts_forbid(monkeypatch):
    """A claimant's finding is guidance, never a fact: the seat's own finding still rules."""
    know = Knowledge(4, DECK, {4: "mirror"}, findings={5: "human"})
    board = ClaimBoard()
    board.post(2, 2, claims.parse("CO mirror; FOUND mirror 5 witch", VOCAB))
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10)
    w = Worlds(_rules(True), know, board, random.Random(1))
    assert w.worlds and w.p_role(5, "witch") == 0 and w.p_lying(2) == 1
