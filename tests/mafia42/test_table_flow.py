"""The table's flow on real timers, the live tally, HINT, the console, options."""
from __future__ import annotations

import pytest

from kikimimi.contract.parts import diagram
from kikimimi.table.engine import Table as Engine
from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.protocol import Input
from kikimimi.contract.script import Header, ScriptError
from kikimimi.design.sim import play
from kikimimi.contract.registry import declaration
from kikimimi_games.mafia42 import Mafia42Game

from .table import Table, clocks, ends, of, said

C = "citizen"


def phases(log):
    return [(e["phase"], e["t"]) for e in of(log, "phase")]


def test_the_game_starts_at_night_and_every_phase_runs_on_its_timer():
    """Each limit counts from when its announcement has been heard (the speaker's queue
    played), so a phase ends its seconds after its `phase-clock`, never after its start."""
    t = Table(["mafia", C, C, C])  # dealt at t=2.0
    t.hand(2, "seat:3", dt=1.0)
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=200)  # the clock runs
    log = t.run()
    got = phases(log)
    assert [p for p, _ in got[:6]] == ["night", "morning", "discussion", "vote", "night", "morning"]
    assert got[0] == ("night", 2.0)
    started = clocks(log)
    assert [(c["phase"], c["seconds"]) for c in started[:5]] == [
        ("night", 25), ("morning", 5), ("discussion", 60), ("vote", 15), ("night", 25)]  # 15 s x 4 living
    for (_, begun), clock, (_, after) in zip(got, started[:5], got[1:]):
        assert clock["t"] > begun + 1  # its announcement takes a while to say
        assert after == pytest.approx(clock["t"] + clock["seconds"])
    assert said(log, "ten-seconds")[0]["t"] == pytest.approx(ends(log, "night") - 10)
    assert said(log, "tally-hidden")[0]["t"] == pytest.approx(ends(log, "vote") - 5)


def test_timers_are_options():
    t = Table(["mafia", C, C, C], night=10, morning=2, discussion_per_player=5, vote=6)
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=80)
    log = t.run()
    assert [(c["phase"], c["seconds"]) for c in clocks(log)[:4]] == [
        ("night", 10), ("morning", 2), ("discussion", 20), ("vote", 6)]
    assert [p for p, _ in phases(log)[:4]] == ["night", "morning", "discussion", "vote"]
    assert [at for _, at in phases(log)[1:4]] == pytest.approx([ends(log, p) for p in ("night", "morning", "discussion")])


def test_extend_and_shorten_once_per_player_per_day():
    """Before the discussion's announcement has been heard an extension lengthens the whole
    discussion (its clock has not started); after, it moves the deadline."""
    t = Table(["mafia", C, C, C]).night().next()  # the discussion (4 living: 60 s)
    t.hand(2, "cmd:extend")  # said before the discussion's announcement has played: 60 + 15
    t.heard().hand(2, "cmd:shorten").hand(3, "cmd:shorten").hand(4, "cmd:shorten", dt=1.0)
    log = t.run()
    left = [e["params"]["left"] for e in said(log, "extended") + said(log, "shortened")]
    assert left == [75, 59, 43]  # +15 (the whole phase), then -15 1 s into it, -15 2 s into it
    assert clocks(log, "discussion")[0]["seconds"] == 75
    assert said(log, "once-a-day", "seat:2")
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=50)
    log = t.run()
    assert phases(log)[3][0] == "vote" and phases(log)[3][1] == pytest.approx(clocks(log, "discussion")[0]["t"] + 45)


def test_live_tally_is_totals_only_read_once_every_voter_has_a_ballot_at_a_fixed_moment():
    t = Table(["mafia", C, C, C]).night().next().next().heard()  # the vote counts from h: read at h+5
    t.hand(1, "seat:2").hand(3, "seat:2", dt=1).hand(2, "seat:1", dt=1)
    t.hand(4, "seat:2", dt=1)  # at h+3.5: the last voter
    t.hand(4, "seat:1", dt=2)  # at h+5.5: a change after the reading is not read
    log = t.run()
    tallies = of(log, "tally")
    read_at = clocks(log, "vote")[0]["t"] + 5
    assert [(x["totals"], x["t"], x["in"]) for x in tallies] == [({"2": 3, "1": 1}, read_at, None)]  # once, no scan's
    assert all(set(x) == {"seq", "t", "type", "in", "totals", "final"} for x in tallies)
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=5)  # the clock runs past the hush
    log = t.next().run()
    assert [x["t"] for x in of(log, "tally") if not x["final"]] == [read_at] and said(log, "tally-hidden")
    assert of(log, "tally")[-1] == {**of(log, "tally")[-1], "totals": {"1": 2, "2": 2}, "final": True}
    assert of(log, "accused")[-1]["seat"] is None


def test_no_votes_or_a_tie_means_a_quiet_night():
    log = Table(["mafia", C, C, C]).night().day({1: 2, 2: 1}).run()
    assert of(log, "accused")[-1]["seat"] is None and phases(log)[-1][0] == "night"


def test_approval_needs_half_of_the_living_voters():
    yes2 = Table(["mafia", C, C, C, C]).night().day({s: 5 for s in range(1, 6)}, yes=(1, 2), no=(3,)).run()
    assert of(yes2, "approval")[-1] == {**of(yes2, "approval")[-1], "yes": 2, "no": 2, "executed": True}
    yes1 = Table(["mafia", C, C, C, C]).night().day({s: 5 for s in range(1, 6)}, yes=(1,)).run()
    assert of(yes1, "approval")[-1]["executed"] is False


def test_hint_tells_the_seat_what_it_may_know_in_its_earphone():
    t = Table(["mafia", "mafia", "police", C, C]).night({3: 1}).next().hand(1, "cmd:hint")
    log = t.run()
    hint = [e for e in log if e["type"] == "say" and e["in"] == len(t.lines)]
    assert {e["to"] for e in hint} == {"seat:1"}
    keys = [e["key"] for e in hint]
    assert {"hint-phase", "hint-alive", "hint-time", "your-role", "partners", "your-team"} <= set(keys)
    log = t.hand(3, "cmd:hint").run()
    assert said(log, "police-mafia", "seat:3")[-1]["in"] == len(t.lines)  # the finding, again


def test_console_acts_and_chats_reach_only_who_may_hear():
    t = Table(["mafia", "mafia", "lover", "lover", C])
    t.console("act 1 5").console("chat 1 let us take five").console("chat 3 sleep well")
    t.console("chat 5 anyone?")
    log = t.run()
    chats = of(log, "chat")
    assert [c["private"] for c in chats] == [["seat:1", "seat:2"], ["seat:3", "seat:4"]]
    assert said(log, "cannot-chat", "seat:5")
    assert said(log, "mafia-aim", "seat:2")[-1]["params"]["seat"] == 5
    assert not [e for e in public_view(log) if e["type"] == "chat"]
    assert [e["to"] for e in said(log, "chat")] == ["seat:1", "seat:2", "seat:3", "seat:4"]  # spoken to who may hear
    log = Table(["mafia", "mafia", "lover", "lover", C]).night().console("chat 5 good morning").run()
    assert said(log, "chat", "table")[-1]["params"]["text"] == "good morning"  # by day, on the speaker
    assert "chat SEAT TEXT" in dict(declaration("mafia42").referee_commands())


def test_the_dead_cannot_act_and_refusals_stay_private():
    log = Table(["mafia", C, C, C]).night({1: 2}).next().next().hand(2, "seat:1").run()
    refusal = [e for e in log if e["type"] == "error"][-1]
    assert refusal["private"] == "seat:2" and said(log, "you-are-out", "seat:2")


@pytest.mark.parametrize("options, why", [
    ({"mode": "cult"}, "cult mode is for 9 to 12"),
    ({"mode": "chaos"}, "mode must be"),
    ({"night": 0}, "night must be"),
    ({"jobs": ["mafia", "citizen", "citizen"]}, "one job name per player"),
    ({"jobs": ["citizen"] * 4}, "at least one mafia"),
    ({"jobs": ["mafia", "lover", "citizen", "citizen"]}, "pairs"),
    ({"jobs": ["mafia", "cult-leader", "citizen", "citizen"]}, "only in cult mode"),
    ({"skills": {"9": "escape"}}, "skills"),
    ({"job_changes": {"doctor": {"effect": "fly"}}}, "effect"),
    ({"job_changes": {"nurse": {"effect": "protect"}}}, "not a job of the catalogue"),
    ({"job_changes": {"doctor": {"team": "mafia"}}}, "team is printed on its card"),
    ({"colour": "red"}, "unknown option"),
])
def test_bad_options_are_one_line_errors(options, why):
    with pytest.raises(ScriptError, match=why):
        run_script([{"game": "mafia42", "players": 4, "options": options}])


def test_no_reading_while_a_voter_has_no_ballot_and_the_final_tally_is_the_referees():
    """A reading of some of the ballots is tied to the seats seen scanning before it
    (a rise for one seat named each new voter's choice; a total above the scanners put the
    politician among them).  Two of four voters, then a third at 10.5: never read."""
    t = Table(["mafia", C, C, C]).night().next().next().heard()  # the vote counts from h
    t.hand(1, "seat:2").hand(1, "seat:3")  # one voter, twice
    t.hand(2, "seat:3", dt=1).hand(3, "seat:3", dt=5)  # at h+7.5: seat 4 never votes
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=4)  # the clock runs
    log = t.next().run()
    assert not said(log, "tally-entry", "table") and not said(log, "tally-now", "table")
    assert not [e for e in of(log, "tally") if not e["final"]] and said(log, "tally-hidden")
    final = [e for e in of(log, "tally") if e["final"]]
    assert final and final[0]["private"] == "referee" and final[0]["totals"] == {"3": 3}


def test_the_diagram_draws_every_phase_the_game_enters():
    text = diagram(declaration("mafia42"))
    _, log = play("mafia42", 3, 8, {})
    for phase in {e["phase"] for e in of(log, "phase")}:
        assert f"{phase} -->" in text or f"--> {phase}" in text


def test_the_situation_on_the_speaker_holds_public_facts_only():
    """The runtime speaks it after an undo, a resume or a reader back."""
    t = Table(["mafia", "police", C, C]).night({1: 3}).next().next().heard().hand(1, "seat:2").hand(2, "seat:2")
    t.hand(4, "seat:1")  # the last living voter: the tally is read at the next moment
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=5)  # read 5 s into the vote
    engine = Engine(Header.parse(t.lines[0]))
    engine.start()
    for n, line in enumerate(t.lines[1:], start=2):
        engine.feed(n, line)
    situation = engine.game.situation()
    assert all(ev.fields["to"] == "table" for ev in situation)
    keys = [ev.fields["key"] for ev in situation]
    assert keys[:3] == ["hint-phase", "hint-alive", "hint-out"] and "hint-time" in keys
    assert [ev.fields["params"] for ev in situation if ev.fields["key"] == "tally-entry"] == [{"seat": 1, "votes": 1},
                                                                                       {"seat": 2, "votes": 2}]
    assert not any("job:" in str(ev.fields.get("params")) for ev in situation)
    at_the_deal = Mafia42Game(4, {"jobs": ["mafia", "police", C, C]}).situation()
    assert [ev.fields["key"] for ev in at_the_deal] == ["hint-phase-only", "hint-alive"]  # no "day 0"


def test_every_phase_change_is_one_the_diagram_draws():
    from kikimimi.contract.phases import PhaseError
    from kikimimi_games.mafia42.game import PHASES

    edges = {(m.source, m.dest) for m in PHASES.moves}
    seen = set()
    for seed, players, options in ((3, 8, {}), (4, 12, {"mode": "cult"}), (5, 4, {}), (1, 6, {"mode": "general"})):
        _, log = play("mafia42", seed, players, options)
        path = ["deal"] + [e["phase"] for e in of(log, "phase")] + ["over"]
        seen |= set(zip(path, path[1:]))
    assert seen <= edges and len(seen) >= 7
    with pytest.raises(PhaseError):
        PHASES.step("vote", "approval")  # the vote leads to the defence or the night, never straight on
    assert "    discussion: discussion, option discussion_per_player s per living player" in diagram(declaration("mafia42"))


def test_each_seat_is_one_record_of_the_layers_roster():
    game = Mafia42Game(4, {"jobs": ["mafia", "doctor", "citizen", "citizen"]})
    game.start(0.0)
    for seat, tag in enumerate(["mafia42:job-mafia-1", "mafia42:job-doctor-1", "mafia42:job-citizen-1",
                                "mafia42:job-citizen-2"], start=1):
        game.handle(Input(t=float(seat), reader="hand", seat=seat, tag=tag))
    assert not hasattr(game, "p") and not hasattr(game, "set_alive")
    p = game.roster[2]
    assert (p.role, p.job, p.team, p.alive) == ("doctor", "doctor", "citizens", True)
    game.handle(Input(t=5.0, console="act 1 2"))
    game.handle(Input(t=6.0, console="next"))  # the doctor chose nobody: seat 2 dies
    assert game.roster.dead() == [2] and game.roster[2].cause == "mafia"
