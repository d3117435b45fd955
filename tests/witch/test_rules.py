"""Every rule and ruling of rules/witch.md, driven through table-script inputs."""
from __future__ import annotations

import pytest

from kikimimi.contract.protocol import visible_to
from kikimimi.testkit.roles_script import Script, of, public_view, said, secrets_in_public
from kikimimi.contract.script import ScriptError
from kikimimi.contract.registry import declaration
from kikimimi_games.witch.rules import default_deck

from .table import DECK8, DECK10, WITCH_SECRETS, day1, everyone_votes, night, table, vote

ALL8 = list(range(1, 9))


def out_seats(log, when=None):
    return [e["seat"] for e in of(log, "out") if when is None or e["when"] == when]


def last_night_out(log):
    """Who left in the latest night's morning."""
    since = of(log, "phase", phase="night")[-1]["seq"]
    return [e["seat"] for e in of(log, "out", when="night") if e["seq"] > since]


def mirror_results(log):
    return of(log, "result", by="mirror")


def causes(log):
    return {e["seat"]: e["cause"] for e in of(log, "out-cause")}


# -- roles and the deal ------------------------------------------------------------------
def test_each_role_is_told_to_its_seat_witches_and_twins_learn_their_partners():
    log = table(DECK10).run()
    assert [(e["seat"], e["role"], e["team"], e["private"]) for e in of(log, "role")] == [
        (s, r, {"witch": "witches", "imp": "imp"}.get(r, "islanders"), f"seat:{s}") for s, r in enumerate(DECK10, 1)]
    partners = {e["to"]: e["params"]["seats"] for e in said(log, "partners")}
    assert partners == {"seat:1": [6], "seat:6": [1], "seat:9": [10], "seat:10": [9]}
    assert [e["private"] for e in of(log, "partners")] == [["seat:1", "seat:6"], ["seat:9", "seat:10"]]
    assert of(log, "phase")[-1]["phase"] == "prologue"
    assert not secrets_in_public(log, WITCH_SECRETS)


def test_the_familiar_is_on_the_witches_team_but_never_told_who_they_are():
    log = table(DECK8).run()
    assert of(log, "role", seat=5)[0]["team"] == "witches"
    assert not said(log, "partners", "seat:5")
    assert not [e for e in log if visible_to(e, 5) and e["type"] == "partners"]


@pytest.mark.parametrize("players", range(5, 17))
def test_the_default_role_mix_fits_every_count(players):
    deck = default_deck(players)
    assert len(deck) == players and deck.count("mirror") == 1
    assert 1 <= deck.count("witch") < players / 2
    assert ("imp" in deck) == (players >= 10) and deck.count("twin") in (0, 2)


def test_the_deck_option_overrides_the_mix_and_bad_options_are_one_line():
    log = table(["witch", "human", "human", "human", "imp"]).run()
    assert [e["role"] for e in of(log, "role")] == ["witch", "human", "human", "human", "imp"]
    for bad, words in (({"roles": ["witch"] * 4}, "one role per seat"), ({"roles": ["dragon"] * 5}, "unknown role"),
                       ({"allowance": -3}, "allowance"), ({"colour": 1}, "unknown option"),
                       ({"preferences": {"9": "witch"}}, "preferences")):
        with pytest.raises(ScriptError, match=words):
            Script("witch", 5, **bad).run()


def test_preferences_are_weighed_in_for_the_referee_only():
    s = Script("witch", 8, preferences={"3": "mirror", "4": "mirror", "7": "imp"})
    (plan,) = of(s.run(), "deal-plan")
    assert plan["private"] == "referee"
    assert "mirror" in (plan["roles"]["3"], plan["roles"]["4"]) and sorted(plan["roles"].values()) == sorted(
        default_deck(8))
    assert plan["roles"]["7"] != "imp"  # no imp in the 8-player deck: not granted


def test_a_card_beyond_the_deck_is_refused_privately():
    s = Script("witch", 8, roles=DECK8).hand(1, "witch:role-imp-1").hand(2, "witch:role-witch-1")
    s.hand(3, "witch:role-witch-1")
    log = s.run()
    assert said(log, "role-not-in-deck", "seat:1") and said(log, "role-card-taken", "seat:3")
    assert not [e for e in public_view(log) if e["type"] == "error"]


# -- time: the day before, speech, allowances, silence -------------------------------------
def test_the_day_before_is_free_talk_and_ends_when_all_say_ok_or_at_next():
    s = table()
    s.console("speak 3 " + "a" * 800)
    s.hand(4, "seat:5")  # no votes the day before
    log = s.run()
    assert of(log, "speech", seat=3)[0]["minutes"] == 0
    assert said(log, "not-now", "seat:4")
    for seat in ALL8[:-1]:
        s.hand(seat, "cmd:ok")
    assert of(s.run(), "phase")[-1]["phase"] == "prologue"
    log = s.hand(8, "cmd:ok").run()
    assert of(log, "phase")[-1] == {**of(log, "phase")[-1], "phase": "day", "day": 1}
    assert of(table().console("next").run(), "phase")[-1]["phase"] == "day"


def test_speech_costs_a_minute_per_eight_half_width_characters_rounded_down():
    s = day1().console("speak 3 abcdefghijklmnop").console("speak 4 あいうえおかきく").console("speak 7 abcdefg")
    s.console("speak 8 ｱｲｳｴｵｶｷｸ")  # half-width katakana count 1
    log = s.run()
    assert [(e["seat"], e["minutes"], e["day_left"]) for e in of(log, "speech")] == [
        (3, 2, 718), (4, 2, 716), (7, 0, 716), (8, 1, 715)]
    assert said(log, "speech")[0]["params"]["text"] == "abcdefghijklmnop"
    log = s.console("hint 4").run()
    assert said(log, "hint-allowance", "seat:4")[-1]["params"] == {"minutes": 178, "limit": 180}


def test_chars_per_minute_is_a_table_setting():
    log = day1(chars_per_minute=4).console("speak 3 abcdefghijklmnop").run()
    assert of(log, "speech")[0]["minutes"] == 4


def test_a_token_resting_on_the_field_is_the_microphone():
    s = day1()
    s.field("seat:3").field("seat:4", dt=2).field("seat:4", removed=True).field("seat:3", removed=True, dt=8)
    log = s.run()
    assert [(e["seat"], e["on"]) for e in of(log, "mic")] == [(3, True), (3, False)]
    assert said(log, "mic-busy")[0]["params"]["seat"] == 3
    (speech,) = of(log, "speech")
    assert (speech["seat"], speech["minutes"]) == (3, 11)  # 11 s x 8 chars/s = 88 chars = 11 minutes
    log = day1(token_chars_per_second=2).field("seat:3").field("seat:3", removed=True, dt=8).run()
    assert of(log, "speech")[0]["minutes"] == 2


def test_the_last_speech_may_overrun_the_day_then_the_talk_is_over():
    s = day1(day_minutes=30).console("speak 3 " + "a" * 200).console("speak 4 " + "a" * 80)
    log = s.run()
    assert [e["day_left"] for e in of(log, "speech")] == [5, -5]  # the second overran
    assert of(log, "vote-call")[0]["missing"] == 8 and of(log, "vote-call")[0]["private"] == "referee"
    assert said(log, "vote-now") and "params" not in said(log, "vote-now")[0]  # no count of ballots
    log = s.console("speak 5 hello").field("seat:6").run()
    assert said(log, "day-over", "seat:5") and said(log, "mic-refused")


def test_the_allowance_overrun_is_ten_minutes_and_it_resets_each_day():
    s = day1(allowance=20).console("speak 3 " + "a" * 200)  # 25 min: 5 over; it was the last
    s.console("speak 3 " + "a" * 40)  # refused: only the last speech of the day may overrun
    s.console("speak 3 hello")
    log = s.run()
    assert [e["minutes"] for e in of(log, "speech", seat=3)] == [25]
    assert said(log, "allowance-spent", "seat:3")
    assert said(log, "allowance-left", "seat:3")[0]["params"]["minutes"] == 0
    assert of(log, "error", private="seat:3")
    everyone_votes(s, ALL8, 7, 8)
    night(s, [1, 2, 3, 4, 5, 6, 8], {1: 8, 6: 8, 2: 3})
    log = s.console("hint 3").run()
    assert said(log, "hint-allowance", "seat:3")[-1]["params"] == {"minutes": 50, "limit": 50}  # six left: +30


def test_the_advisory_lowers_the_targets_allowance_from_the_next_day_for_good():
    s = day1().console("advise 7 3").console("advise 8 3")  # two humans advise seat 3
    s.console("advise 2 4")  # the mirror has no advisory
    log = s.run()
    assert said(log, "no-power", "seat:2")
    assert [e["private"] for e in of(log, "advise")] == ["seat:7", "seat:8"]
    log = s.console("hint 3").run()
    assert said(log, "hint-allowance", "seat:3")[-1]["params"]["limit"] == 180  # not today
    everyone_votes(s, ALL8, 5, 8)  # the familiar is voted out
    night(s, [1, 2, 3, 4, 6, 7, 8], {1: 4, 6: 4, 2: 3})
    log = s.run()
    (advisory,) = of(log, "advisory")
    assert advisory["private"] == "seat:3" and 10 <= advisory["minutes"] <= 60
    assert advisory["allowance"] == 180 - advisory["minutes"] + 30  # six left: the small-island bonus
    cut = advisory["minutes"]
    everyone_votes(s, [1, 2, 3, 6, 7, 8], 8, 7)
    night(s, [1, 2, 3, 6, 7], {1: 7, 6: 7, 2: 1, 3: 7})  # the knight guards 7: nobody leaves
    log = s.console("hint 3").run()
    assert not of(log, "game-over")
    assert said(log, "hint-allowance", "seat:3")[-1]["params"]["limit"] == 180 - cut + 60  # five left
    assert not secrets_in_public(log, WITCH_SECRETS)


def test_the_small_island_bonus_grows_allowances_below_seven():
    s = day1(["witch", "human", "human", "human", "human", "mirror", "knight"])
    log = s.console("hint 2").run()
    assert not said(log, "island-bonus")
    everyone_votes(s, list(range(1, 8)), 2, 3)
    log = s.run()
    night(s, [1, 3, 4, 5, 6, 7], {1: 3, 6: 4})
    log = s.console("hint 4").run()
    assert said(log, "island-bonus")[-1]["params"]["minutes"] == 60  # five left: 2 x 30
    assert said(log, "hint-allowance", "seat:4")[-1]["params"]["limit"] == 240


def test_silence_of_more_than_half_takes_an_hour_clears_and_can_happen_again():
    s = day1()
    for seat in (1, 2, 3, 4):
        s.hand(seat, "cmd:silence")
    log = s.run()
    assert not of(log, "silence")  # exactly half is not more than half
    s.hand(5, "cmd:silence")
    log = s.run()
    assert not of(log, "silence")  # not at seat 5's scan: that would tell who chose it
    log = s.wait(45).console("hint 1").run()
    (silence,) = of(log, "silence")
    chosen = said(log, "silence-noted", "seat:5")[0]["t"]
    assert silence["day_left"] == 660 and silence["in"] is None and 15 <= silence["t"] - chosen <= 45
    assert [e["to"] for e in said(log, "silence-noted")] == [f"seat:{k}" for k in range(1, 6)]
    for seat in (1, 2, 3, 4, 5):  # the choices were cleared: five again
        s.console(f"silence {seat}")
    log = s.wait(45).console("speak 1 still talking").run()
    assert [e["day_left"] for e in of(log, "silence")] == [660, 600]
    assert of(log, "speech", seat=1)
    public = public_view(log)
    assert not [e for e in public if e["type"] == "say" and e["key"] == "silence-noted"]


# -- speech at night, the dead room, laughter ------------------------------------------
def test_at_night_only_the_witches_talk_the_island_hears_laughter_the_dead_read_along():
    s = everyone_votes(day1(), ALL8, 7, 8)  # human 7 out: 7 is in the dead room
    s.console("speak 1 let us banish seat 2").console("speak 3 I want to talk").console("speak 7 ghost here")
    log = s.run()
    (chat,) = of(log, "speech", seat=1)
    assert chat["private"] == ["seat:1", "seat:6", "seat:7"] and chat["night_left"] == 358
    assert {e["to"] for e in said(log, "night-speech")} == {"seat:1", "seat:6", "seat:7"}
    assert said(log, "laugh", "table") and said(log, "night-silent", "seat:3")
    (ghost,) = of(log, "deadroom")
    assert ghost["private"] == ["seat:7"]
    assert not [e for e in public_view(log) if e.get("key") in ("night-speech", "deadroom-speech")]
    assert "day_left" not in chat  # it costs the night only, not the day nor an allowance


def test_the_living_may_speak_into_the_dead_room_and_the_dead_do_not_vote():
    s = everyone_votes(day1(), ALL8, 7, 8)
    night(s, [1, 2, 3, 4, 5, 6, 8], {1: 8, 6: 8, 2: 3})
    s.console("deadroom 3 hello to the dead").hand(7, "seat:1").console("act 8 2")
    log = s.run()
    (room,) = of(log, "deadroom")
    assert room["private"] == ["seat:7", "seat:8"] and room["text"] == "hello to the dead"
    assert said(log, "you-are-out", "seat:7") and said(log, "you-are-out", "seat:8")


def test_every_witch_act_is_one_laugh_on_the_speaker_when_the_night_ends():
    s = everyone_votes(day1(), ALL8, 7, 8)
    s.hand(1, "seat:3").hand(6, "seat:4").hand(1, "seat:8")  # chosen, changed, changed
    log = s.run()
    assert not of(log, "laughter")
    night(s, [2, 3, 4, 5, 8], {2: 3})
    log = s.run()
    assert of(log, "laughter")[0]["count"] == 3 and said(log, "laughter")[0]["params"]["count"] == 3
    assert out_seats(log, "night") == [8]  # the last choice stands


# -- voting -------------------------------------------------------------------------
def test_votes_are_private_changeable_counted_when_all_have_voted_no_self_vote():
    s = day1().hand(3, "seat:3").hand(3, "seat:4").hand(3, "seat:5")
    s.console("speak 2 talk goes on while votes come in")
    vote(s, {1: 5, 2: 5, 4: 3, 5: 4, 6: 4, 7: 5})
    log = s.run()
    assert said(log, "vote-not-self", "seat:3") and not of(log, "tally")
    assert not [e for e in public_view(log) if e.get("key") == "voted"]
    log = vote(s, {8: 5}).run()
    (tally,) = of(log, "tally")
    assert tally["ballots"] == {"1": 5, "2": 5, "3": 5, "4": 3, "5": 4, "6": 4, "7": 5, "8": 5}
    assert tally["totals"] == {"3": 1, "4": 2, "5": 5}
    assert [e["params"] for e in said(log, "ballot")][2] == {"voter": 3, "seat": 5}
    assert out_seats(log) == [5] and of(log, "phase")[-1]["phase"] == "night"


def test_a_tie_means_a_revote_open_to_anyone_then_the_most_over_both_rounds_then_the_lot():
    first = {1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 8, 7: 3, 8: 4}  # 7: 3, 8: 3
    s = vote(day1(), first)
    log = s.run()
    assert said(log, "revote")[0]["params"]["seats"] == [7, 8] and not of(log, "out")
    log = vote(s, {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2}).run()  # anyone: seat 2 was no leader
    assert out_seats(log) == [2] and causes(log)[2] == "vote-single"
    # the revote ties 7 and 3; over both rounds 7 has 5, 3 has 3
    log = vote(vote(day1(), first), {1: 7, 2: 7, 3: 4, 4: 3, 5: 3, 6: 1, 7: 6, 8: 5}).run()
    assert out_seats(log) == [7] and causes(log)[7] == "vote-cumulative"
    # the revote ties 7 and 8 again, level over both rounds: the lot, the same in every replay
    lot = vote(vote(day1(), first), first)
    a, b = lot.run(), lot.run()
    assert causes(a) in ({7: "vote-lot"}, {8: "vote-lot"}) and of(a, "out") == of(b, "out")
    assert [t["round"] for t in of(a, "tally")] == [1, 2]  # no third vote


def test_when_the_day_runs_out_the_unvoted_are_counted_and_the_referee_may_count():
    s = vote(day1(), {1: 7, 2: 7, 3: 7})
    log = s.console("next").run()
    assert of(log, "vote-call")[0]["missing"] == 5 and "params" not in said(log, "vote-now")[0]
    log = s.console("next").run()  # the referee counts the ballots cast
    assert out_seats(log) == [7] and of(log, "phase")[-1]["phase"] == "night"


# -- the night ------------------------------------------------------------------------------
def test_the_night_ends_when_every_living_player_has_scanned_or_at_its_time_limit():
    s = everyone_votes(day1(), ALL8, 7, 8)
    night(s, [1, 6, 2, 3, 4, 5], {1: 4, 6: 4, 2: 3})
    log = s.run()
    assert of(log, "phase")[-1]["phase"] == "night"  # seat 8 has not scanned
    assert [e["to"] for e in said(log, "night-scanned")] == ["seat:3", "seat:4", "seat:5"]
    log = s.wait(200).console("hint 8").run()
    assert of(log, "phase")[-1] == {**of(log, "phase")[-1], "phase": "day", "day": 2}
    assert out_seats(log, "night") == [4]
    s = everyone_votes(day1(night_seconds=10), ALL8, 7, 8)
    begun = of(s.run(), "phase")[-1]
    log = s.wait(10).console("hint 8").run()  # 10 s on: its limit counts from when the count and its call were heard
    assert begun["phase"] == of(log, "phase")[-1]["phase"] == "night" and not of(log, "phase-clock")
    log = s.wait(60).console("hint 8").run()
    clock = of(log, "phase-clock")[-1]
    assert clock["phase"] == "night" and clock["seconds"] == 10 and clock["t"] > begun["t"] + 10
    dawn = of(log, "phase")[-1]
    assert dawn["phase"] == "day" and dawn["t"] == clock["t"] + 10 and not out_seats(log, "night")


def test_the_witches_choose_together_and_cannot_choose_a_witch():
    s = everyone_votes(day1(), ALL8, 7, 8).hand(1, "seat:6").hand(1, "seat:1").hand(1, "seat:3")
    log = s.run()
    assert said(log, "banish-witch", "seat:1") and said(log, "night-not-self", "seat:1")
    (choice,) = of(log, "banish")
    assert choice["private"] == ["seat:1", "seat:6"]
    assert {e["to"] for e in said(log, "witches-chose")} == {"seat:1", "seat:6"}


def test_the_mirror_reads_human_or_witch_imp_and_familiar_read_human_told_in_the_morning():
    results = {}
    for target in (1, 3, 5):  # witch, knight, familiar
        s = everyone_votes(day1(), ALL8, 7, 8)
        log = night(s, [1, 2, 3, 4, 5, 6, 8], {1: 8, 6: 8, 2: target}).run()
        (r,) = mirror_results(log)
        assert r["private"] == "seat:2" and said(log, "mirror-result", "seat:2")
        results[target] = r["found"]
    assert results == {1: "witch", 3: "human", 5: "human"}
    s = everyone_votes(day1(DECK10), list(range(1, 11)), 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8, 9, 10], {1: 8, 6: 8, 2: 5}).run()
    assert mirror_results(log)[0]["found"] == "human" and causes(log)[5] == "mirrored"


def test_the_mirror_acts_at_once_and_cannot_be_undone():
    s = everyone_votes(day1(), ALL8, 7, 8).hand(2, "seat:1").hand(2, "seat:3")
    log = s.run()
    assert said(log, "night-final", "seat:2") and said(log, "mirror-cast", "seat:2")[0]["params"]["seat"] == 1


def test_the_knight_guards_from_day_two_and_the_guard_voids_ba_shiruura():
    s = everyone_votes(day1(), ALL8, 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8], {1: 4, 6: 4, 2: 3, 3: 4}).run()  # night 1: the knight's scan is cover
    assert not of(log, "guard") and out_seats(log, "night") == [4]
    everyone_votes(s, [1, 2, 3, 5, 6, 8], 8, 5)
    log = night(s, [1, 2, 3, 5, 6], {1: 2, 6: 2, 2: 6, 3: 2}).run()  # night 2: guarded
    assert of(log, "guard")[0]["private"] == "seat:3"
    assert last_night_out(log) == [] and said(log, "morning-quiet")
    assert of(log, "night-rules")[-1]["fired"]["guard-saved"] == 1


def test_the_priest_learns_yesterdays_voted_out_player_from_day_two():
    s = everyone_votes(day1(), ALL8, 5, 8)  # the familiar
    night(s, [1, 2, 3, 4, 6, 7, 8], {1: 8, 6: 8, 2: 3})
    log = s.run()
    (r,) = of(log, "result", by="priest")
    assert (r["target"], r["found"], r["private"]) == (5, "human", "seat:4")
    assert said(log, "priest-result", "seat:4")[0]["text"] == "Yesterday's voted-out seat 5 was a human."
    everyone_votes(s, [1, 2, 3, 4, 6, 7], 1, 2)
    night(s, [2, 3, 4, 6, 7], {6: 7, 2: 3, 3: 2})
    log = s.run()
    assert [(e["target"], e["found"]) for e in of(log, "result", by="priest")] == [(5, "human"), (1, "witch")]


def test_one_exorcism_a_game_and_it_removes_the_imp_or_the_familiar():
    s = day1(DECK10).console("exorcise 4 5")  # the imp
    everyone_votes(s, list(range(1, 11)), 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8, 9, 10], {1: 8, 6: 8, 2: 3}).run()
    assert causes(log) == {7: "vote-single", 5: "exorcised", 8: "banished"}
    assert out_seats(log, "night") == [5, 8]
    log = s.console("exorcise 4 1").run()
    assert said(log, "no-power", "seat:4")
    log = night(everyone_votes(day1().console("exorcise 4 5"), ALL8, 7, 8), [1, 2, 3, 4, 5, 6, 8],
                {1: 8, 6: 8, 2: 3}).run()
    assert causes(log)[5] == "exorcised"
    log = night(everyone_votes(day1().console("exorcise 4 3").console("exorcise 4 8"), ALL8, 7, 8),
                [1, 2, 3, 4, 5, 6, 8], {1: 2, 6: 2, 2: 3}).run()  # changed by day; a human: nothing
    assert 8 not in causes(log) and of(log, "night-rules")[0]["fired"]["exorcism-miss"] == 1
    log = day1().console("exorcise 3 5").run()
    assert said(log, "no-power", "seat:3")


# -- the seed's five priority cases -------------------------------------------------
def test_priority_1_the_mirror_sees_a_witch_and_is_banished_never_told():
    s = everyone_votes(day1(), ALL8, 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8], {1: 2, 6: 2, 2: 1}).run()
    assert out_seats(log, "night") == [2] and not mirror_results(log)
    assert not said(log, "mirror-result")


def test_priority_2_the_mirror_sees_the_imp_and_is_banished_both_leave_unexplained():
    s = everyone_votes(day1(DECK10), list(range(1, 11)), 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8, 9, 10], {1: 2, 6: 2, 2: 5}).run()
    assert out_seats(log, "night") == [2, 5]  # seat order, not the order of the causes
    assert causes(log) == {7: "vote-single", 2: "banished", 5: "mirrored"}
    public = public_view(log)
    assert all("cause" not in e for e in of(public, "out")) and not of(public, "out-cause")
    assert said(log, "morning")[0]["params"]["seats"] == [2, 5] and not mirror_results(log)


def test_priority_3_the_mirror_sees_the_imp_on_the_night_it_is_targeted_the_imp_leaves():
    s = everyone_votes(day1(DECK10), list(range(1, 11)), 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8, 9, 10], {1: 5, 6: 5, 2: 5}).run()
    assert out_seats(log, "night") == [5] and causes(log)[5] == "mirrored"


def test_priority_4_the_priest_marks_and_is_voted_out_the_exorcism_is_void():
    s = day1().console("exorcise 4 5")
    everyone_votes(s, ALL8, 4, 8)
    log = night(s, [1, 2, 3, 5, 6, 7, 8], {1: 8, 6: 8, 2: 3}).run()
    assert 5 not in causes(log) and out_seats(log, "night") == [8]


def test_priority_5_the_priest_marks_and_is_banished_the_exorcism_still_happens():
    s = day1(DECK10).console("exorcise 4 5")
    everyone_votes(s, list(range(1, 11)), 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8, 9, 10], {1: 4, 6: 4, 2: 3}).run()
    assert out_seats(log, "night") == [4, 5] and causes(log)[4] == "banished" and causes(log)[5] == "exorcised"


def test_ba_shiruura_on_the_imp_does_nothing():
    s = everyone_votes(day1(DECK10), list(range(1, 11)), 7, 8)
    log = night(s, [1, 2, 3, 4, 5, 6, 8, 9, 10], {1: 5, 6: 5, 2: 3}).run()
    assert out_seats(log, "night") == [] and of(log, "night-rules")[0]["fired"]["banish-imp-immune"] == 1


# -- winning ------------------------------------------------------------------------
def test_the_islanders_win_when_all_witches_are_gone_even_with_the_familiar_on_the_island():
    s = everyone_votes(day1(), ALL8, 1, 2)
    night(s, [2, 3, 4, 5, 6, 7, 8], {6: 7, 2: 3})
    log = everyone_votes(s, [2, 3, 4, 5, 6, 8], 6, 2).run()
    (over,) = of(log, "game-over")
    assert over["winner"] == "islanders" and of(log, "phase")[-1]["phase"] == "epilogue"
    won = {r["seat"]: r["won"] for r in over["ranking"]}
    assert won == {1: False, 2: True, 3: True, 4: True, 5: False, 6: False, 7: True, 8: True}
    assert {r["seat"]: r["place"] for r in over["ranking"]}[7] == 1  # dead or alive
    assert len(said(log, "reveal")) == 8


def test_the_witches_win_at_half_the_familiar_not_counted_and_win_with_them():
    s = everyone_votes(day1(), ALL8, 7, 8)
    night(s, [1, 2, 3, 4, 5, 6, 8], {1: 8, 6: 8, 2: 3})
    everyone_votes(s, [1, 2, 3, 4, 5, 6], 2, 3)  # five left: two witches, not yet half
    log = s.run()
    assert not of(log, "game-over")
    log = night(s, [1, 3, 4, 5, 6], {1: 4, 6: 4}).run()  # four left: 1, 3, 5, 6
    (over,) = of(log, "game-over")
    assert over["winner"] == "witches" and over["reason"] == "win"
    assert sorted(r["seat"] for r in over["ranking"] if r["won"]) == [1, 5, 6]


def test_the_imp_wins_at_either_moment_while_on_the_island():
    s = everyone_votes(day1(DECK10), list(range(1, 11)), 1, 2)
    night(s, [2, 3, 4, 5, 6, 7, 8, 9, 10], {6: 7, 2: 3})
    log = everyone_votes(s, [2, 3, 4, 5, 6, 8, 9, 10], 6, 2).run()
    (over,) = of(log, "game-over")
    assert over["winner"] == "imp" and [r["seat"] for r in over["ranking"] if r["won"]] == [5]


def test_the_win_is_checked_after_each_removal_a_vote_can_end_the_game_before_night():
    log = everyone_votes(day1(["witch", "human", "human", "human", "mirror"]), [1, 2, 3, 4, 5], 1, 2).run()
    assert of(log, "game-over")[0]["winner"] == "islanders" and not of(log, "phase", phase="night")


def test_stop_ends_the_game_with_no_winner():
    log = day1().console("stop").run()
    over = of(log, "game-over")[0]
    assert over["winner"] == "void" and over["reason"] == "stopped" and not any(r["won"] for r in over["ranking"])


# -- at the table: hint, console, refusals ----------------------------------------------
def test_hint_answers_what_a_sighted_player_sees_and_the_seats_own_secrets_only():
    s = everyone_votes(day1(), ALL8, 5, 8).field("seat:3")
    log = s.hand(2, "cmd:hint").console("hint 1").run()
    two = {e["key"]: e.get("params") for e in log if e["type"] == "say" and e["to"] == "seat:2"}
    assert two["hint-phase"] == {"phase": "phase:night", "day": 1}
    assert two["hint-alive"]["seats"] == [1, 2, 3, 4, 6, 7, 8] and two["hint-out"]["seats"] == [5]
    assert two["your-role"]["role"] == "role:mirror" and "partners" not in two
    assert two["hint-night"]["minutes"] == 360 and "hint-scan-now" in two
    assert said(log, "partners", "seat:1")[-1]["params"]["seats"] == [6]
    heard = [e for e in log if visible_to(e, 2) and e["type"] == "say" and e["to"] == "seat:2"]
    assert not [e for e in heard if "role:witch" in str(e.get("params"))]


def test_console_acts_match_the_hand_readers_and_its_refusals_are_the_referees():
    s = day1().console("act 1 2").console("act 1 99").console("speak 99 hi").console("dance 3")
    s.console("speak 3 " + "x" * 2001)
    log = s.run()
    assert said(log, "voted", "seat:1")[0]["params"]["seat"] == 2
    assert [e["private"] for e in of(log, "error")] == ["referee"] * 4
    from kikimimi_games.witch import WitchGame

    syntaxes = [syntax for syntax, _ in declaration("witch").referee_commands()]
    for cmd in ("act SEAT TARGET", "speak SEAT TEXT", "advise SEAT TARGET", "exorcise SEAT TARGET", "silence SEAT",
                "hint SEAT", "next", "stop"):
        assert any(cmd in s for s in syntaxes), cmd


def test_command_tags_on_the_hand_reader_arm_the_next_seat_scan():
    s = day1().hand(7, "cmd:advise").hand(7, "seat:3").hand(7, "seat:4")
    log = s.run()
    assert of(log, "advise")[0]["target"] == 3 and said(log, "voted", "seat:7")[0]["params"]["seat"] == 4


def test_role_cards_and_stray_tags_after_the_deal():
    log = day1().hand(2, "witch:role-mirror-1").hand(3, "witch:role-human-3").field("witch:role-human-1").run()
    assert said(log, "your-role", "seat:2")[-1]["params"]["role"] == "role:mirror"
    assert said(log, "not-now", "seat:3") and said(log, "field-seats-only")


def test_a_token_left_on_the_field_when_the_day_ends_costs_nothing_and_blocks_nobody():
    s = day1().field("seat:3")
    everyone_votes(s, ALL8, 7, 8)
    night(s, [1, 2, 3, 4, 5, 6, 8], {1: 8, 6: 8, 2: 3})
    s.field("seat:4").field("seat:4", removed=True, dt=5).field("seat:3", removed=True)
    log = s.run()
    assert [(e["seat"], e["minutes"]) for e in of(log, "speech")] == [(4, 5)]
    assert not said(log, "mic-busy")


def test_the_situation_is_public_facts_only_and_odd_digits_are_not_seats():
    from kikimimi.table.engine import Table
    from kikimimi.contract.script import Header

    s = everyone_votes(day1(), ALL8, 7, 8)
    table = Table(Header("witch", 8, {"roles": DECK8, "day_acts": "free"}))
    table.start()
    for number, line in enumerate(s.lines[1:], start=2):
        table.feed(number, line)
    events = table.game.situation()
    assert {e.fields["to"] for e in events} == {"table"}
    spoken = {e.fields["key"]: e.fields["params"] for e in events}
    assert spoken["hint-phase"] == {"phase": "phase:night", "day": 1} and spoken["hint-out"]["seats"] == [7]
    assert spoken["hint-night"]["minutes"] == 360 and "your-role" not in spoken
    log = day1().console("act ² 3").console("hint ٣").console("act 1 ²").run()
    assert [e["private"] for e in of(log, "error")] == ["referee"] * 3
