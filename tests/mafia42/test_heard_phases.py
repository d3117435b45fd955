"""Every timed phase counts from when its announcement has been heard on the speaker
(docs/rules/mafia42.md), in the modelled path (`--voice text`, the simulator, a replay
without sound): the model's lengths (kikimimi.contract.heard), never the moment it was asked."""
from __future__ import annotations

from itertools import groupby

import pytest

from kikimimi.contract import heard
from kikimimi.design.sim import play

from .table import Table, clocks, of

C = "citizen"


def _expected_moments(log: list[dict]) -> list[float]:
    """The model's moment for each phase begun: the speaker's queue played out, each phrase
    of a batch (one input or timer) queued after what it was still saying."""
    speech, out, on = heard.SpeechClock(), [], False
    for _, batch in groupby(log, key=lambda e: (e["t"], e["in"])):
        batch = list(batch)
        on = on or any(e["type"] == "timer-set" and "after_heard" in e for e in batch)
        if not on:  # the model keeps the queues from the first limit asked after heard
            continue
        speech.feed(batch)
        out += [speech.heard_at(("table",), e["t"]) for e in batch if e["type"] == "phase"]
    return out


def test_each_phase_counts_from_when_the_speaker_has_said_its_announcement():
    t = Table(["mafia", "police", C, C])
    t.hand(1, "seat:3", dt=1.0).hand(2, "seat:1")  # the police finds the mafia: a line in its earphone only
    t.add({"reader": "hand", "seat": 1, "tag": "seat:1", "removed": True}, dt=300)  # the clock runs
    log = t.run()
    begun = [e for e in of(log, "phase")]
    started = clocks(log)
    assert len(started) >= 6
    assert [c["t"] for c in started] == pytest.approx(_expected_moments(log)[:len(started)])
    for phase, clock, following in zip(begun, started, begun[1:]):
        assert clock["phase"] == phase["phase"] and clock["t"] > phase["t"] + 1  # never the moment asked
        assert following["t"] == pytest.approx(clock["t"] + clock["seconds"])  # N s after heard


@pytest.mark.parametrize("seed", [1, 5])
def test_a_simulated_game_ends_no_phase_before_its_announcement_has_been_heard(seed):
    _, log = play("mafia42", seed, 8, {})
    phases = of(log, "phase")
    assert any(e["type"] == "game-over" for e in log)
    for n, phase in enumerate(phases[:-1]):
        clock = [c for c in clocks(log) if phases[n]["seq"] < c["seq"] < phases[n + 1]["seq"]]
        ended = [e for e in log if e["type"] == "say" and e["key"] == "time-up"
                 and phase["seq"] < e["seq"] < phases[n + 1]["seq"]]
        if ended and ended[0]["in"] is None:  # ended on its limit: N s after it was heard
            assert clock and phases[n + 1]["t"] == pytest.approx(clock[0]["t"] + clock[0]["seconds"])
        elif clock:  # the referee's `next` (the event bots close a night or an approval just before its end)
            assert clock[0]["t"] < phases[n + 1]["t"] <= clock[0]["t"] + clock[0]["seconds"]


def test_seconds_left_are_the_whole_phase_until_it_is_heard_then_count_from_then():
    """HINT (and the situation a resumed table says) before the discussion's announcement has
    been heard says the whole discussion; after it, the time from the moment."""
    t = Table(["mafia", "police", C, C]).night().next()  # the discussion: 4 living x 15 s
    t.hand(3, "cmd:hint")
    t.heard().hand(3, "cmd:hint", dt=10.5)
    log = t.run()
    clock = clocks(log, "discussion")[0]
    left = [e["params"]["left"] for e in log if e["type"] == "say" and e["key"] == "hint-time"]
    assert clock["seconds"] == 60 and left == [60, 50]  # 60 - 10.5, rounded up
