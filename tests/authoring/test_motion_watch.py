"""`kikimimi check GAME watch`, the watcher for any game.  It passes on the five
games (tests/test_every_game.py runs the part on each); here it catches a deliberately leaky
copy of マフィア42 in which a secret act changes who scans: a mafioso's ballot is answered, in
its own earphone, "Vote for a living player." (whatever it named), so the mafia are the seats
seen scanning again in the vote."""
from __future__ import annotations

import dataclasses

import pytest

from kikimimi.contract import registry
from kikimimi.design.contract_check import check
from kikimimi.contract.protocol import Event, Input, say, seat_audience
from kikimimi.design.motion_watch import private_facts
from kikimimi_games.mafia42.game import Mafia42Game


class LeakyMafia(Mafia42Game):
    def handle(self, inp: Input) -> list[Event]:
        out = super().handle(inp)
        seat = inp.seat
        if (inp.reader == "hand" and seat is not None and self.phase == "vote" and inp.placed
                and str(inp.tag).startswith("seat:") and self.roster[seat].team == "mafia"):
            out.append(say(seat_audience(seat), "target-dead"))
        return out


@pytest.fixture
def own_registry(monkeypatch):
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    registry.game_names.cache_clear()
    yield
    monkeypatch.undo()
    registry.game_names.cache_clear()


def test_the_watcher_catches_a_secret_act_that_changes_who_scans(own_registry):
    registry.register(dataclasses.replace(registry.declaration("mafia42"), play=LeakyMafia))
    [failure] = check("mafia42", ["watch"])
    assert failure.part == "watch" and "from the motions" in failure.problem, failure.line()
    assert "team=team:mafia" in failure.problem or "mafia" in failure.problem, failure.line()


def test_a_seats_own_scan_acknowledged_is_no_fact_and_a_hint_neither():
    script = [{"game": "x", "players": 2},
              {"t": 1, "reader": "hand", "seat": 1, "tag": "seat:2"},
              {"t": 2, "reader": "hand", "seat": 2, "tag": "cmd:hint"},
              {"t": 3, "console": "next"}]
    log = [{"type": "say", "to": "seat:1", "key": "voted", "params": {}, "in": 2},
           {"type": "say", "to": "seat:1", "key": "your-role", "params": {"role": "witch"}, "in": 2},
           {"type": "say", "to": "seat:2", "key": "hint-phase", "params": {"phase": "day"}, "in": 3},
           {"type": "say", "to": "seat:2", "key": "threatened", "params": {}, "in": 4},
           {"type": "job", "seat": 2, "job": "police", "private": "seat:2", "in": 4}]
    assert private_facts(script, log, 2) == {1: {"say:your-role": "role=witch"},
                                             2: {"say:threatened": "yes", "job": "job=police"}}
