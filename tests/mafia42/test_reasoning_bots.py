"""The reasoning bots of マフィア42: they know only what their seat may know,
their games replay from the seed, and their talk is a bounded, public board."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from kikimimi.contract import parts as declared
from kikimimi.table.engine import run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.roles.claims import ClaimError, co, found, parse, vote
from kikimimi.design.sim import play
from kikimimi_games.mafia42 import bots as bots_module
from kikimimi_games.mafia42.bots import Mafia42Simulation
from kikimimi_games.mafia42.suspicion import Facts, Posterior, weigh, Odds
from kikimimi_games.mafia42.talk import Board, vocabulary

DECK = ["mafia", "mafia", "police", "doctor", "citizen", "citizen", "citizen", "citizen"]


def _game(seed: int, deal: Sequence[str] | None, monkeypatch: pytest.MonkeyPatch,
          seat_class: type | None = None, options: Mapping[str, Any] | None = None,
          ) -> tuple[list[dict], list[dict], Mafia42Simulation]:
    """One bot game through the real engine; `deal` fixes which card each seat scans
    (the header's deck, and so everything public about it, stays the same)."""
    made: list[Mafia42Simulation] = []
    real = declared.simulation

    def rigged(cls: Any, seed: int, players: int, options: Mapping[str, Any], bot: str | None = None) -> Any:
        table = real(cls, seed, players, options, bot)
        if deal is not None:
            seen: dict[str, int] = {}
            for line, job in zip(table.queue, deal):
                seen[job] = seen.get(job, 0) + 1
                line["tag"] = f"mafia42:job-{job}-{seen[job]}"
        if seat_class is not None:
            table.bots = {s: seat_class(s, players, b.rng, table.reasoning) for s, b in table.bots.items()}
        made.append(table)
        return table

    monkeypatch.setattr(declared, "simulation", rigged)
    opts = dict(options or {"jobs": DECK})
    script, log = play("mafia42", seed, len(opts["jobs"]), opts)
    monkeypatch.setattr(declared, "simulation", real)
    return script, log, made[0]


def _public(log: list[dict]) -> list[tuple]:
    return [(e["t"], e["type"], sorted((k, str(v)) for k, v in e.items() if k not in ("seq", "in", "t")))
            for e in log if visible_to(e, None)]


def _talk(sim: Mafia42Simulation) -> list[tuple]:
    return [(line["t"], line["seat"], line["text"]) for line in sim.talk.lines]


def _first_difference(a: list[tuple], b: list[tuple]) -> float:
    """The time of the first entry (each starts with its time) that differs between a and b."""
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return min(a[first][0] if first < len(a) else float("inf"), b[first][0] if first < len(b) else float("inf"))


def _decisions(seat: int, script: list[dict], sim: Mafia42Simulation, until: float) -> list[tuple]:
    """What a seat did before `until`: its scans and what it said, in order."""
    scans = [("scan", line["tag"]) for line in script[1:]
             if line.get("seat") == seat and "tag" in line and not line.get("removed") and line["t"] < until
             and not line["tag"].startswith("mafia42:job")]
    said = [("talk", line["text"]) for line in sim.talk.lines if line["seat"] == seat and line["t"] < until]
    return scans + said


def _compare(seed: int, a: Sequence[str], b: Sequence[str], watched: Sequence[int],
             monkeypatch: pytest.MonkeyPatch, seat_class: type | None = None) -> tuple[int, list[int]]:
    """Play both deals; return how many decisions of the watched seats were compared before the
    first public difference, and the seats whose decisions differed before it."""
    sa, la, ma = _game(seed, a, monkeypatch, seat_class)
    sb, lb, mb = _game(seed, b, monkeypatch, seat_class)
    until = min(_first_difference(_public(la), _public(lb)),
                _first_difference(_talk(ma), _talk(mb)))  # what others said is public too
    compared, differ = 0, []
    for seat in watched:
        da, db = _decisions(seat, sa, ma, until), _decisions(seat, sb, mb, until)
        compared += min(len(da), len(db))
        if da != db:
            differ.append(seat)
    return compared, differ


#: Deals differing only in the cards of seats 1 and 2: a mafioso's card against a citizen's, and
#: the doctor's against a citizen's (the second swap also moves no team: only a job).
SWAPS = [
    (["mafia", "citizen", "police", "doctor", "citizen", "citizen", "mafia", "citizen"],
     ["citizen", "mafia", "police", "doctor", "citizen", "citizen", "mafia", "citizen"]),
    (["doctor", "citizen", "police", "mafia", "citizen", "citizen", "mafia", "citizen"],
     ["citizen", "doctor", "police", "mafia", "citizen", "citizen", "mafia", "citizen"]),
]


def test_a_seat_decides_alike_when_only_another_seats_secret_differs(monkeypatch):
    total = 0
    for seed in range(1, 7):
        for a, b in SWAPS:
            watched = [s for s in range(3, 9) if a[s - 1] != "mafia"]  # the mafia know each other's seats
            compared, differ = _compare(seed, a, b, watched, monkeypatch)
            assert differ == [], (seed, a, b)
            total += compared
    assert total >= 80  # night scans, claims, votes and approvals really were compared


def _leaky_deliver(events: Any, bots: Mapping[int, Any], method: str = "see") -> Any:
    """`deliver` that shows every event to every bot, and tells each the mafia's seats."""
    for ev in events:
        for bot in bots.values():
            getattr(bot, method)(ev)
            if ev.get("type") == "job" and ev.get("job") == "mafia" and ev.get("seat") != bot.seat:
                bot.mafia.add(int(ev["seat"]))
        if visible_to(ev, None):
            yield ev


def _seen_by(seat: int, log: list[dict], script: list[dict]) -> list[tuple]:
    """What a seat may know, in order; the answer to its own scan counts just after the scan
    (the scan was decided before it)."""
    def when(e: dict) -> float:
        line = e.get("in")
        own = isinstance(line, int) and 0 < line <= len(script) and script[line - 1].get("seat") == seat
        return e["t"] + (1e-6 if own else 0.0)
    return [(when(e), e["type"], sorted((k, str(v)) for k, v in e.items() if k not in ("seq", "in", "t")))
            for e in log if visible_to(e, seat)]


def _compare_seats(seed: int, a: Sequence[str], b: Sequence[str], options: Mapping[str, Any],
                   monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[int]]:
    """Like `_compare`, for every seat whose card is the same in both deals, each cut at the
    first moment anything it may know differs: the events it may see (its earphone's too:
    a convert hears its leader, the mafia hear their helper) or anyone's talk."""
    sa, la, ma = _game(seed, a, monkeypatch, options=options)
    sb, lb, mb = _game(seed, b, monkeypatch, options=options)
    talk = _first_difference(_talk(ma), _talk(mb))
    compared, differ = 0, []
    for seat in (s for s in range(1, len(a) + 1) if a[s - 1] == b[s - 1]):
        until = min(talk, _first_difference(_seen_by(seat, la, sa), _seen_by(seat, lb, sb)))
        da, db = _decisions(seat, sa, ma, until), _decisions(seat, sb, mb, until)
        compared += min(len(da), len(db))
        if da != db:
            differ.append(seat)
    return compared, differ


#: Cult mode at 10 seats: deals differing only in seats 1 and 2, the cult leader's card against a
#: citizen's, and a helper's (the spy, the madam) against a citizen's.
CULT_DECK = ["mafia", "mafia", "spy", "police", "doctor", "cult-leader", "judge", "citizen", "citizen", "citizen"]
CULT_SWAPS = [
    (["cult-leader", "citizen", "police", "mafia", "doctor", "spy", "judge", "mafia", "citizen", "citizen"],
     ["citizen", "cult-leader", "police", "mafia", "doctor", "spy", "judge", "mafia", "citizen", "citizen"]),
    (["spy", "citizen", "police", "mafia", "doctor", "cult-leader", "judge", "mafia", "citizen", "citizen"],
     ["citizen", "spy", "police", "mafia", "doctor", "cult-leader", "judge", "mafia", "citizen", "citizen"]),
    (["madam", "citizen", "police", "mafia", "doctor", "cult-leader", "judge", "mafia", "citizen", "citizen"],
     ["citizen", "madam", "police", "mafia", "doctor", "cult-leader", "judge", "mafia", "citizen", "citizen"]),
]


def test_the_cult_and_the_helpers_decide_only_from_what_their_seat_may_know(monkeypatch):
    total = 0
    for seed in range(1, 4):
        for a, b in CULT_SWAPS:
            deck = CULT_DECK if "madam" not in a else [j if j != "spy" else "madam" for j in CULT_DECK]
            compared, differ = _compare_seats(seed, a, b, {"mode": "cult", "jobs": deck}, monkeypatch)
            assert differ == [], (seed, a, b)
            total += compared
    assert total >= 100  # night scans, claims, votes and approvals really were compared


def _peeks_at_the_cult(events: Any, bots: Mapping[int, Any], method: str = "see") -> Any:
    """`deliver` that also tells every bot where the cult leader sits (as a seat to vote out)."""
    for ev in events:
        for seat, bot in bots.items():
            if visible_to(ev, seat):
                getattr(bot, method)(ev)
            if ev.get("type") == "job" and ev.get("job") == "cult-leader" and ev.get("seat") != seat:
                bot.mafia.add(int(ev["seat"]))
        if visible_to(ev, None):
            yield ev


def test_the_per_seat_cut_catches_a_bot_that_peeks_at_the_cult(monkeypatch):
    monkeypatch.setattr(bots_module, "deliver", _peeks_at_the_cult)
    caught = []
    for seed in (1, 2):
        a, b = CULT_SWAPS[0]
        caught += _compare_seats(seed, a, b, {"mode": "cult", "jobs": CULT_DECK}, monkeypatch)[1]
    assert caught


def test_a_converted_seat_and_a_helper_play_their_new_side(monkeypatch):
    """The cult leader converts and its converts then shield it; a helper in contact votes with
    the mafia (their talk and acts read back from a seeded game)."""
    seen_convert = seen_contact = False
    for seed in range(1, 9):
        script, log, sim = _game(seed, None, monkeypatch, options={"mode": "cult", "jobs": CULT_DECK})
        converted = [e["seat"] for e in log if e["type"] == "converted"]
        contact = [e["seat"] for e in log if e["type"] == "contact"]
        for seat in converted:
            bot = sim.bots[seat]
            assert bot.side == "cult" and bot.mates  # it knows its leader
            leader = next(iter(bot.mates))
            if leader not in bot.dead:
                assert not bot.approve(leader)
            seen_convert = True
        for seat in contact:
            bot = sim.bots[seat]
            assert bot.side == "mafia" and bot.mafioso
            seen_contact = True
    assert seen_convert and seen_contact


def test_the_knowledge_test_catches_a_bot_that_peeks(monkeypatch):
    monkeypatch.setattr(bots_module, "deliver", _leaky_deliver)
    caught = []
    for seed in (1, 2, 3):
        a, b = SWAPS[0]
        watched = [s for s in range(3, 9) if a[s - 1] != "mafia"]
        caught += _compare(seed, a, b, watched, monkeypatch)[1]
    assert caught


def test_a_seed_replays_the_same_game_and_the_same_talk(monkeypatch):
    first = _game(5, None, monkeypatch)
    again = _game(5, None, monkeypatch)
    assert first[0] == again[0] and first[1] == again[1]
    assert first[2].talk.lines == again[2].talk.lines and first[2].talk.lines
    assert first[0][0]["talk"] == first[2].transcript()  # the recording keeps the talk, in its header
    assert run_script(first[0]) == first[1]  # which the replay reads past


def test_a_cult_game_replays_from_its_seed(monkeypatch):
    """The cult's and the helpers' choices draw on their seats' own generators: the same seed
    plays the same cult-mode game and talk, and its recording replays to the same log."""
    options = {"mode": "cult", "jobs": CULT_DECK}
    first = _game(3, None, monkeypatch, options=options)
    again = _game(3, None, monkeypatch, options=options)
    assert first[0] == again[0] and first[1] == again[1] and first[2].talk.lines == again[2].talk.lines
    assert any(e["type"] == "converted" for e in first[1])  # the cult really played
    assert run_script(first[0]) == first[1]


def test_the_talk_goes_on_the_claim_channel_and_reads_back():
    board = Board()
    said = [co("police"), found("police", 5, "mafia"), found("police", 2, "not-mafia")]
    board.say(3, 1, said, 10.0)
    board.say(4, 1, [vote(5)], 10.0)
    assert board.roles() == {3: "police"} and board.findings() == {3: [(5, True), (2, False)]}
    assert board.intentions(1) == [(4, 5)] and board.intentions(before=1) == [] and board.said == 3
    assert [line["text"] for line in board.lines] == ["CO police; FOUND police 5 mafia; FOUND police 2 not-mafia",
                                                      "VOTE 5"]
    for line in board.lines:  # what the transcript keeps reads back through the channel's parser
        assert parse(str(line["text"]), vocabulary(8))
    for bad in ("CO mafia", "FOUND police 9 mafia", "VOTE 0", "VOTE 5" + " " * 400):
        with pytest.raises(ClaimError):
            parse(bad, vocabulary(8))


def test_the_worlds_follow_the_claims_and_the_deaths():
    board = Board()
    facts = Facts(players=6, mafia=1, helpers=0, police=True, mercenary=False, talk=board)
    even = Posterior(weigh(facts, Odds()), 6)
    assert even.mafia[1] == pytest.approx(1 / 6)
    board.say(2, 1, [co("police"), found("police", 4, "mafia")], 1.0)
    facts.day = 2
    post = Posterior(weigh(facts, Odds()), 6)
    assert post.mafia[4] > 0.5 and post.most_suspect(range(1, 7))[0] == 4
    # the seat named knows it is no mafioso: for it the claimant lies, so is the mafioso
    named = Posterior(weigh(facts, Odds()), 6, clear={4})
    assert named.mafia[4] == 0.0 and named.mafia[2] == pytest.approx(1.0)
    facts.see({"type": "death", "seat": 2, "when": "night"})  # the claimant was shot: not the mafioso
    shot = Posterior(weigh(facts, Odds()), 6)
    assert shot.mafia[2] == 0.0 and shot.mafia[4] == pytest.approx(1.0) and post.mafia[4] < 0.99


def test_today_s_bots_stay_selectable_and_the_reasoning_ones_are_the_default():
    script, log = play("mafia42", 2, 8, {}, "plain")
    assert any(e["type"] == "game-over" for e in log)
    with pytest.raises(ValueError):
        play("mafia42", 2, 8, {}, "nobody")
    assert Mafia42Simulation(1, 8, {}).kind == "reason"
