"""Ear-only bots finish マフィア42 from what they hear: names, never tags; their own earphone and the speaker."""
from __future__ import annotations

import pytest

from kikimimi.bots.ear import game_figures
from kikimimi.table.engine import run_script
from kikimimi.design.sim import play
from kikimimi.testkit.ear_spy import heard_on_own_ears, spy_on_ear_bots, touched
from kikimimi_games.mafia42.ear import Reach, ear_simulation

MODES = [(8, {"mode": "classic"}), (6, {"mode": "general"}), (12, {"mode": "cult"}), (10, {"mode": "cult"})]


@pytest.mark.parametrize("players, options", MODES)
def test_ear_bots_finish_every_mode_with_no_internal_error(players, options):
    for seed in range(3):
        script, log = play("mafia42", seed, players, options, "ear")
        figures = game_figures(script, log)
        assert figures["finished"] and not figures["internal"], (seed, figures)
        assert any(e["type"] == "say" and e["key"] == "night-start" for e in log)


def test_ear_game_hears_only_names_on_its_own_ears_and_replays_identically(monkeypatch):
    calls = spy_on_ear_bots(monkeypatch, "mafia42")
    script, log = play("mafia42", 5, 8, {}, "ear")
    over = [e for e in log if e["type"] == "game-over"]
    assert over and over[0]["reason"] != "stopped"
    heard = heard_on_own_ears(calls)
    assert touched(calls) == {Reach}
    # the ears heard their jobs and the night's and the day's deaths, and acted on them
    assert {"your-role", "night-start", "vote-start"} <= {h.key for _, h in heard}
    assert run_script(script) == log  # the recorded script replays to the same log


def test_a_seat_touches_only_its_own_job_card():
    world = ear_simulation(3, 8, {}).world
    cards = {s: world.reach(s).card for s in range(1, 9)}
    assert world.tag_for(1, cards[2]) is None and world.tag_for(1, cards[1]).startswith("mafia42:job-")
    assert world.reach(None).card is None and world.tag_for(None, cards[1]) is None
    assert world.public_tag("seat:2") and world.public_tag("cmd:yes")
    assert not world.public_tag(world.tag_for(1, cards[1]))  # a card is touched, never named


@pytest.mark.parametrize("lang, text", [("en", "Seat 3 died."), ("ja", "3番が死亡しました。")])
def test_a_death_by_day_in_the_executed_seats_place_is_spoken(lang, text):
    from .table import Table, of, said

    log = Table(["mafia", "magician"] + ["citizen"] * 4, lang=lang).night({2: 3}) \
        .day({s: 2 for s in range(1, 7)}, yes=[1, 3, 4, 5, 6]).run()
    assert said(log, "executed", "table") and [e["seat"] for e in of(log, "death")] == [3]
    assert [e["text"] for e in said(log, "died-by-day", "table")] == [text]
    assert not said(log, "died-by-day", "seat:2")  # on the speaker, once, like every death
