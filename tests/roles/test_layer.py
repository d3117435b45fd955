"""The hidden-role layer through a toy game and the real engine (table scripts in, log out)."""
from __future__ import annotations

import random

import pytest

from kikimimi.testkit.roles_script import Script, internal_errors, of, public_view, said, seen_by
from kikimimi.roles import Night, Vote, VirtualClock, assign_with_preferences, chars_to_minutes, decide, settle

ROLES = ["wolf", "seer", "villager", "villager", "wolf", "villager"]  # wolves 1 and 5, seer 2


def dealt(players: int = 6, roles=ROLES) -> Script:
    return Script("toyroles", players).deal("toyroles", roles)


# -- the deal -------------------------------------------------------------------
def test_each_seat_hears_its_role_alone_and_partners_learn_each_other():
    log = dealt().run()
    roles = of(log, "role")
    assert [(e["seat"], e["role"], e["private"]) for e in roles] == [
        (s, r, f"seat:{s}") for s, r in enumerate(ROLES, 1)]
    assert said(log, "your-role", "seat:2")[0]["params"]["role"] == "role:seer"
    (group,) = of(log, "partners")
    assert group["private"] == ["seat:1", "seat:5"] and group["seats"] == [1, 5]
    assert [e["params"]["seats"] for e in said(log, "partners")] == [[5], [1]]
    assert {e["to"] for e in said(log, "partners")} == {"seat:1", "seat:5"}
    assert of(log, "phase")[-1]["phase"] == "day"  # the deal starts the first phase at once


def test_deal_refusals_stay_in_the_scanning_seats_earphone():
    s = Script("toyroles", 5)
    s.hand(1, "toyroles:role-wolf-1").hand(2, "toyroles:role-wolf-1")  # card taken
    s.hand(2, "toyroles:role-wolf-2").hand(3, "toyroles:role-wolf-3")  # deck holds two wolves
    s.hand(2, "toyroles:role-seer-1")  # already dealt a role
    s.hand(4, "seat:1")  # no act before the deal
    s.console("next")
    log = s.run()
    keys = [e["key"] for e in log if e["type"] == "say" and e["to"] != "table"]
    assert keys == ["your-role", "role-card-taken", "your-role", "role-not-in-deck", "role-already-dealt",
                    "scan-role-first"]
    errors = of(log, "error")
    assert [e["private"] for e in errors] == ["seat:2", "seat:3", "seat:2", "seat:4", "referee"]
    assert not [e for e in public_view(log) if e["type"] in ("error", "role")]


def test_a_seat_rescanning_its_own_card_hears_its_role_again_even_after_the_deal():
    log = dealt().hand(3, "toyroles:role-villager-1").hand(3, "toyroles:role-villager-2").run()
    assert [e["params"]["role"] for e in said(log, "your-role", "seat:3")] == ["role:villager"] * 2
    assert said(log, "not-now", "seat:3")


def test_a_bad_deck_is_one_line():
    from kikimimi.contract.script import ScriptError

    with pytest.raises(ScriptError, match="one role per seat"):
        Script("toyroles", 5, roles=["wolf"]).run()
    with pytest.raises(ScriptError, match="unknown role 'king'"):
        Script("toyroles", 4, roles=["wolf", "seer", "villager", "king"]).run()


# -- votes ----------------------------------------------------------------------
def test_votes_are_private_until_the_count_changeable_and_no_self_vote():
    s = dealt().votes([(1, 1), (1, 3), (1, 2), (2, 1), (3, 1), (4, 1)])
    log_before = s.run()
    assert not of(log_before, "tally")
    assert said(log_before, "vote-not-self", "seat:1")
    assert not [e for e in public_view(log_before) if e["type"] == "say" and e["key"] == "voted"]
    log = s.votes([(5, 2), (6, 1)]).run()
    (tally,) = of(log, "tally")
    assert tally["ballots"] == {"1": 2, "2": 1, "3": 1, "4": 1, "5": 2, "6": 1}  # seat 1's changed vote counts
    assert tally["totals"] == {"1": 4, "2": 2}
    assert of(log, "out", seat=1, when="day")


def test_a_tie_revotes_then_cumulative_then_the_lot():
    first = [(1, 2), (2, 1), (3, 2), (4, 1), (5, 3), (6, 3)]  # 2, 1 and 3 tie -> revote
    revote = [(1, 2), (2, 1), (3, 1), (4, 3), (5, 1), (6, 4)]  # 1 alone on top
    log = dealt().votes(first).votes(revote).run()
    assert said(log, "revote")
    assert [t["round"] for t in of(log, "tally")] == [1, 2]
    assert of(log, "out-cause", seat=1)[0]["cause"] == "vote-single"
    # the revote ties the same three, level over both rounds -> the lot, the same in every replay
    tie = first
    s = dealt().votes(first).votes(tie)
    a, b = s.run(), s.run()
    assert of(a, "out-cause")[0]["cause"] == "vote-lot" and of(a, "out") == of(b, "out")
    # the revote ties 3 and 1; over both rounds 3 has more
    cum = dealt().votes([(1, 3), (2, 3), (3, 4), (4, 3), (5, 4), (6, 4)])
    cum = cum.votes([(1, 3), (2, 3), (3, 1), (4, 1), (5, 4), (6, 2)]).run()
    assert of(cum, "out-cause", seat=3)[0]["cause"] == "vote-cumulative"


def test_decide_rules_one_by_one():
    r1 = Vote.open([1, 2, 3, 4])
    for v, t in [(1, 2), (2, 1), (3, 2), (4, 1)]:
        r1.cast(v, t)
    assert decide([r1]).how == "tie" and decide([r1]).seat is None
    r2 = Vote.open([1, 2, 3, 4], round=2)
    for v, t in [(1, 3), (2, 1), (3, 1), (4, 3)]:
        r2.cast(v, t)
    assert decide([r1, r2], ("cumulative", "lot"), random.Random(1)) == decide([r1, r2], ("cumulative",)) \
        and decide([r1, r2], ("cumulative",)).seat == 1
    weighted = Vote.open([1, 2, 3], weights={1: 2})
    for v, t in [(1, 3), (2, 1), (3, 1)]:
        weighted.cast(v, t)
    assert weighted.totals() == {1: 2, 3: 2} and weighted.leaders() == [1, 3]
    assert Vote.open([1, 2], self_vote=True).refusal(1, 1) is None
    assert Vote.open([1, 2]).refusal(3, 1) == "vote-no-right"


# -- nights ---------------------------------------------------------------------
def day_one(s: Script) -> Script:
    return s.votes([(1, 3), (2, 3), (3, 4), (4, 3), (5, 3), (6, 3)])  # villager 3 out


def test_the_night_waits_for_every_living_seats_scan_cover_included():
    s = day_one(dealt()).hand(1, "seat:2").hand(5, "seat:4").hand(2, "seat:5")
    log = s.run()
    assert of(log, "phase")[-1]["phase"] == "night"
    kills = of(log, "kill")
    assert [k["private"] for k in kills] == [["seat:1", "seat:5"]] * 2
    assert said(log, "seen", "seat:2")[0]["params"]["found"] == "wolf"
    log = s.hand(4, "seat:1").run()
    assert of(log, "phase")[-1]["phase"] == "night" and not of(log, "out", when="night")
    log = s.hand(6, "seat:1").run()  # the last living seat scans (for cover)
    assert said(log, "cover", "seat:4") and said(log, "cover", "seat:6")
    assert of(log, "out", seat=4, when="night")  # the wolves' latest joint choice
    assert of(log, "game-over")[0]["winner"] == "wolves"  # checked right after the morning


def test_a_final_action_cannot_be_changed_and_the_dead_do_not_act():
    log = day_one(dealt()).hand(2, "seat:1").hand(2, "seat:5").hand(3, "seat:1").run()
    assert said(log, "night-final", "seat:2")
    assert said(log, "you-are-out", "seat:3")
    assert len(said(log, "seen", "seat:2")) == 1


def test_the_real_time_limit_ends_the_night_and_a_stale_timer_does_nothing():
    s = day_one(dealt()).hand(2, "seat:1")
    s.console("hint 4", dt=100)  # 100 s later: the 60 s limit fired first
    log = s.run()
    assert not of(log, "out", when="night")  # the wolves chose nobody in time
    assert of(log, "phase")[-1]["phase"] == "day"
    assert said(log, "hint-phase", "seat:4")[-1]["params"]["phase"] == "phase:day"


def test_the_morning_names_who_left_never_why():
    log = day_one(dealt()).hand(1, "seat:2").hand(5, "seat:2").hand(2, "seat:1").hand(4, "seat:1")
    log = log.hand(6, "seat:1").run()
    public = public_view(log)
    assert [e["seat"] for e in of(public, "out")] == [3, 2]
    assert all("cause" not in e for e in of(public, "out"))
    assert not of(public, "out-cause") and of(log, "out-cause", seat=2)[0]["private"] == "referee"


def test_settle_runs_steps_in_the_declared_order():
    night = Night.open([1, 2, 3], {1: "kill", 2: "guard"}, joint={"kill"})
    night.choose(1, 3)
    night.choose(2, 3)
    night.choose(3, 1)
    order: list[str] = []

    def guard(n, r):
        order.append("guard")
        r.notes["guarded"] = n.target("guard")

    def kill(n, r):
        order.append("kill")
        if n.target("kill") != r.notes.get("guarded"):
            r.remove(n.target("kill"), "killed")
        else:
            r.fire("guarded")

    result = settle(night, [guard, kill])
    assert order == ["guard", "kill"] and result.removed == {} and result.fired["guarded"] == 1
    assert night.acts["kill"] == 1 and night.complete


# -- the end ------------------------------------------------------------------
def test_the_win_is_checked_after_every_removal_and_the_team_wins_dead_or_alive():
    log = dealt().votes([(1, 5), (2, 5), (3, 5), (4, 5), (5, 1), (6, 1)])  # wolf 5 out
    log = log.hand(1, "seat:2").hand(2, "seat:1").hand(3, "seat:1").hand(4, "seat:1").hand(6, "seat:1")
    log = log.votes([(1, 3), (3, 1), (4, 1), (6, 1)]).run()  # seer 2 died; wolf 1 out: the village wins
    (over,) = of(log, "game-over")
    assert over["winner"] == "village" and over["reason"] == "win"
    rows = {r["seat"]: r for r in over["ranking"]}
    assert rows[2]["won"] and rows[2]["place"] == 1 and not rows[2]["alive"]
    assert not rows[1]["won"] and rows[1]["place"] == 2 and rows[1]["team"] == "wolves"


def test_stop_ends_the_game_void_and_console_errors_stay_with_the_referee():
    log = dealt().console("act 9 1").console("frobnicate").console("act 1 x").console("stop").run()
    assert [e["private"] for e in of(log, "error")] == ["referee"] * 3
    assert of(log, "game-over")[0]["winner"] == "void"
    assert all(not r["won"] for r in of(log, "game-over")[0]["ranking"])


def test_hint_tells_a_seat_only_what_it_may_know():
    log = day_one(dealt()).hand(4, "cmd:hint").console("hint 5").run()
    assert said(log, "your-role", "seat:4")[-1]["params"]["role"] == "role:villager"
    assert said(log, "hint-alive", "seat:4")[-1]["params"]["seats"] == [1, 2, 4, 5, 6]
    assert said(log, "partners", "seat:5")[-1]["params"]["seats"] == [1]
    assert not said(log, "partners", "seat:4")
    heard_by_4 = seen_by(log, 4)
    assert not [e for e in heard_by_4 if e["type"] in ("role", "partners", "kill") and e.get("seat") != 4]


# -- clocks and preferences -------------------------------------------------------
def test_virtual_clock_announces_hours_and_allows_the_last_overrun():
    day = VirtualClock(720)
    assert day.spend(59) == [] and day.spend(2) == [11]
    assert day.spend(180) == [10, 9, 8]
    allowance = VirtualClock(180, grace=10)
    allowance.spend(185)
    assert allowance.open and allowance.left == -5
    allowance.spend(5)
    assert not allowance.open
    assert chars_to_minutes("abcdefgh", 8) == 1 and chars_to_minutes("あいう", 8) == 0
    assert chars_to_minutes("あいうえ", 8) == 1 and chars_to_minutes("ａｂｃｄ", 8) == 1


def test_preferences_are_granted_while_the_role_is_free():
    deck = ["witch", "human", "human", "mirror"]
    got = assign_with_preferences(deck, {1: "mirror", 2: "mirror", 3: "witch"}, 4, random.Random(3))
    assert sorted(got.values()) == sorted(deck) and got[3] == "witch"
    assert [got[1], got[2]].count("mirror") == 1


# -- anything at all --------------------------------------------------------------
def test_random_inputs_never_crash_and_never_leak(toyroles):
    from hypothesis import given, settings, strategies as st

    tags = [f"seat:{k}" for k in range(1, 6)] + ["cmd:hint", "cmd:shout", "cmd:ok"] + \
        [f"toyroles:role-{r}-{n}" for r in ("wolf", "seer", "villager") for n in (1, 2, 3)]
    step = st.one_of(
        st.tuples(st.just("hand"), st.integers(1, 5), st.sampled_from(tags)),
        st.tuples(st.just("console"), st.integers(0, 6), st.sampled_from(
            ["act {} 2", "hint {}", "next", "yes {}", "stop", "act {} {}", "zzz"])),
        st.tuples(st.just("wait"), st.integers(1, 100), st.just("")))

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(st.lists(step, max_size=60))
    def run(steps):
        s = Script("toyroles", 5)
        for kind, n, what in steps:
            if kind == "hand":
                s.hand(n, what)
            elif kind == "console":
                s.console(what.format(n, n))
            else:
                s.t += n
        log = s.run()
        assert not internal_errors(log)
        public = public_view(log)
        assert not [e for e in public if e["type"] in ("role", "partners", "kill", "out-cause", "hint")]
        assert not [e for e in public if e["type"] == "say" and e["key"] in ("seen", "your-role", "partners")]

    run()


def test_a_team_secret_with_nobody_left_to_tell_stays_the_referees_and_a_ballot_can_be_withdrawn():
    from kikimimi.roles import team_event, team_say

    assert team_event("kill", [], target=3).fields["private"] == "referee"
    assert team_event("kill", [5, 1, 5], target=3).fields["private"] == ["seat:1", "seat:5"]
    assert [e.fields["to"] for e in team_say([3, 1], "hello")] == ["seat:1", "seat:3"]
    vote = Vote.open([1, 2, 3])
    vote.cast(1, 2)
    assert vote.withdraw(1) and not vote.withdraw(1) and vote.missing == [1, 2, 3]


# -- a game's own seat record and phases as data ------------------------------------
def test_a_games_seat_record_is_the_roster_itself_and_a_seat_can_come_back():
    from dataclasses import dataclass

    from kikimimi.roles import Roster
    from kikimimi.roles.roster import Player

    @dataclass
    class Marked(Player):
        marks: int = 0

    roster = Roster(3, Marked)
    roster[2].marks += 1
    roster.remove(2, "banished", 1)
    assert isinstance(roster[2], Marked) and roster.alive() == [1, 3] and roster[2].cause == "banished"
    roster.revive(2)
    assert roster.alive() == [1, 2, 3] and roster[2].cause is None and roster[2].marks == 1


def test_clocks_set_warnings_with_room_name_their_limits_and_cancel_what_they_set():
    from kikimimi.roles.phases import Clock, Clocks, Warning

    warn, hush = Warning("warn", 10), Warning("hush", 5)
    clocks = Clocks(Clock("night", "night", (warn,)), Clock("talk", "talk_per_player", (hush, warn), per_living=True))
    assert [(e.type, e.fields) for e in clocks.warnings("night", 5.0, 30.0)] == [("timer-set", {"name": "warn", "at": 20.0})]
    # a 10-second phase whose end, in floats, lands a hair after its start + 10: no warning
    assert [e.type for e in clocks.warnings("night", 123.99, 123.99 + 10)] == ["timer-cancel"]
    assert [e.fields["name"] for e in clocks.warnings("talk", 0.0, 8.0)] == ["hush", "warn"]
    assert [e.type for e in clocks.warnings("talk", 0.0, 8.0)] == ["timer-set", "timer-cancel"]
    assert clocks["talk"].seconds({"talk_per_player": 15}, 4) == 60.0 and clocks["night"].seconds({"night": 25}, 4) == 25.0
    assert [e.fields["name"] for e in clocks.cancel_warnings()] == ["warn", "hush"]
    assert "    talk: talk, option talk_per_player s per living player" in clocks.notes()
    with pytest.raises(ValueError):
        Clocks(Clock("night", "night"), Clock("night", "n2"))
