"""A timed phase after heard that names its outputs (`set_timer_after_heard(..., on=[TABLE])`)
counts from the speaker alone: a long private line in one earphone does not move it, while
the same phase on every output waits for that line (kikimimi/contract/heard.py)."""
from __future__ import annotations

import pytest

from kikimimi.contract import heard, registry
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import TABLE, Event, Input, Play, event, say, set_timer_after_heard
from kikimimi.contract.registry import register
from kikimimi.contract.script import dumps
from kikimimi.table.engine import run_script


class Whisper(Play):
    """The speaker says a short line while seat 2 hears a long one; a 5 s phase then ends."""

    def __init__(self, players: int, options: dict | None = None):
        super().__init__(players, options)
        self.done = False

    @property
    def over(self) -> bool:
        return self.done

    def start(self, t: float) -> list[Event]:
        on = [TABLE] if self.options.get("speaker") else None
        return [say(TABLE, "pick-done", seat=1), *(say("seat:2", "pick-agree") for _ in range(3)),
                set_timer_after_heard("talk", 5, on=on)]

    def handle(self, inp: Input) -> list[Event]:
        if inp.timer == "talk":
            self.done = True
            return [event("game-over", reason="end", ranking=[])]
        return []


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    register(Declaration(name="whisper", play=Whisper, min_players=2, max_players=2, tags=frozenset({"whisper:x"})))


def _over(**options: object) -> tuple[float, list]:
    log = run_script([dumps({"game": "whisper", "players": 2, "options": options, "lang": "en"}),
                      dumps({"t": 60.0, "console": "pause"})])
    return next(e for e in log if e["type"] == "game-over")["t"], log


def test_a_phase_on_the_speaker_does_not_wait_for_an_earphone():
    alone, log = _over(speaker=True)
    every, _ = _over()
    said = [e for e in log if e["type"] == "say" and e["t"] == 0.0]
    speaker = sum(heard.modelled_seconds(e["text"]) for e in said if e["to"] == TABLE)
    earphone = sum(heard.modelled_seconds(e["text"]) for e in said if e["to"] == "seat:2")
    assert earphone > speaker
    assert alone == pytest.approx(speaker + 5) and every == pytest.approx(earphone + 5)
    [timer] = [e for e in log if e["type"] == "timer-set"]
    assert timer["heard_on"] == [TABLE]  # the log says which outputs it waited for


def test_the_model_speaks_at_the_rate_the_journal_header_keeps():
    """A table that sets its speaker's rate (`[audio] rate`) writes it into the journal's header
    (`wpm`, kikimimi/cli/serve.py speaker_rate): the modelled moment comes where that speech ends."""
    def over(wpm: int | None) -> float:
        header = {"game": "whisper", "players": 2, "options": {"speaker": True}, "lang": "en"}
        log = run_script([dumps(header if wpm is None else {**header, "wpm": wpm}), dumps({"t": 60.0, "console": "pause"})])
        said = " ".join(e["text"] for e in log if e["type"] == "say" and e["to"] == TABLE and e["t"] == 0.0)
        assert next(e for e in log if e["type"] == "game-over")["t"] == pytest.approx(
            heard.modelled_seconds(said, wpm if wpm and wpm <= heard.MAX_WPM else heard.WORDS_PER_MINUTE) + 5)
        return next(e for e in log if e["type"] == "game-over")["t"]

    assert over(600) < over(None) < over(60)
    assert over(10_000) == over(None)  # out of bounds: the default, not a nonsense clock


def test_the_speakers_rate_comes_from_the_table_file():
    from kikimimi.cli.serve import speaker_rate

    assert speaker_rate(None) is None and speaker_rate({}) is None
    assert speaker_rate({"rate": 300}) == 300
    assert speaker_rate({"rate": 300, "outputs": {"speaker": {"rate": 450}, "seat-1": {"rate": 200}}}) == 450
    assert speaker_rate({"outputs": {"seat-1": {"rate": 200}}}) is None
