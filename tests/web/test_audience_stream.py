"""The audience's page and stream never carry a private event: whole bot games of all five games.

Each game is played to its end by bots behind the real API, with the web
console on; an audience stream (plain HTTP, as a phone on the club's Wi-Fi
would read it) records every byte.  What it says must be exactly the public
view of the game (`kikimimi.table.public`, line by line), and no text that was
said only privately (an earphone's line, a reveal) may appear in its bytes.
"""
from __future__ import annotations

import pytest

from kikimimi.console.render import event_line
from kikimimi.contract.protocol import visible_to
from kikimimi.table.public import public_view
from kikimimi.contract.registry import declaration

GAMES = ["trident", "onisagashi", "witch", "mafia42", "intrigue"]


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_bot_game_reaches_the_audience_without_a_private_event(serve_table, game):
    served = serve_table(game, 3, declaration(game).default_players)
    if True:  # the fixture closes the table and the web console
        audience = served.client(served.audience_port)
        audience.tls = False
        page = audience.get("/")
        assert page.status == 200
        stream = audience.events("/api/audience/events")
        assert stream.status == 200
        messages = stream.until(lambda m: m.get("welcome"))
        while served.host.step():
            pass
        log = list(served.host.daemon.log)
        assert served.host.daemon.table.game.over
        public = [text for text in map(event_line, public_view(log)) if text is not None]
        heard: list[str] = []

        def caught_up(message):
            heard.extend(e["text"] for e in message.get("events", []))
            return len(heard) >= len(public)

        for message in messages:
            caught_up(message)
        if len(heard) < len(public):
            stream.until(caught_up)
        stream.close()
    assert heard == public  # every public line, in order, and nothing else
    # whispered and never said aloud later (a Trident piece drawn is named again when played)
    said_publicly = "\n".join(public)
    private = {ev["text"] for ev in log if not visible_to(ev, None) and isinstance(ev.get("text"), str)
               and len(ev["text"]) >= 4 and ev["text"] not in said_publicly}
    assert private, "a hidden-role game whispers something: else this test checks nothing"
    raw = bytes(stream.raw).decode()
    leaked = sorted(text for text in private if text in raw)
    assert leaked == []
    # what the audience's stream never names: a seat's earphone
    assert '"to": "seat:' not in raw and "ear]" not in raw
