"""The console's words."""
from __future__ import annotations

from kikimimi.console.follow import reply_text


def test_an_evening_refusal_is_the_tables_not_the_games():
    reply = {"ok": True, "events": [{"type": "error", "message": "which game? type game and its name, one of "
                                     "witch, mafia42", "evening": True}]}
    assert reply_text("game", reply) == ("game: the table refused it: which game? type game and its name, "
                                         "one of witch, mafia42")
    game = {"ok": True, "events": [{"type": "error", "message": "suit: 'purple' is not one of heart"}]}
    assert reply_text("suit purple", game).startswith("suit purple: the game refused it: ")
