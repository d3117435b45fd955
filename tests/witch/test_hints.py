"""The one HINT mechanism (`kikimimi.contract.hints`): public sight first, then the seat's own,
all in the asking seat's earphone; the speaker's situation never carries the seat's own."""
from __future__ import annotations

from kikimimi.contract import hints
from kikimimi.contract.hints import line
from kikimimi.testkit.roles_script import said
from kikimimi.contract.protocol import visible_to

from .table import DECK8, day1


class Board:
    players = 3

    def sight(self, seat: int):
        return [line("turn", seat=2), line("basket", count=5)]


class BoardWithHands(Board):
    def own(self, seat: int):
        return [line("hand", seat=seat, pieces=[seat])]


def test_hint_says_sight_then_own_into_the_asking_seat_only():
    events = hints.hint(BoardWithHands(), 3)
    assert [e.type for e in events] == ["hint", "say", "say", "say"]
    assert [e.fields["key"] for e in events[1:]] == ["turn", "basket", "hand"]
    assert {e.fields["to"] for e in events[1:]} == {"seat:3"}
    assert events[0].fields["private"] == "seat:3"


def test_a_game_without_own_gets_its_sight_only():
    assert [e.fields["key"] for e in hints.hint(Board(), 1)[1:]] == ["turn", "basket"]


def test_hidden_role_games_say_the_seats_own_only_in_its_hint():
    s = day1(DECK8)
    priest = DECK8.index("priest") + 1
    log = s.hand(priest, "cmd:hint").add({"reader": "field", "back": True}).run()
    me = f"seat:{priest}"
    assert said(log, "your-role", me) and said(log, "hint-exorcism-left", me) and said(log, "hint-no-vote", me)
    assert said(log, "hint-phase", "table"), "a reader coming back says where the table stands"
    public_keys = {e["key"] for e in log if e["type"] == "say" and visible_to(e, "spectator")}
    assert "hint-day" in public_keys
    assert not public_keys & {"your-role", "partners", "hint-exorcism-left", "hint-vote", "hint-no-vote",
                              "hint-allowance", "hint-finding", "hint-scan-now"}
