"""The claim channel and the possible worlds (kikimimi/roles/claims.py, worlds.py), on decks
small enough to work out by hand."""
from __future__ import annotations

import random

import pytest

from kikimimi.roles import claims, worlds
from kikimimi.roles.claims import ClaimBoard, ClaimError, Vocabulary
from kikimimi.roles.worlds import Knowledge, Rules, Worlds

VOCAB = Vocabulary.of(("witch", "mirror", "human", "familiar"), ("witch", "human"), 8)
READ = {"witch": "witch", "mirror": "human", "human": "human", "familiar": "human"}
TEAMS = {"witch": "witches", "familiar": "witches", "mirror": "islanders", "human": "islanders"}


def rules(islanders_lie: float = 0.0) -> Rules:
    return Rules(TEAMS, {"mirror": READ}, {"witches": 1.0, "islanders": islanders_lie})


# -- the text form and its parser ----------------------------------------------------
def test_a_claim_line_round_trips():
    said = (claims.co("mirror"), claims.found("mirror", 3, "witch"), claims.vote(3), claims.estimate(5, "human"))
    line = claims.text(said)
    assert line == "CO mirror; FOUND mirror 3 witch; VOTE 3; ESTIMATE 5 human"
    assert claims.parse(line, VOCAB) == said
    assert claims.looks_like_claims(line) and not claims.looks_like_claims("hmm, who could it be")


@pytest.mark.parametrize("line, fault", [
    ("CO mirror; " * 40, "at most 400 characters"),
    ("; ".join(["VOTE 1"] * 17), "at most 16 claims"),
    ("CO wizard", "unknown role 'wizard'"),
    ("FOUND mirror 9 witch", "a seat is a number 1-8, not '9'"),
    ("FOUND mirror 3 vampire", "unknown result 'vampire'"),
    ("VOTE 3 4", "VOTE takes 1 word, not 2"),
    ("VOTE ３", "a seat is a number"),
    ("VOTE 03", "a seat is a number"),
    ("CO mirror\nVOTE 1", "printable characters only"),
    ("hello; CO mirror", "claim 1: starts with one of CO, FOUND, VOTE, ESTIMATE"),
    ("CO mirror;", "claim 2: starts with"),
    ("ESTIMATE 2 " + "x" * 300, "unknown role or result"),
])
def test_the_parser_refuses_garbage_in_one_line(line, fault):
    with pytest.raises(ClaimError) as err:
        claims.parse(line, VOCAB)
    message = str(err.value)
    assert fault in message and "\n" not in message and len(message) < 120


def test_the_board_keeps_each_seats_latest_line_per_day_and_flags_a_changed_finding():
    board = ClaimBoard()
    board.post(2, 1, claims.parse("FOUND mirror 3 witch; VOTE 3", VOCAB))
    board.post(2, 1, claims.parse("VOTE 4", VOCAB))
    board.post(5, 2, claims.parse("CO mirror; VOTE 2", VOCAB))
    assert board.lines[1][2] == (claims.vote(4),)
    assert board.roles == {2: "mirror", 5: "mirror"} and board.claimants("mirror") == [2, 5]
    assert board.intentions(1) == {2: 4} and board.intentions(2) == {5: 2}
    assert board.findings[2] == {3: "witch"} and not board.changed
    board.post(2, 2, claims.parse("FOUND mirror 3 human", VOCAB))
    assert board.changed == {2} and board.findings[2] == {3: "human"}


# -- the worlds, by hand -----------------------------------------------------------------
DECK = ("witch", "mirror", "human", "human")


def lone_claim() -> ClaimBoard:
    board = ClaimBoard()
    board.post(2, 1, claims.parse("CO mirror; FOUND mirror 3 witch", VOCAB))
    return board


def test_a_lone_mirror_claim_worked_by_hand():
    """Seat 1, a human, hears seat 2 claim mirror and call seat 3 a witch.  Seats 2-4 hold
    {witch, mirror, human}: 6 worlds.  Islanders never lie, so the worlds left are
    2=mirror 3=witch (the claim is true), and 2=witch with the mirror at 3 or 4 (a witch's
    lie): P(2 witch) = 2/3, P(3 witch) = 1/3, P(4 witch) = 0."""
    w = Worlds(rules(), Knowledge(1, DECK, {1: "human"}), lone_claim())
    assert w.exact and w.size == 6 and len(w.worlds) == 3
    p = w.teams("witches")
    assert p[1] == 0 and p[2] == pytest.approx(2 / 3) and p[3] == pytest.approx(1 / 3) and p[4] == 0
    assert w.p_role(3, "mirror") == pytest.approx(1 / 3) and w.p_role(4, "human") == pytest.approx(2 / 3)
    assert w.most_likely_liar() == 2 and w.p_lying(2) == pytest.approx(2 / 3)
    assert w.p_true(claims.co("mirror"), 2) == pytest.approx(1 / 3)
    assert w.p_true(claims.found("mirror", 4, "human"), 2) == 1


def test_a_lie_weight_for_islanders_lets_an_islander_lie_a_little():
    """With islanders lying at 0.1 the three islander-lie worlds (2m 3h 4w, 2h 3m 4w,
    2h 3w 4m) come back at 0.1 each: P(3 witch) = (1 + 0.1) / 3.3, P(4 witch) = 0.2 / 3.3."""
    w = Worlds(rules(0.1), Knowledge(1, DECK, {1: "human"}), lone_claim())
    assert w.total == pytest.approx(3.3)
    assert w.p_team(3, "witches") == pytest.approx(1.1 / 3.3)
    assert w.p_team(4, "witches") == pytest.approx(0.2 / 3.3)


def test_the_seats_own_finding_settles_it():
    """The real mirror (seat 1) found seat 2 human: seat 2's claim to be the mirror is a
    lie in every world, and a lie only a witch tells."""
    know = Knowledge(1, DECK, {1: "mirror"}, findings={2: "human"})
    board = ClaimBoard()
    board.post(2, 1, claims.parse("CO mirror", VOCAB))
    w = Worlds(rules(), know, board)
    assert w.empty  # seat 2 read human, so it is no witch, yet only a witch would lie
    assert Worlds(rules(0.1), know, board).p_lying(2) == 1


def test_a_witch_knows_its_partner_and_excludes_the_rest():
    deck = ("witch", "witch", "mirror", "human", "human")
    w = Worlds(rules(), Knowledge(1, deck, {1: "witch", 2: "witch"}))
    assert w.teams("witches") == {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0, 5: 0.0}
    assert w.p_role(3, "mirror") == pytest.approx(1 / 3)


def test_an_exclusion_is_a_hard_fact():
    deck = ("witch", "mirror", "human", "human")
    w = Worlds(rules(), Knowledge(1, deck, {1: "human"}, excluded={2: frozenset({"witch"})}))
    assert w.p_team(2, "witches") == 0 and w.p_team(3, "witches") == pytest.approx(1 / 2)


def test_a_seats_own_claims_are_not_weighed_and_unknown_roles_are_refused():
    board = ClaimBoard()
    board.post(1, 1, claims.parse("CO mirror", VOCAB))  # seat 1, a witch, lies itself
    w = Worlds(rules(), Knowledge(1, DECK, {1: "witch"}), board)
    assert not w.stands and w.p_team(2, "witches") == 0
    with pytest.raises(ValueError, match="the deck does not have it"):
        Worlds(rules(), Knowledge(1, DECK, {1: "familiar"}))


def test_large_decks_are_sampled_from_the_seed_and_agree_with_the_exact_answer(monkeypatch):
    deck = ("witch", "witch", "mirror", "familiar", "human", "human", "human", "human")
    know = Knowledge(1, deck, {1: "human"})
    board = ClaimBoard()
    board.post(2, 1, claims.parse("CO mirror; FOUND mirror 3 witch; FOUND mirror 4 human", VOCAB))
    exact = Worlds(rules(0.05), know, board)
    assert exact.exact
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10)
    a = Worlds(rules(0.05), know, board, random.Random(7))
    b = Worlds(rules(0.05), know, board, random.Random(7))
    assert not a.exact and len(a.worlds) == worlds.SAMPLES
    assert a.worlds == b.worlds  # the same seed, the same sample
    for seat in range(2, 9):
        assert a.p_team(seat, "witches") == pytest.approx(exact.p_team(seat, "witches"), abs=0.08)


def test_a_silent_seer_and_a_rarely_faked_role_are_weighed_by_hand():
    """Seat 2 claims mirror.  Truth: 2 worlds (3, 4 = witch, human either way), weight 1.
    Seat 2 a lying witch: the real mirror is 3 or 4 and alive yet silent: 2 worlds, each
    weighted lie (1) x silent (1/2) = 1/2, so P(2 witch) = 1 / 3; a mirror claim faked at
    lie_as 1/2 halves that again: P(2 witch) = 0.5 / 2.5."""
    board = ClaimBoard()
    board.post(2, 1, claims.parse("CO mirror", VOCAB))
    know = Knowledge(1, DECK, {1: "human"}, alive=frozenset({1, 2, 3, 4}))
    quiet = Rules(TEAMS, {"mirror": READ}, {"witches": 1.0}, silent={"mirror": 0.5})
    assert Worlds(quiet, know, board).p_team(2, "witches") == pytest.approx(1 / 3)
    rare = Rules(TEAMS, {"mirror": READ}, {"witches": 1.0}, silent={"mirror": 0.5}, lie_as={"mirror": 0.5})
    assert Worlds(rare, know, board).p_team(2, "witches") == pytest.approx(0.5 / 2.5)
    gone = Knowledge(1, DECK, {1: "human"}, alive=frozenset({1, 2}))  # a dead mirror was silent for good
    assert Worlds(quiet, gone, board).p_team(2, "witches") == pytest.approx(2 / 4)


def _ess(w: Worlds) -> float:
    """The effective number of worlds: how many equally weighed worlds the answer rests on."""
    weights = [x for _, x in w.worlds]
    return sum(weights) ** 2 / sum(x * x for x in weights)


def test_guided_sampling_agrees_with_the_exact_answer_on_more_worlds_than_a_uniform_draw(monkeypatch):
    """Three claimants on a 10-seat deck: a uniform draw keeps few worlds that count (each claim
    true in about 1 of 9 draws); the guided draw deals the claimants first, so its answer rests
    on many more, and still agrees with the exact one."""
    deck = ("witch", "witch", "mirror", "familiar", *("human",) * 6)
    know = Knowledge(1, deck, {1: "human"})
    board = ClaimBoard()
    board.post(2, 2, claims.parse("CO mirror; FOUND mirror 4 witch", VOCAB))
    board.post(3, 2, claims.parse("CO mirror; FOUND mirror 2 witch", VOCAB))
    board.post(5, 2, claims.parse("CO familiar", VOCAB))
    plain = Rules(TEAMS, {"mirror": READ}, {"witches": 0.3, "islanders": 0.02})
    guided = Rules(TEAMS, {"mirror": READ}, {"witches": 0.3, "islanders": 0.02}, guided=True)
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10**5)
    exact = Worlds(plain, know, board)
    assert exact.exact
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10)
    uniform = Worlds(plain, know, board, random.Random(3))
    a = Worlds(guided, know, board, random.Random(3))
    assert not a.exact and len(a.worlds) == worlds.SAMPLES
    assert a.worlds == Worlds(guided, know, board, random.Random(3)).worlds  # replays from its seed
    assert _ess(a) > 3 * _ess(uniform), (_ess(a), _ess(uniform))
    for seat in range(2, 11):
        assert a.p_team(seat, "witches") == pytest.approx(exact.p_team(seat, "witches"), abs=0.1)
    assert a.p_lying(2) == pytest.approx(exact.p_lying(2), abs=0.1)


def test_guided_sampling_never_draws_a_world_the_hard_facts_forbid(monkeypatch):
    deck = ("witch", "witch", "mirror", "familiar", *("human",) * 6)
    know = Knowledge(3, deck, {3: "mirror"}, {4: frozenset({"witch"})}, {5: "witch", 6: "human"})
    monkeypatch.setattr(worlds, "EXACT_LIMIT", 10)
    w = Worlds(Rules(TEAMS, {"mirror": READ}, {"witches": 0.3}, guided=True), know, None, random.Random(1))
    assert len(w.worlds) == worlds.SAMPLES
    assert w.p_team(5, "witches") == 1 and w.p_role(4, "witch") == 0 and w.p_role(6, "witch") == 0


def test_a_role_that_leaves_when_found_is_not_on_a_seat_found_and_still_alive():
    """闇に笑う魔女's imp leaves when mirrored: the mirror-user's "human" on a seat still on the
    island rules the imp out there, for its own finding and for a claimant's."""
    deck = ("witch", "mirror", "imp", "human", "human")
    teams = {**TEAMS, "imp": "imp"}
    read = {**READ, "imp": "human"}
    leaves = Rules(teams, {"mirror": read}, {"witches": 1.0}, leaves={"mirror": frozenset({"imp"})})
    stays = Rules(teams, {"mirror": read}, {"witches": 1.0})
    mine = Knowledge(1, deck, {1: "mirror"}, findings={2: "human"}, alive=frozenset({1, 2, 3, 4, 5}))
    assert Worlds(stays, mine, None).p_role(2, "imp") == pytest.approx(1 / 3)
    assert Worlds(leaves, mine, None).p_role(2, "imp") == 0
    gone = Knowledge(1, deck, {1: "mirror"}, findings={2: "human"}, alive=frozenset({1, 3, 4, 5}))
    assert Worlds(leaves, gone, None).p_role(2, "imp") == pytest.approx(1 / 3)  # it may have left found
    board = ClaimBoard()
    board.post(1, 2, claims.parse("CO mirror; FOUND mirror 2 human", VOCAB))
    heard = Knowledge(5, deck, {5: "human"}, alive=frozenset({1, 2, 3, 4, 5}))
    w = Worlds(leaves, heard, board)
    assert w.p_role(2, "imp") < Worlds(stays, heard, board).p_role(2, "imp")
    assert w.p_lying(1) > 0  # seat 1 lying is what leaves the imp at seat 2
