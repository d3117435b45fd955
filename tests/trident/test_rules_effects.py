"""Effects, attacks, the end, penalties, the reset and declarations (docs/rules/trident.md)."""
from __future__ import annotations

from .helpers import DEAL, Script, T
from .test_rules import idle, run_down_seat1


def test_change_piece_sets_the_suit_it_names():
    r = Script().start().field("change-spade-1").run()
    assert r.snap["suit"] == "spade" and r.of("suit")[-1]["suit"] == "spade"


def test_unknown_change_clover_sets_clover():
    hands = {**DEAL, 1: ["unknown-1", "heart-1", "heart-2", "heart-3", "heart-4"],
             3: ["clover-1", "clover-2", "clover-3", "change-draw-4", "draw-2-1"]}
    assert Script().start(hands=hands).field("unknown-1").run().snap["suit"] == "clover"


def test_turn_around_right_hands_go_to_the_left_neighbour_seat_k_to_k_plus_1():
    hands = {**DEAL, 1: ["unknown-3", "heart-1", "heart-2", "heart-3", "heart-4"],
             2: ["diamond-1", "diamond-2", "diamond-3", "draw-4-1", "unknown-4"]}
    s = Script().start(hands=hands).field("unknown-3")
    r = s.run()
    assert r.of("rotate")[0]["direction"] == "right"
    assert r.hand(2) == ["heart-1", "heart-2", "heart-3", "heart-4"] and r.hand(3)[0] == "diamond-1"
    assert r.hand(1)[0] == "clover-1"
    # attribution follows: seat 2 now holds heart-1 and it is seat 2's turn
    s.field("heart-1")
    assert s.run().of("play")[-1]["seat"] == 2


def test_turn_around_left_hands_go_to_the_right_neighbour():
    hands = {**DEAL, 1: ["unknown-4", "heart-1", "heart-2", "heart-3", "heart-4"],
             2: ["diamond-1", "diamond-2", "diamond-3", "draw-4-1", "unknown-3"]}
    r = Script().start(hands=hands).field("unknown-4").run()
    assert r.of("rotate")[0]["direction"] == "left"
    assert r.hand(3) == ["heart-1", "heart-2", "heart-3", "heart-4"] and r.hand(1)[0] == "diamond-1"


def test_draw2_next_player_must_draw_two_and_attack_leaves_the_suit():
    s = Script().start().field("draw-2-1").hand(2, "spade-1").hand(2, "spade-2")
    r = s.run()
    assert r.snap["suit"] == "heart" and r.snap["turn"] == 3 and r.snap["owed"][2] == 0
    assert r.hand(2)[-2:] == ["spade-1", "spade-2"]


def test_stacking_draw4_on_draw2_makes_six_for_the_next():
    r = Script().start().field("draw-2-1").field("draw-4-1").run()
    assert [e["total"] for e in r.of("pending")] == [2, 6] and r.snap["turn"] == 3


def test_unknown_answer_adds_zero_and_the_pending_moves_on():
    r = Script().start().field("draw-2-1").field("unknown-3").run()
    assert r.snap["pending"] == 2 and r.snap["turn"] == 3 and r.of("rotate")


def test_ruling_basic_or_change_is_not_an_answer_to_an_attack():
    s = Script().start().field("draw-2-1").field("diamond-1")
    r = s.run()
    [why] = r.of("penalty-reason", s.line)
    assert why["why"] == "not-an-answer" and r.snap["owed"][2] == 4  # 2 penalty + the attack it failed to answer


def test_change_draw4_suit_chosen_by_scanning_a_basic_piece_that_stays_in_hand():
    s = Script().start().field("draw-2-1").hand(2, "spade-1").hand(2, "spade-2")
    s.field("change-draw-4").hand(3, "clover-2")
    r = s.run()
    assert r.snap["suit"] == "clover" and "clover-2" in r.hand(3) and r.snap["pending"] == 4
    assert r.snap["turn"] == 1 and [e for e in r.at(s.line) if e.get("key") == "suit-set"][0]["to"] == "table"


def test_change_draw4_suit_chosen_from_the_console():
    s = Script().start().field("draw-2-1").hand(2, "spade-1").hand(2, "spade-2")
    s.field("change-draw-4").console("suit diamond")
    r = s.run()
    assert r.snap["suit"] == "diamond" and r.snap["turn"] == 1


def test_out_with_trident_declared_wins_and_the_rest_rank_by_pieces_ties_to_turn_order():
    hands = {**DEAL, 1: ["heart-1", "heart-2", "heart-3", "heart-4", "heart-5"]}
    s = run_down_seat1(Script().start(hands=hands), ["heart-1", "heart-2", "heart-3", "heart-4"])
    s.field("heart-5")
    r = s.run()
    over = r.of("game-over")[0]
    assert over["reason"] == "out" and [e["seat"] for e in over["ranking"]] == [1, 2, 3]
    assert over["ranking"][1]["pieces"] == over["ranking"][2]["pieces"] == 9  # tie: seat 2 plays earlier
    assert set(over["ranking"][0]) == {"seat", "place", "pieces", "points", "crash"}


def test_competition_scoring_ranks_by_points_left():
    hands = {**DEAL, 1: ["heart-1", "heart-2", "heart-3", "heart-4", "heart-5"]}
    s = run_down_seat1(Script(scoring="competition").start(hands=hands), ["heart-1", "heart-2", "heart-3", "heart-4"])
    r = s.field("heart-5").run()
    ranking = r.of("game-over")[0]["ranking"]
    assert [e["seat"] for e in ranking] == [1, 2, 3]  # seat 2 holds diamonds+spades, seat 3 clovers+100-point piece
    assert ranking[1]["points"] < ranking[2]["points"]


def test_no_trident_last_piece_counts_as_played_and_draws_two_not_out():
    hands = {**DEAL, 1: ["heart-1", "heart-2", "heart-3", "heart-4", "heart-5"]}
    s = run_down_seat1(Script().start(hands=hands), ["heart-1", "heart-2", "heart-3", "heart-4"], declare=False)
    s.field("heart-5")
    r = s.run()
    assert not r.of("game-over") and r.of("penalty", s.line)[0]["reason"] == "no-trident"
    assert T("heart-5") in r.snap["field"] and r.snap["owed"][1] == 2 and r.snap["turn"] == 2


def test_trident_declared_with_more_than_one_piece_is_refused():
    s = Script().start().cmd(1, "trident")
    r = s.run()
    assert r.of("error", s.line) and not r.of("declare")


def test_out_of_turn_play_penalizes_the_holder_and_the_turn_does_not_move():
    s = Script().start().field("diamond-1")
    r = s.run()
    assert r.of("penalty", s.line)[0]["seat"] == 2 and r.snap["turn"] == 1 and "diamond-1" in r.hand(2)


def test_basket_piece_on_a_hand_reader_out_of_turn_is_refused_with_reason():
    s = Script().start().hand(2, "spade-8")
    r = s.run()
    assert r.keys(s.line) == r.keys(s.line, to="seat:2") == ["no-draw-now"]
    assert [e.get("private") for e in r.errors(s.line)] == ["seat:2"]  # its error is that seat's too
    assert T("spade-8") in r.snap["basket"]


def test_basket_piece_straight_onto_the_field_is_a_draw_and_play_by_the_turn_player():
    s = Script().start().field("heart-7")
    r = s.run()
    assert r.of("draw", s.line)[0]["seat"] == 1 and r.of("play", s.line)[0]["seat"] == 1 and r.snap["turn"] == 2


def test_hand_piece_scan_is_said_only_into_its_holders_earphone():
    s = Script().start().hand(2, "diamond-1")
    r = s.run()
    assert [(e["to"], e["text"]) for e in r.at(s.line)] == [("seat:2", "diamond 1")]


def test_crash_when_the_basket_cannot_cover_a_draw_the_player_takes_the_rest():
    basket = Script().start().run().snap["basket"]
    s2 = Script().start()
    seat = 1
    for tag in basket[:-1]:
        idle(s2, seat, tag)
        seat = seat % 3 + 1
    assert seat == 1 + (len(basket) - 1) % 3
    r = s2.run()
    turn = r.snap["turn"]
    holder = {1: "draw-2-1", 2: "draw-4-1", 3: "change-draw-4"}[turn]
    s2.field(holder)
    if turn == 3:
        s2.console("suit heart")
    victim = turn % 3 + 1
    s2.cmd(victim, "pass")  # takes the pending total: more than the basket holds
    r = s2.run()
    over = r.of("game-over")[0]
    assert over["reason"] == "crash" and over["ranking"][-1] == {**over["ranking"][-1], "seat": victim, "crash": True}
    assert r.snap["basket"] == [] and basket[-1] in r.snap["hands"][victim]


def test_penalty_the_basket_cannot_cover_is_a_crash():
    s = Script().start()
    basket = Script().start().run().snap["basket"]
    seat = 1
    for tag in basket[:-1]:
        idle(s, seat, tag)
        seat = seat % 3 + 1
    turn = s.run().snap["turn"]
    wrong = {1: "diamond-1", 2: "clover-1", 3: "heart-1"}[turn]  # someone else's piece: out of turn
    holder = {"diamond-1": 2, "clover-1": 3, "heart-1": 1}[wrong]
    r = s.field(wrong).run()
    assert r.of("game-over")[0]["reason"] == "crash" and r.of("game-over")[0]["ranking"][-1]["seat"] == holder


def test_everyone_forgot_each_seat_agrees_then_a_basket_piece_resets_the_suit_and_turn_stays():
    s = Script().start().field("heart-1")  # seat 2's turn
    s.cmd(1, "agree").console("declare agree 2").cmd(3, "agree").field("clover-8")
    r = s.run()
    assert [e["seat"] for e in r.of("declare")] == [1, 2, 3]
    assert r.snap["suit"] == "clover" and r.snap["turn"] == 2 and r.snap["phase"] == "turn"


def test_reset_not_until_every_seat_agrees():
    s = Script().start().cmd(1, "agree").cmd(2, "agree").field("clover-8")
    r = s.run()
    assert r.snap["suit"] == "heart" and r.of("draw", s.line)  # clover-8 was seat 1's draw and play attempt


def test_command_tag_declares_for_the_seat_whose_reader_read_it():
    hands = {**DEAL, 1: ["heart-1", "heart-2", "heart-3", "heart-4", "heart-5"]}
    s = run_down_seat1(Script().start(hands=hands), ["heart-1", "heart-2", "heart-3", "heart-4"], declare=False)
    s.console("declare trident 1")
    r = s.run()
    assert r.of("declare")[-1] == {**r.of("declare")[-1], "seat": 1, "what": "trident"}


def test_referee_stop_ranks_all_players_by_pieces():
    s = Script().start().hand(1, "spade-8").cmd(1, "pass").console("stop")
    over = s.run().of("game-over")[0]
    assert over["reason"] == "stopped" and [e["seat"] for e in over["ranking"]] == [2, 3, 1]


def test_referee_penalty_command():
    s = Script().start().console("penalty 3")
    r = s.run()
    assert r.of("penalty")[0]["seat"] == 3 and r.snap["owed"][3] == 2 and r.snap["turn"] == 1


def test_bad_console_command_is_an_error_and_changes_nothing():
    s = Script().start()
    before = s.run().snap
    for bad in ("jump 3", "suit heart", "declare trident 9", "suit purple", "declare pass 2"):
        s.console(bad)
    r = s.run()
    assert len(r.of("error")) == 5 and r.snap == before
