"""The next game with other options, through the web console's API: the form's schema of the
evening's games, `game NAME key=value ...` started with them (journaled in its header), and a
bad value refused in one line with nothing changed."""
from __future__ import annotations

from kikimimi.contract.script import read_script


def test_the_form_schema_then_a_bad_value_refused_and_the_next_game_started_with_the_options(evening_table):
    served = evening_table
    referee = served.paired("referee")
    assert served.client().get("/api/referee/games").status == 401  # unpaired: refused
    while served.host.step():
        pass
    stream = referee.events("/api/referee/events")
    stream.until(lambda m: m.get("over") is True)
    games = {g["name"]: g for g in referee.get("/api/referee/games").json()["games"]}
    assert list(games) == ["trident", "onisagashi"]
    oni = {o["name"]: o for o in games["onisagashi"]["options"]}
    assert (games["onisagashi"]["players"], games["onisagashi"]["min_players"]) == (4, 3)
    assert oni["rules"]["choices"] == ["beginner", "advanced"] and oni["rules"]["default"] == "beginner"
    assert (oni["rounds"]["kind"], oni["rounds"]["low"], oni["raise_window"]["value"]) == ("whole", 1, 2.0)

    bad = referee.command("game onisagashi rounds=0")
    text = bad.json()["text"]
    assert "rounds must be a whole number of at least 1, not 0" in text and "\n" not in text, text
    assert served.host.daemon.header.game == "trident"  # refused: nothing changed

    good = referee.command("game onisagashi players=3 rounds=1 rules=advanced")
    assert good.status == 200 and good.json()["ok"], good.body
    want = {"raise_window": 2.0, "rounds": 1, "rules": "advanced"}
    assert read_script(served.journal).header.options == want  # the journal's header, on disk
    pushed = stream.until(lambda m: (m.get("game_line") or {}).get("game") == "onisagashi")
    assert pushed[-1]["game_line"] == {"game": "onisagashi", "players": 3, "options": want}
    stream.close()
