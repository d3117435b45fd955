"""マフィア42's secret acts at a physical table: what the speaker and
the public view may not give away, and what a seat must hear in its own earphone.

Each test plays table scripts through the real engine.  The attacker's tests
play two tables that differ only in a secret act, with the same seats scanning
at the same moments (as a sighted spectator sees them), and require the
public views to be equal, event for event."""
from __future__ import annotations

from kikimimi.table.engine import public_view
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import visible_to

from .table import Table, clocks, ends, of, over, said

C = "citizen"


def said_to(log, seat):
    return [e["key"] for e in log if e["type"] == "say" and e["to"] == f"seat:{seat}"]


# -- the deal --------------------------------------------------------------------
def test_each_player_hears_their_team_with_their_job_and_nobody_else_does():
    log = Table(["mafia", "spy", "police", C]).run()
    told = [(e["to"], e["params"]["team"]) for e in said(log, "your-team")]
    assert told == [("seat:1", "team:mafia"), ("seat:2", "team:mafia"),  # a helper belongs to the mafia
                    ("seat:3", "team:citizens"), ("seat:4", "team:citizens")]
    for seat in range(1, 5):
        keys = said_to(log, seat)
        assert keys[keys.index("your-role") + 1] == "your-team"
    assert not of(public_view(log), "say", key="your-team")


def test_rescanning_your_card_repeats_your_team():
    log = Table(["mafia", "spy", "police", C]).hand(2, "mafia42:job-spy-1").run()
    assert said_to(log, 2)[-2:] == ["your-role", "your-team"]


# -- the threatened seat ---------------------------------------------------------------
def threatened_table(yes_from_3: bool) -> Table:
    """The gangster (2) threatens seat 3 on night 1; seat 4 is accused and seat 3 scans YES or NO."""
    t = Table(["mafia", "gangster", C, C, C]).night({2: 3}).next().next()  # morning -> discussion -> vote
    for voter in (1, 2, 5):
        t.hand(voter, "seat:4")
    t.next().next()  # the vote closes; the defence ends
    t.hand(3, "cmd:yes" if yes_from_3 else "cmd:no").hand(1, "cmd:yes").hand(2, "cmd:no").hand(5, "cmd:no")
    return t.next()


def test_a_threatened_seat_is_told_before_the_vote_in_its_earphone_only():
    log = threatened_table(True).run()
    vote_start = said(log, "vote-start")[0]["t"]
    told = [e for e in said(log, "threatened-scan") if e["t"] == vote_start]
    assert [e["to"] for e in told] == ["seat:3"]
    assert not of(public_view(log), "say", key="threatened-scan")


def test_a_threatened_seat_hears_it_again_in_its_hint():
    t = threatened_table(True)
    t.lines = t.lines[:-5]  # back to the approval's start, before the ballots
    log = t.hand(3, "cmd:hint").hand(4, "cmd:hint").run()
    last = log[-1]["in"]
    assert [e["to"] for e in said(log, "threatened-ballot") if e["in"] == last - 1] == ["seat:3"]
    assert not [e for e in said(log, "threatened-ballot") if e["in"] == last]


def test_a_threatened_yes_is_never_confirmed_as_a_yes_and_counts_as_no():
    log = threatened_table(True).run()
    approval_start = said(log, "approval-start")[0]["t"]
    assert [e["to"] for e in said(log, "threatened-ballot") if e["t"] == approval_start] == ["seat:3"]
    mine = [e for e in log if e["type"] == "say" and e["to"] == "seat:3" and e["t"] > approval_start]
    assert [e["key"] for e in mine] == ["threatened-ballot"]
    assert not [e for e in said(log, "ballot-yes") if e["to"] == "seat:3"]
    assert of(log, "approval")[-1]["yes"] == 1  # seat 1 alone
    assert public_view(log) == public_view(threatened_table(False).run())


# -- time, and the end -------------------------------------------------------------------
def test_a_ten_second_phase_has_no_ten_seconds_left_warning():
    """123.99 + 10 - 10 is a hair above 123.99 in floats: the warning was set for the start."""
    t = Table(["mafia", C, C, C, C], vote=600).night().next().next()
    for voter in (1, 2, 3):
        t.hand(voter, "seat:4")
    t.console("next", dt=108.99 - t.t)  # the vote closes: seat 4's 15-second defence
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=60)  # the approval runs out
    log = t.run()
    start = said(log, "approval-start")[0]["t"]
    assert start == ends(log, "defence")
    defence = clocks(log, "defence")[0]["t"]
    assert [e["t"] for e in said(log, "ten-seconds") if defence <= e["t"] <= start] == [start - 10]  # 10 s before its end
    counted = clocks(log, "approval")[0]["t"]  # the approval's 10 s count from when it was heard
    assert not [e for e in said(log, "ten-seconds") if counted <= e["t"] <= counted + 10]
    assert of(log, "approval")  # the approval ran to its end


def test_a_stopped_game_is_said_as_stopped_and_day_0_is_never_said():
    log = Table(["mafia", C, C, C], lang="ja").console("stop").run()
    assert over(log)["winner"] == "void" and said(log, "game-stopped", "table")
    assert not said(log, "game-over")
    texts = [e["text"] for e in log if e["type"] == "say"]
    assert not [x for x in texts if "の勝利" in x and "なし" in x]
    early = Table(["mafia", C, C, C], lang="ja")
    early.lines = early.lines[:2]  # seat 1 alone has its card
    hint = [e["text"] for e in said(early.hand(1, "cmd:hint").run(), "hint-phase-only")]
    assert hint == ["今は役職カードの配布です。"] and not any("0日目" in x for x in texts + hint)


def test_a_void_general_game_is_said_as_void():
    t = Table(["mafia", C, C, C], mode="general").night({1: 2}).next().next()
    for voter in (2, 3, 4):
        t.hand(voter, "seat:1")
    t.next().next()
    for voter in (2, 3, 4):
        t.hand(voter, "cmd:yes")
    log = t.next().run()  # the mafioso executed on day 1: decided before night 2
    assert over(log)["winner"] == "void" and said(log, "game-void", "table") and not said(log, "game-over")
    text = Phrasebook("ja", ("core", "mafia42")).render("game-void", {})
    assert "無効" in text and "勝利" not in text


# -- a team heard only by its members --------------------------------------------------------
def revived_spy() -> Table:
    """The spy (2) never makes contact, is shot on night 1, and the clergy (3) brings him back on night 2."""
    t = Table(["mafia", "spy", "clergy", C, C, C, C])
    t.night({1: 2, 2: 4, 3: 5}).day()  # the spy looks at a citizen; the mafia shoot him
    t.night({1: 6, 3: 2, 2: 5}).day()  # the clergy brings him back; seat 6 dies
    return t.night({1: 7, 2: 4})  # night 3: the mafia aim at seat 7


def test_a_helper_who_never_made_contact_does_not_join_the_mafia_by_coming_back():
    t = revived_spy()
    log = t.run()
    assert of(log, "revived", seat=2) and not of(log, "contact")
    aims = said(log, "mafia-aim")
    assert aims and {e["to"] for e in aims} == {"seat:1"}
    from .table import power

    assert power(log)["mafia"]["votes"] == 1  # the spy, a citizen now, counts for the citizens
    chat = t.console("next").console("next").console("next")  # a day later, a mafia chat at night
    assert not [e for e in said(chat.run(), "chat") if e["to"] == "seat:2"]


# -- what a spectator can tell -----------------------------------------------------------------
def test_the_live_tally_cannot_tell_who_voted_for_whom():
    def table(votes):
        t = Table(["mafia", "police", C, C, C]).night().next().next()  # the vote
        for voter, target in votes:
            t.hand(voter, f"seat:{target}")
        return t.next()

    a = table([(1, 2), (2, 1), (3, 1), (4, 2), (5, 1)])
    b = table([(1, 1), (2, 2), (3, 1), (4, 1), (5, 2)])  # the same scans, the ballots swapped round
    assert of(a.run(), "accused")[-1]["seat"] == 1
    assert public_view(a.run()) == public_view(b.run())


def test_a_spectator_cannot_tell_that_the_spy_found_a_mafioso():
    """The look and the contact are private events, some more of them when the spy
    finds a mafioso; the public view is numbered on its own (kikimimi.table.public), so
    no gap in `seq` counts them."""
    def table(target):
        return Table(["mafia", "mafia", "spy", "police", "doctor", C, C, C]).night(
            {3: target, 1: 6, 2: 6, 4: 5, 5: 4, 6: 1, 7: 1, 8: 1}).day().run()

    found, not_found = table(1), table(7)
    assert of(found, "contact") and not of(not_found, "contact") and not over(found)
    assert len(found) > len(not_found)  # the raw log holds the contact
    assert public_view(found) == public_view(not_found)


def test_a_whole_game_at_a_physical_tables_kit_gives_no_secret_act_away():
    """Every player scans their own look-alike tokens on their own hand reader:
    the job card, seat tokens at night and in the vote, YES/NO in the approval,
    HINT.  Two games with the same scans at the same moments and different
    secret acts: the speaker and the public view must be the same."""
    jobs = ["mafia", "police", "doctor", C, C, C]

    def game(night, votes, ballots):
        t = Table(jobs)
        secret: list[int] = []

        def scan(seat, tag):
            t.hand(seat, tag)
            secret.append(len(t.lines))  # the script line number of this scan

        for seat, target in night:
            scan(seat, f"seat:{target}")
        t.next().next()  # the night ends (seat 4 is shot); the morning ends
        scan(2, "cmd:hint")  # the police asks what it may know, in the discussion
        t.next().heard()  # the vote opens; its clock starts when that has been said
        for seat, target in votes:
            scan(seat, f"seat:{target}")
        t.wait(3)  # the tally is read 5 s into the vote
        t.next().next()  # the vote closes on seat 1; the defence ends
        for seat, word in ballots:
            scan(seat, f"cmd:{word}")
        return t.next().run(), secret

    a, secret = game(night=[(1, 4), (2, 1), (3, 5), (4, 2), (5, 3), (6, 1)],
                     votes=[(1, 2), (2, 1), (3, 1), (5, 2), (6, 1)],
                     ballots=[(1, "yes"), (2, "yes"), (3, "yes"), (5, "no"), (6, "no")])
    b, _ = game(night=[(1, 4), (2, 5), (3, 6), (4, 3), (5, 6), (6, 2)],  # other findings, another guard
                votes=[(1, 1), (2, 2), (3, 2), (5, 1), (6, 1)],  # the same totals, other voters
                ballots=[(1, "no"), (2, "no"), (3, "no"), (5, "yes"), (6, "yes")])
    assert a != b  # the secret acts really differed (the police's finding, who voted what)
    assert said(a, "police-mafia", "seat:2") and said(b, "police-not-mafia", "seat:2")
    assert over(a)["winner"] == "citizens" and of(a, "approval")[-1]["executed"]
    public = public_view(a)
    assert said(public, "died") and said(public, "tally-now") and said(public, "approval-result")
    assert public == public_view(b)
    assert not [e for e in a if e["in"] in secret and visible_to(e, None)]  # no public event answers a secret scan


def test_a_magician_playing_on_as_a_mafioso_has_no_part_in_the_mafias_shot():
    """He counts for the citizens: his night scan is his own, never the mafia's aim."""
    t = Table(["mafia", "mafia", "magician", C, C, C, C, C])
    t.night({1: 8, 2: 8, 3: 1}).next().next()  # the trick is set on seat 1; seat 8 is shot
    for voter in (1, 2, 4, 5, 6):
        t.hand(voter, "seat:3")
    t.next().next()
    for voter in (1, 2, 4, 5, 6, 7):
        t.hand(voter, "cmd:yes")
    t.next()  # the magician is executed: seat 1 dies in his place, he plays on as the mafia
    log = t.night({2: 4, 3: 5}).run()  # the magician scans last
    assert said(log, "magic-fired", "seat:3") and said(log, "died-by-day")[-1]["params"]["seat"] == 1
    night2 = said(log, "night-start")[-1]["t"]
    aims = [e for e in said(log, "mafia-aim") if e["t"] > night2]
    assert [(e["to"], e["params"]["seat"]) for e in aims] == [("seat:2", 4)]
    assert said(log, "died")[-1]["params"]["seat"] == 4  # the mafia's choice, not his


def test_a_job_card_put_on_the_field_is_not_named_in_public():
    def table(card):
        return Table(["mafia", "police", C, C]).night().add({"reader": "field", "tag": card}).run()

    mafia, citizen = table("mafia42:job-mafia-1"), table("mafia42:job-citizen-1")
    assert [e for e in of(mafia, "error") if "job-mafia" in e["message"]]  # the referee knows which
    assert not [e for e in public_view(mafia) if "job-" in str(e)]
    assert public_view(mafia) == public_view(citizen)
