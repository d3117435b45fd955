"""A window for several seats (choices.ask_window) and time that starts when a question is
heard (kikimimi.contract.heard), through the real engine: first accepted answer wins, the others are
taken back, silence is the declared default with one line on the speaker, and a 10 s window
closes 10 s after its prompt has played, in the model and in the replay."""
from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.contract import choices, heard, registry
from kikimimi.contract.declaration import Declaration
from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import ScriptRun, log_line, public_view, run_script
from kikimimi.testkit.script import replay_journal
from kikimimi.contract.kit import own_set
from kikimimi.contract.protocol import TABLE, Event, Input, Play, event, say, set_timer_after_heard
from kikimimi.contract.registry import register
from kikimimi.contract.script import Header, dumps


class Claim(Play):
    """Seat 1 claims; every other seat may challenge (YES) or let it go (NO) within 10 s
    after the claim and the question have been heard."""

    def __init__(self, players: int, options: dict | None = None):
        super().__init__(players, options)
        self.answers: list[tuple[int, Any, bool]] = []

    @property
    def over(self) -> bool:
        return bool(self.answers)

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "pick-done", seat=1),
                choices.ask_window(range(2, self.players + 1), "challenge", "pick-agree", among=["cmd:yes"],
                                   decline="cmd:no", default=False, timeout=10, heard=bool(self.options.get("heard", True)))]

    def handle(self, inp: Input) -> list[Event]:
        return []

    def answered(self, answer: choices.Answer) -> list[Event]:
        self.answers.append((answer.seat, answer.value, answer.silent))
        return [say(TABLE, "pick-done", seat=answer.seat)]


CLAIM = Declaration(name="claimwin", play=Claim, kit=lambda p, o: (own_set(p, ("yes", "no")), []),
                    min_players=3, max_players=5, tags=frozenset({"claimwin:x"}))


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    register(CLAIM)
    yield


def header(**options: Any) -> dict[str, Any]:
    return {"game": "claimwin", "players": 4, "options": {"seed": 3, **options}, "lang": "en"}


def feed(*lines: dict[str, Any], **options: Any) -> ScriptRun:
    run = ScriptRun(Header.parse(header(**options)))
    for n, item in enumerate(lines, start=2):
        run.feed(n, item)
    return run


def hand(t: float, seat: int, tag: str) -> dict[str, Any]:
    return {"t": t, "reader": "hand", "seat": seat, "tag": tag}


def test_the_window_asks_every_seat_at_once_in_one_phrase_with_a_fair_order():
    run = feed()
    window = next(e for e in run.log if e["type"] == "choice-window")
    prompt = next(e for e in run.log if e["type"] == "reveal")
    assert prompt["private"] == ["seat:2", "seat:3", "seat:4"] and prompt["key"] == "pick-agree"
    assert sorted(window["order"]) == [2, 3, 4]
    orders = {tuple(next(e for e in ScriptRun(Header.parse({**header(), "options": {"seed": s}})).log
                         if e["type"] == "choice-window")["order"]) for s in range(12)}
    assert len({o[0] for o in orders}) > 1  # seeded: not always the same seat first
    assert not [e for e in public_view(run.log) if e["type"] in ("choice-window", "reveal")]


def test_the_first_accepted_answer_wins_and_the_others_are_taken_back():
    run = feed(hand(1.0, 3, "cmd:yes"), hand(2.0, 2, "cmd:yes"))
    assert run.table.game.answers == [(3, "cmd:yes", False)]  # the tag that answered
    cancel = next(e for e in run.log if e["type"] == "choice-cancel")
    assert cancel["seats"] == [2, 4] and cancel["private"] == ["seat:2", "seat:4"]
    assert not run.table.choices and not run.table.windows and not run.table.timers


def test_silence_is_the_default_with_one_line_on_the_speaker():
    run = feed({"t": 60.0, "console": "pause"})
    timed = [e for e in run.log if e["type"] == "say" and e["key"] in ("choice-window-closed", "choice-timed-out")]
    assert [(e["to"], e["key"]) for e in timed] == [(TABLE, "choice-window-closed")]
    assert run.table.game.answers == [(0, False, True)]


def test_every_seat_declining_is_silence_at_once_without_the_time_up_line():
    run = feed(hand(1.0, 2, "cmd:no"), hand(1.5, 3, "cmd:no"), hand(2.0, 4, "cmd:no"))
    assert run.table.game.answers == [(0, False, True)]
    assert not any(e.get("key") == "choice-window-closed" for e in run.log)


def test_a_ten_second_window_closes_ten_seconds_after_its_prompt_was_heard():
    run = feed({"t": 60.0, "console": "pause"})
    said = [e for e in run.log if e["type"] in ("say", "reveal") and e["t"] == 0.0]
    speaker = sum(heard.modelled_seconds(e["text"]) for e in said if e["type"] == "say" and e["to"] == TABLE)
    prompt = next(e for e in said if e["type"] == "reveal")
    heard_at = max(speaker, heard.modelled_seconds(prompt["text"]))
    mark = next(e for e in run.log if e["type"] == "heard")
    assert mark["at"] == pytest.approx(heard_at) and mark["until"] == pytest.approx(heard_at + 10)
    closed = next(e for e in run.log if e.get("key") == "choice-window-closed")
    assert closed["t"] == pytest.approx(heard_at + 10) and heard_at > 1.0  # not 10 s after asking
    asked_now = feed({"t": 60.0, "console": "pause"}, heard=False)
    assert next(e for e in asked_now.log if e.get("key") == "choice-window-closed")["t"] == 10.0


def test_a_served_model_table_journals_the_moment_and_replays_it_exactly(tmp_path):
    """`--voice text`: the daemon's clock fires the modelled `heard:` timer and journals it like
    any timer; the journal replays to the same log, and the window closes 10 s after heard."""
    now = [0.0]
    daemon = Daemon(Header.parse(header()), tmp_path / "table.jsonl", clock=lambda: now[0])
    daemon.open()
    now[0] = 0.5
    daemon.submit(hand(0.5, 2, "cmd:no"))
    while now[0] < 30:
        now[0] = round(now[0] + 0.25, 2)
        daemon.tick()
    live = list(daemon.log)
    daemon.close()
    lines = [json.loads(x) for x in (tmp_path / "table.jsonl").read_text().splitlines()[1:]]
    mark = next(e for e in live if e["type"] == "heard")
    assert {"t": mark["at"], "timer": "heard:window:challenge"} in lines
    closed = next(e for e in live if e.get("key") == "choice-window-closed")
    assert closed["t"] == pytest.approx(mark["at"] + 10)
    assert [log_line(e) for e in replay_journal(tmp_path / "table.jsonl")] == [log_line(e) for e in live]


def test_a_table_whose_outputs_report_the_moment_waits_for_its_line():
    reported = {**header(), heard.HEADER_KEY: heard.OUTPUTS}
    lines = [dumps(reported), dumps({"t": 30.0, "console": "pause"})]
    waited = run_script(lines)
    assert not any(e.get("key") == "choice-window-closed" for e in waited)  # never heard: still open
    lines = [dumps(reported), dumps({"t": 7.25, "timer": "heard:window:challenge"}), dumps({"t": 30.0, "console": "pause"})]
    got = run_script(lines)
    assert next(e for e in got if e.get("key") == "choice-window-closed")["t"] == 17.25
    held = run_script([dumps(reported), dumps({"t": 2.0, "console": "pause"}),
                       dumps({"t": 7.25, "timer": "heard:window:challenge"}), dumps({"t": 20.0, "console": "resume"}),
                       dumps({"t": 40.0, "console": "pause"})])
    assert not [e for e in held if e["type"] == "error"]  # heard while paused: its 10 s run once the clock does
    assert next(e for e in held if e.get("key") == "choice-window-closed")["t"] == 30.0
    bad = run_script([dumps(reported), dumps({"t": 1.0, "timer": "heard:window:nothing"})])
    assert [e["message"] for e in bad if e["type"] == "error"] == ["line 2: no timer 'heard:window:nothing' was due at t=1.0"]


def test_a_game_event_named_choice_window_without_its_fields_is_one_line():
    class Broken(Claim):
        def start(self, t: float) -> list[Event]:
            return [Event("choice-window", {"seats": [9], "private": ["seat:9"]})]
    register(Declaration(name="brokenwin", play=Broken, kit=lambda p, o: (own_set(p, ("yes", "no")), []),
                         min_players=3, max_players=5, tags=frozenset({"claimwin:x"})))
    log = run_script([dumps({"game": "brokenwin", "players": 3, "options": {}, "lang": "en"})])
    assert [e["message"] for e in log if e["type"] == "error"] == ["internal error: a window for no seats of this table: [9]"]


class Phase(Play):
    """A discussion of 5 s that starts when its announcement has been heard on every output."""

    def __init__(self, players: int, options: dict | None = None):
        super().__init__(players, options)
        self.ended_at: float | None = None

    @property
    def over(self) -> bool:
        return self.ended_at is not None

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "pick-done", seat=1), say("seat:2", "pick-agree"),
                set_timer_after_heard("talk", 5)]

    def handle(self, inp: Input) -> list[Event]:
        if inp.timer == "talk":
            self.ended_at = inp.t
            return [event("game-over", reason="end", ranking=[])]
        return []


def test_a_timed_phase_after_heard_starts_when_every_output_is_quiet():
    register(Declaration(name="phasewin", play=Phase, min_players=2, max_players=2, tags=frozenset({"claimwin:x"})))
    log = run_script([dumps({"game": "phasewin", "players": 2, "options": {}, "lang": "en"}), dumps({"t": 30.0, "console": "pause"})])
    said = [e for e in log if e["type"] == "say" and e["t"] == 0.0]
    quiet = max(heard.modelled_seconds(e["text"]) for e in said)
    over = next(e for e in log if e["type"] == "game-over")
    assert over["t"] == pytest.approx(quiet + 5) and quiet > 0.5


def test_a_resumed_table_counts_from_the_reminder_it_says(tmp_path):
    """Killed after the window was asked but before its prompt was heard: the resume asks again,
    and the window's 10 s start when that reminder has played."""
    now = [0.0]
    head = Header.parse({**header(), heard.HEADER_KEY: heard.OUTPUTS})
    first = Daemon(head, tmp_path / "t.jsonl", clock=lambda: now[0])
    first.open()
    first.announce(list(first.log))
    assert "window:challenge" in first.heard_due and "window:challenge" in first.table.heard_wait
    first.close()  # before any tick: nothing heard yet
    now[0] = 50.0  # served again later: the table's clock goes on from the journal's last time
    again = Daemon(head, tmp_path / "t.jsonl", clock=lambda: now[0])
    again.open()
    due = again.heard_due["window:challenge"]
    assert due == pytest.approx(again.now() + max(heard.modelled_seconds(e["text"]) for e in again.resume_report()))
    now[0] = 50.0 + due - 0.1
    again.tick()
    assert "window:challenge" in again.table.heard_wait  # not yet heard
    now[0] = 50.0 + due + 0.1
    again.tick()
    assert "window:challenge" in again.table.timers and not again.table.heard_wait
    again.close()


def test_kikimimi_check_names_a_reserved_event_type_with_its_fix():
    from kikimimi.design.contract_check import check

    class Reveals(Claim):
        def answered(self, answer: choices.Answer) -> list[Event]:
            self.answers.append((answer.seat, answer.value, answer.silent))
            return [Event("reveal", {"seat": answer.seat})]

    register(Declaration(name="reveals", play=Reveals, kit=lambda p, o: (own_set(p, ("yes", "no")), []),
                         min_players=3, max_players=3, tags=frozenset({"claimwin:x"})))
    from kikimimi.design import contract_check

    run = ScriptRun(Header.parse({"game": "reveals", "players": 3, "options": {}, "lang": "en"}))
    got = run.feed(2, hand(1.0, 2, "cmd:yes"))
    assert [e["message"] for e in got if e["type"] == "error"][0].startswith(
        "internal error: a game event named 'reveal' is the runtime's")
    checker = contract_check.Checker(contract_check.declaration("reveals"))
    checker._games[(4, None)] = ([header(), hand(1.0, 2, "cmd:yes")], run.log)  # the seeded game, played above
    checker.part = "replay"
    contract_check.check_replay(checker)
    assert any("reserved" in f.fix and "is the runtime's" in f.problem for f in checker.failures)
