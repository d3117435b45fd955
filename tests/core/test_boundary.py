"""The author's boundary's small things: a game event named like one the
runtime reads is refused in one line (it was a raw `KeyError: 'private'`); AGREE is in every
kit; `answered` is declared on `Play`; the typing help shows the game's own command tags, the
seat-token syntax and only pieces of its deck."""
from __future__ import annotations

from typing import Any

import pytest

from kikimimi.contract import choices, registry
from kikimimi.contract.declaration import Declaration
from kikimimi.table.engine import ScriptRun, Table
from kikimimi.contract.kit import kit_for, own_set
from kikimimi.contract.protocol import RESERVED_EVENTS, TABLE, Event, Input, Play, event, say
from kikimimi.contract.registry import register
from kikimimi.contract.script import Header
from kikimimi.table.sim_readers import table_help


class Named(Play):
    """Returns, on any scan, an event of its own named as the header's option says."""

    @property
    def over(self) -> bool:
        return False

    def start(self, t: float) -> list[Event]:
        return [say(TABLE, "pick-done", seat=1)]

    def handle(self, inp: Input) -> list[Event]:
        return [event(str(self.options["type"]), seat=inp.seat, card="named:card-1")]


def named_kit(players: int, options: Any) -> tuple[list[str], list[str]]:
    return own_set(players, ("hint",)), ["named:card-1", "named:card-2"]


NAMED = Declaration(name="named", play=Named, kit=named_kit, min_players=2, max_players=3,
                    tags=frozenset({"named:card-1", "named:card-2", "named:card-3"}))


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    register(NAMED)
    yield


@pytest.mark.parametrize("type_", RESERVED_EVENTS)
def test_a_game_event_named_like_the_runtimes_is_refused_in_one_line(type_):
    run = ScriptRun(Header.parse({"game": "named", "players": 2, "options": {"type": type_}, "lang": "en"}))
    got = run.feed(2, {"t": 1.0, "reader": "hand", "seat": 1, "tag": "named:card-1"})
    errors = [e for e in got if e["type"] == "error"]
    assert len(errors) == 1 and "\n" not in errors[0]["message"] or type_ == "choice", got
    if type_ != "choice":  # a question of its own is refused by the choices' own one line
        assert f"a game event named {type_!r} is the runtime's" in errors[0]["message"]
    assert errors[0]["private"] == "referee"
    again = run.feed(3, {"t": 2.0, "reader": "hand", "seat": 2, "tag": "named:card-2"})  # the table goes on
    assert [e["type"] for e in again if e["type"] == "error"] == ["error"]


def test_a_game_event_of_its_own_name_still_logs_as_it_is():
    run = ScriptRun(Header.parse({"game": "named", "players": 2, "options": {"type": "claim"}, "lang": "en"}))
    got = run.feed(2, {"t": 1.0, "reader": "hand", "seat": 1, "tag": "named:card-1"})
    assert [e["type"] for e in got] == ["claim"]


def test_agree_is_in_every_kit_by_the_runtime():
    for game in ("named", "trident", "intrigue", "mafia42", "witch", "onisagashi"):
        kit = kit_for(game, 4 if game != "named" else 2)
        assert "cmd:agree" in kit.own, game


def test_answered_is_declared_on_play_and_a_question_without_it_is_refused():
    assert "answered" in Play.__dict__

    class Asks(Named):
        def start(self, t: float) -> list[Event]:
            return [choices.ask_yes_no(1, "ok", "pick-agree")]

    decl = Declaration(name="asks", play=Asks, kit=lambda p, o: (own_set(p, ("yes", "no")), []),
                       min_players=2, max_players=2, tags=frozenset({"named:card-1"}))
    register(decl)
    run = ScriptRun(Header.parse({"game": "asks", "players": 2, "options": {}, "lang": "en"}))
    assert any(e["type"] == "error" and "has no answered" in e["message"] for e in run.log)


def test_the_typing_help_names_the_games_own_tags_the_seat_syntax_and_only_its_deck():
    text = table_help(Table(Header("named", 2, {"type": "x"})))
    assert "Command tags: hint\n" in text and "agree" not in text.split("Command tags:")[1].split("\n")[0]
    assert "card-1" in text and "card-3" not in text  # card-3 is a tag of the game, not of its deck
    assert "seat:N" in text and "'2 seat:3'" not in text or "seat:N (N 1-2)" in text
