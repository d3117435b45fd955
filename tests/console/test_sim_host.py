"""A bot game hosted behind the API: refereed and watched from consoles."""
from __future__ import annotations

import asyncio
import json
import time

import pytest

from kikimimi.api.sim_host import SimHost
from kikimimi.console.app import ConsoleApp
from kikimimi.table.daemon import InputRefused
from kikimimi.table.engine import Table
from kikimimi.contract.script import read_script, without_undone


async def _until(pilot, predicate, what, timeout=10.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await pilot.pause(0.05)


async def test_a_bot_game_can_be_refereed_and_watched(tmp_path, toy):
    host = SimHost("toy", 3, 2, journal=tmp_path / "b.jsonl")
    api = host.start()
    referee, spectator = ConsoleApp(api.socket_path), ConsoleApp(api.public_path, spectator=True)
    try:
        async with referee.run_test(size=(120, 40)) as pilot, spectator.run_test(size=(120, 40)) as p2:
            await _until(pilot, lambda: referee.snapshot and spectator.header, "the welcome")
            moves = []
            while len([m for m in moves if "field" in m]) < 2:  # bots play until two stones are down
                assert await asyncio.to_thread(host.step)
                moves.append(json.dumps(host.daemon.lines[-1][1]))
            await _until(pilot, lambda: len(referee.snapshot["game"]["played"]) == 2, "the bots' moves")
            await _until(p2, lambda: spectator.public.field == referee.snapshot["game"]["played"], "the spectator")
            whispered = [ev["text"] for ev in host.daemon.log if ev.get("to", "").startswith("seat:")]

            pilot.app.query_one("#command").value = "stop"
            await pilot.press("enter")
            await _until(pilot, lambda: referee.snapshot["over"], "the referee's stop")
            assert not await asyncio.to_thread(host.step)  # the bots stop with the game
            await _until(p2, lambda: spectator.public.over, "the spectator's game over")
            assert "GAME OVER" in spectator.table_view
            assert whispered and not any(text in line for text in whispered for line in spectator.spoken)
    finally:
        host.close()
    parsed = read_script(tmp_path / "b.jsonl")
    assert parsed.header.extra["seed"] == 3
    assert parsed.lines[-1][1]["console"] == "stop"
    # the journal is a table script: its replay ends in the state the consoles saw
    table = Table(parsed.header)
    table.start()
    for number, item in without_undone(parsed.lines):
        table.feed(number, item)
    assert table.game.over and table.game.snapshot()["played"] == referee.snapshot["game"]["played"]
    times = [item["t"] for _, item in parsed.lines]
    assert times == sorted(times) and times[0] >= 2.0  # the bots' own clock, not the wall's


@pytest.mark.parametrize("game,seed,players", [("toy", 5, 2), ("trident", 2, 3)])
def test_unrefereed_it_plays_exactly_like_kikimimi_sim(tmp_path, toy, game, seed, players):
    from kikimimi.design.sim import play

    script, log = play(game, seed, players)
    host = SimHost(game, seed, players, journal=tmp_path / "h.jsonl")
    host.start()
    while host.step():
        pass
    host.close()
    assert host.daemon.log == log
    assert [item for _, item in read_script(tmp_path / "h.jsonl").lines] == script[1:]


def test_bot_and_unbot_are_refused_in_one_line_where_every_seat_is_a_bot(tmp_path):
    host = SimHost("witch", 1, 6, journal=tmp_path / "w.jsonl")
    host.start()
    try:
        for line in ("bot 3", "UNBOT 3"):
            with pytest.raises(InputRefused, match=r"^(bot|unbot): every seat of a simulated game is a bot already$"):
                host.daemon.submit({"console": line})
        assert host.daemon.lines == []  # nothing journaled
        assert host.step() and host.daemon.lines  # the bots play on
    finally:
        host.close()
