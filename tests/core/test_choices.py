"""The runtime's interaction primitives, through the real engine: a pending choice
(kikimimi.contract.choices), HINT answered by the runtime, kit pieces as the table's tags, and
the contract tags a game does not use refused before they reach it."""
from __future__ import annotations

import json
from typing import Any

import pytest

from kikimimi.contract import choices, registry
from kikimimi.contract.declaration import Declaration
from kikimimi.table.engine import ScriptRun, log_line, public_view, run_script
from kikimimi.contract.hints import Line, line
from kikimimi.contract.kit import own_set
from kikimimi.contract.protocol import TABLE, Event, Input, Play, say
from kikimimi.contract.registry import register
from kikimimi.contract.script import Header


class Pick(Play):
    """Seat 1 picks a seat to name, seat 2 answers yes or no within 10 s, seat 3 names a gem."""

    def __init__(self, players: int, options: dict | None = None):
        super().__init__(players, options)
        self.answers: list[tuple[int, str, Any]] = []
        self.handled: list[str] = []  # the tags the game itself received

    @property
    def over(self) -> bool:
        return len(self.answers) == 3

    def start(self, t: float) -> list[Event]:
        return [choices.ask_seat(1, "target", "pick-target", among=[2, 3]),
                choices.ask_yes_no(2, "agree", "pick-agree", timeout=10),
                choices.ask_piece(3, "gem", "pick-gem", among=["pick:gem-1", "pick:gem-2"], count=2)]

    def handle(self, inp: Input) -> list[Event]:
        if inp.tag is not None and not inp.removed:
            self.handled.append(inp.tag)
        return []

    def answered(self, answer: choices.Answer) -> list[Event]:
        self.answers.append((answer.seat, answer.name, answer.value))
        return [say(TABLE, "pick-done", seat=answer.seat)]

    def sight(self, seat: int) -> list[Line]:
        return [line("pick-answered", count=len(self.answers))]

    def own(self, seat: int) -> list[Line]:
        return [line("pick-mine", seat=seat)]

    def snapshot(self) -> dict[str, Any]:
        return {"answers": list(self.answers), "handled": list(self.handled)}


def pick_kit(players: int, options: Any) -> tuple[list[str], list[str]]:
    return own_set(players, ("hint", "yes", "no")), ["pick:gem-1", "pick:gem-2", "pick:stone"]


PICK = Declaration(name="pick", play=Pick, kit=pick_kit, min_players=3, max_players=3)


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Games registered here stay here: the rest of the suite sees the registry as it was."""
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    register(PICK)
    yield


HEADER = {"game": "pick", "players": 3, "seed": 1, "lang": "en"}


def hand(t: float, seat: int, tag: str) -> dict[str, Any]:
    return {"t": t, "reader": "hand", "seat": seat, "tag": tag}


def run(*lines: dict[str, Any]) -> tuple[ScriptRun, list[list[dict[str, Any]]]]:
    r = ScriptRun(Header.parse(HEADER))
    per_line = [r.feed(n, item) for n, item in enumerate(lines, start=2)]
    return r, per_line


def spoken(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["to"], e["key"]) for e in events if e["type"] == "say"]


def test_each_question_is_asked_in_its_own_seats_earphone_and_logged_for_it_alone():
    r, _ = run()
    asks = [e for e in r.log if e["type"] == "choice"]
    assert [(e["seat"], e["private"], e["kind"]) for e in asks] == [
        (1, "seat:1", "seat"), (2, "seat:2", "yes-no"), (3, "seat:3", "piece")]
    assert spoken(r.log) == [("seat:1", "pick-target"), ("seat:2", "pick-agree"), ("seat:3", "pick-gem")]
    gem = next(e for e in r.log if e["type"] == "say" and e["key"] == "pick-gem")
    assert gem["params"] == {"count": 2}
    assert not public_view(r.log)  # nothing of a question reaches a spectator


def test_a_seat_token_answers_a_seat_choice_as_a_number():
    r, (got,) = run(hand(1.0, 1, "seat:3"))
    assert [e["type"] for e in got] == ["chosen", "say"]
    assert got[0] == {**got[0], "seat": 1, "name": "target", "value": 3, "private": "seat:1"}
    assert r.table.game.answers == [(1, "target", 3)] and r.table.game.handled == []
    settled, _ = run(hand(1.0, 1, "seat:3"), hand(2.0, 1, "seat:2"))
    assert settled.table.game.handled == ["seat:2"]  # once settled, a scan reaches the game as any scan


def test_anything_else_is_refused_in_one_line_and_the_question_asked_again():
    r, (wrong, own_seat) = run(hand(1.0, 1, "pick:stone"), hand(2.0, 1, "seat:1"))
    for got in (wrong, own_seat):
        assert spoken(got) == [("seat:1", "choice-refused"), ("seat:1", "pick-target")]
        assert [e["private"] for e in got if e["type"] == "error"] == ["seat:1"]
    assert r.table.game.answers == [] and r.table.game.handled == [] and 1 in r.table.choices


def test_yes_no_is_a_bool_and_a_piece_its_tag():
    r, _ = run(hand(1.0, 2, "cmd:no"), hand(2.0, 3, "pick:gem-2"))
    assert r.table.game.answers == [(2, "agree", False), (3, "gem", "pick:gem-2")]


def test_hint_is_the_runtimes_answer_then_the_pending_question():
    r, (got,) = run(hand(1.0, 1, "cmd:hint"))
    assert spoken(got) == [("seat:1", "pick-answered"), ("seat:1", "pick-mine"), ("seat:1", "pick-target")]
    assert [e["private"] for e in got if e["type"] == "hint"] == ["seat:1"]
    assert r.table.game.handled == [] and 1 in r.table.choices


def test_a_tag_the_kit_does_not_name_is_refused_by_the_runtime_never_given_to_the_game():
    r, (unused, beyond) = run(hand(1.0, 3, "cmd:raise"), hand(2.0, 3, "seat:4"))
    for got in (unused, beyond):
        assert spoken(got) == [("seat:3", "tag-not-in-game")]
        assert [e["private"] for e in got if e["type"] == "error"] == ["seat:3"]
    assert r.table.game.handled == []


def test_kit_pieces_are_known_tags_without_listing_them_again():
    assert PICK.tags == frozenset()
    r, (got,) = run({"t": 1.0, "reader": "field", "tag": "pick:stone"})
    assert not any(e["type"] == "error" for e in got) and r.table.game.handled == ["pick:stone"]
    assert "pick:stone" in PICK.known_tags(3) and "cmd:yes" not in PICK.known_tags(3)


def test_the_time_limit_answers_none_heard_by_the_seat():
    r, (got,) = run({"t": 12.0, "reader": "hand", "seat": 1, "tag": "seat:2"})
    timed = [e for e in got if e["in"] is None]  # the timer fired before the line was applied
    assert [(e["type"], e.get("value", e.get("key"))) for e in timed] == [
        ("chosen", None), ("say", "choice-timed-out"), ("say", "pick-done")]
    assert r.table.game.answers == [(2, "agree", None), (1, "target", 2)]


def test_an_answer_in_time_cancels_the_limit():
    r, _ = run(hand(1.0, 2, "cmd:yes"), {"t": 30.0, "reader": "hand", "seat": 1, "tag": "seat:2"})
    assert r.table.game.answers == [(2, "agree", True), (1, "target", 2)]
    assert not r.table.timers


def test_the_referee_answers_for_a_seat_with_scan():
    r, (got,) = run({"t": 1.0, "console": "scan 2 cmd:yes"})
    assert r.table.game.answers == [(2, "agree", True)]
    assert got[0]["type"] == "chosen" and got[0]["private"] == "seat:2"


def test_an_undone_answer_opens_the_question_again():
    r, _ = run(hand(1.0, 1, "seat:3"), {"t": 2.0, "console": "undo"}, hand(3.0, 1, "seat:2"))
    assert r.table.game.answers == [(1, "target", 2)]


def test_a_reader_back_reminds_its_seat_of_the_question():
    r, (_, back) = run({"t": 1.0, "reader": "hand", "seat": 1, "lost": True},
                       {"t": 2.0, "reader": "hand", "seat": 1, "back": True})
    assert ("seat:1", "pick-target") in spoken(back) and ("seat:2", "pick-agree") in spoken(back)


def test_a_replay_is_the_same_log_byte_for_byte():
    script = [HEADER, hand(1.0, 1, "cmd:hint"), hand(2.0, 1, "pick:stone"), hand(3.0, 1, "seat:2"),
              {"t": 4.0, "console": "undo"}, hand(5.0, 3, "pick:gem-1"), {"t": 20.0, "console": "scan 1 seat:3"}]
    lines = [json.dumps(x) for x in script]
    first = [log_line(e) for e in run_script(lines)]
    assert first == [log_line(e) for e in run_script(lines)]
    assert any('"value": null' in x for x in first) and any('"type": "chosen"' in x for x in first)


class Broken(Pick):
    def start(self, t: float) -> list[Event]:
        return [choices.ask_seat(1, "target", "pick-target", among=[9]),
                choices.ask_yes_no(2, "agree", "pick-agree", timeout=-1)]


def test_a_bad_question_is_one_error_line_not_a_traceback():
    register(Declaration(name="pick", play=Broken, kit=pick_kit, min_players=3, max_players=3))
    r, _ = run()
    errors = [e["message"] for e in r.log if e["type"] == "error"]
    assert len(errors) == 2 and "seat:9 is no tag of this table" in errors[0] and "time limit" in errors[1]
    assert all(e["private"] == "referee" for e in r.log if e["type"] == "error")  # a bug may name a hand's tag
    assert not r.table.choices


def test_moves_from_any_phase_are_written_once_and_drawn():
    from kikimimi.contract.phases import PhaseError, Phases

    phases = Phases("deal", (("deal", "bid", "dealt"), ("bid", "play", "bids in"), ("play", "over", "hands out")),
                    "over", from_any=(("over", "stop"),))
    assert phases.step("deal", "over") == phases.step("bid", "over") == "over"
    assert [(m.source, m.why) for m in phases.moves if m.dest == "over"] == [
        ("play", "hands out"), ("deal", "stop"), ("bid", "stop")]  # the listed row keeps its reason
    assert "deal --> over: stop" in phases.mermaid()
    with pytest.raises(PhaseError):
        phases.step("over", "deal")


class Partners(Pick):
    """Seats 1 and 3 are told, in one phrase, that they are partners."""

    def start(self, t: float) -> list[Event]:
        from kikimimi.contract.protocol import reveal

        return [reveal([3, 1], "pick-partners", seats=[1, 3])]


def test_a_reveal_is_one_event_and_one_phrase_heard_by_each_listed_seat_only():
    import io

    from kikimimi.bots.ear import heard_by
    from kikimimi.table.narrate import TextOutput
    from kikimimi.contract.phrases import Phrasebook
    from kikimimi.contract.protocol import visible_to
    from kikimimi.contract.script import dumps

    register(Declaration(name="pick", play=Partners, kit=pick_kit, min_players=3, max_players=3))
    r, _ = run()
    (told,) = r.log
    assert told["type"] == "reveal" and told["private"] == ["seat:1", "seat:3"] and told["key"] == "pick-partners"
    assert told["text"] == "pick-partners 1, 3"  # (no catalogue here: the key and its values)
    assert [visible_to(told, s) for s in (None, 1, 2, 3)] == [False, True, False, True]
    assert not public_view(r.log) and log_line(told) == dumps(told)
    book = Phrasebook("en", ("core",))
    assert [heard_by(told, s, book) is not None for s in (None, 1, 2, 3)] == [False, True, False, True]
    assert heard_by(told, 3, book).to == "seat:3"
    text = io.StringIO()
    TextOutput(text).emit(r.log)
    assert [x.split("]")[0].strip(" [") for x in text.getvalue().splitlines()] == ["seat 1 ear", "seat 3 ear"]
    seat2 = io.StringIO()
    TextOutput(seat2, listen=["seat:2", "table"]).emit(r.log)
    assert seat2.getvalue() == ""


def test_a_killed_table_resumes_with_the_question_pending_and_asks_it_again(tmp_path):
    from kikimimi.table.daemon import Daemon

    now = [0.0]
    journal = tmp_path / "pick.jsonl"
    first = Daemon(Header.parse(HEADER), journal, clock=lambda: now[0])
    first.open()
    now[0] = 1.0
    first.submit({"reader": "hand", "seat": 2, "tag": "cmd:yes"})
    first.close()  # as a kill leaves it: the journal holds the lines, nothing else
    again = Daemon(Header.parse(HEADER), journal, clock=lambda: now[0])
    again.open()
    assert sorted(again.table.choices) == [1, 3]
    said = [(e["to"], e["key"]) for e in again.resume_report()]
    assert said == [("seat:1", "pick-target"), ("seat:3", "pick-gem")]
    now[0] = 2.0
    again.submit({"reader": "hand", "seat": 1, "tag": "seat:2"})
    assert again.table.game.answers == [(2, "agree", True), (1, "target", 2)]
    again.close()


class Bid(Pick):
    """Seat 1 bids 1 or 2: YES taps one more, NO settles."""

    def start(self, t: float) -> list[Event]:
        return [choices.ask_amount(1, "bid", "pick-bid", tap="cmd:yes", confirm="cmd:no", least=1, most=2,
                                   counted="pick-count")]


def test_an_amount_counts_taps_in_the_seats_ear_within_its_bounds_and_settles_on_confirm():
    register(Declaration(name="pick", play=Bid, kit=pick_kit, min_players=3, max_players=3))
    r, (short, one, two, three, done) = run(hand(1.0, 1, "cmd:no"), hand(2.0, 1, "cmd:yes"), hand(3.0, 1, "cmd:yes"),
                                            hand(4.0, 1, "cmd:yes"), hand(5.0, 1, "cmd:no"))
    assert [e["text"] for e in short if e["type"] == "say"] == ["That is not enough yet."]
    assert [(e["to"], e["text"]) for e in one + two if e["type"] == "say"] == [
        ("seat:1", "pick-count 1"), ("seat:1", "pick-count 2")]  # the game's phrase (none here: key and count)
    assert all(e.get("private") == "seat:1" for e in one + two if e["type"] != "say")  # the count is the seat's
    assert [e["text"] for e in three if e["type"] == "say"] == ["That is the most you may give."]
    assert r.table.game.answers == [(1, "bid", 2)]
    assert done[0]["type"] == "chosen" and done[0]["value"] == 2


def test_an_undone_tap_counts_one_less():
    register(Declaration(name="pick", play=Bid, kit=pick_kit, min_players=3, max_players=3))
    r, _ = run(hand(1.0, 1, "cmd:yes"), hand(2.0, 1, "cmd:yes"), {"t": 3.0, "console": "undo"},
               hand(4.0, 1, "cmd:no"))
    assert r.table.game.answers == [(1, "bid", 1)]


def test_kikimimi_sim_and_replay_play_a_shipped_games_choices_byte_for_byte(tmp_path):
    """イントリーゲ's dispatch target is a pending choice: `kikimimi sim` plays it with its bots,
    `kikimimi replay` gives the same log byte for byte, and the public view holds none of it."""
    import subprocess
    import sys

    record = tmp_path / "game.jsonl"
    cli = [sys.executable, "-m", "kikimimi.cli"]
    sim = subprocess.run([*cli, "sim", "intrigue", "--seed", "2", "--record", str(record)],
                         capture_output=True, text=True, timeout=300)
    replay = subprocess.run([*cli, "replay", str(record)], capture_output=True, text=True, timeout=300)
    public = subprocess.run([*cli, "replay", str(record), "--public"], capture_output=True, text=True, timeout=300)
    assert sim.returncode == replay.returncode == public.returncode == 0, sim.stderr + replay.stderr
    assert sim.stdout == replay.stdout
    events = [json.loads(x) for x in replay.stdout.splitlines()]
    asked = [e for e in events if e["type"] == "choice"]
    answered = [e for e in events if e["type"] == "chosen"]
    assert len(asked) == len(answered) >= 10 and all(e["private"] == f"seat:{e['seat']}" for e in asked + answered)
    assert '"choice' not in public.stdout and '"chosen"' not in public.stdout
    assert any(e["type"] == "game-over" for e in events)  # the bots played it to its end


class Ending(Pick):
    """The game ends at seat 1's first scan, with seat 2's timed question still pending."""

    def handle(self, inp: Input) -> list[Event]:
        self.answers = [(0, "end", None)] * 3
        return [Event("game-over", {"ranking": [], "reason": "end"})]


def test_a_time_limit_after_the_game_ended_asks_nothing_of_it():
    register(Declaration(name="pick", play=Ending, kit=pick_kit, min_players=3, max_players=3))
    r, (_, late) = run({"t": 1.0, "reader": "field", "tag": "pick:stone"}, {"t": 30.0, "reader": "field",
                                                                            "tag": "pick:stone"})
    assert [e["type"] for e in late] == ["error", "say"]  # the game is over: nothing timed out into it
    assert not r.table.choices


def test_hint_answered_by_the_game_where_it_says_so():
    import dataclasses

    register(dataclasses.replace(PICK, hint="game"))
    r, (pending, free) = run(hand(1.0, 3, "cmd:hint"), hand(2.0, 1, "seat:2"))
    assert r.table.game.handled == ["cmd:hint"] and 3 in r.table.choices  # its question still waits
    assert not any(e["type"] == "hint" for e in pending)
    with pytest.raises(ValueError, match="hint must be one of runtime, game"):
        dataclasses.replace(PICK, hint="nobody")


def test_the_referees_pause_stops_a_questions_time_limit():
    r, (_, still, _, due) = run({"t": 1.0, "console": "pause"}, hand(30.0, 1, "seat:2"),
                                {"t": 31.0, "console": "resume"}, hand(40.5, 1, "cmd:hint"))
    assert not any(e["type"] == "chosen" and e["seat"] == 2 for e in still)  # 29 s paused: not 10 s of play
    assert [e["value"] for e in due if e["type"] == "chosen"] == [None]  # 1 + 9.5 s of play: its 10 s are up
    assert (2, "agree", None) in r.table.game.answers


def test_a_kit_that_needs_options_leaves_the_declared_tags():
    def fussy(players: int, options: Any) -> tuple[list[str], list[str]]:
        return own_set(0, ("hint",)), list(options["pieces"])

    decl = Declaration(name="fussy", play=Pick, kit=fussy, tags=frozenset({"pick:stone"}), min_players=3,
                       max_players=3)
    assert decl.known_tags(3) == {"pick:stone"}
