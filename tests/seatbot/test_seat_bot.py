"""A bot in an empty seat at a live table: plays, replays, resumes, keeps its secrets."""
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kikimimi.bots import empty_seats as seat_bot_driver, referee_bots as seat_bots
from kikimimi.api.client import ApiClient
from kikimimi.api.server import start_api
from kikimimi.table.daemon import Daemon
from kikimimi.bots.ear import Heard
from kikimimi.table.engine import ScriptRun, log_line
from kikimimi.table.public import public_view
from kikimimi.contract.script import Header, read_script
from kikimimi.bots.empty_seats import DELAY, NOTE
from kikimimi.testkit.script import replay_journal

from .live import LiveTable

MAFIA = ("mafia42", 6, {})
WITCH = ("witch", 6, {})
GAMES = {"witch": WITCH, "mafia42": MAFIA}
#: Seeds whose games last a few nights (six acts of the bot or more).
SEEDS = {"witch": 5, "mafia42": 8}  # seeds where the bot's seat lives long enough to act more than twice (マフィア42: 7 until the vote pace of docs/mafia42.md, which has seat 3 executed on day 1)


@pytest.fixture
def fixed_seed(monkeypatch):
    """The bot line's seed, the same each run (the daemon draws a fresh one at a table)."""
    monkeypatch.setattr("kikimimi.table.daemon.secrets.randbelow", lambda n: 424242)


async def _played(folder: Path, game: str, **kw: Any) -> LiveTable:
    name, players, options = GAMES[game]
    table = LiveTable(folder, name, players, options, SEEDS[game], referee_next=(game == "witch"), **kw)
    await table.open()
    if table.bot_seat is not None:
        answer = await table.command(f"bot {table.bot_seat}")
        assert answer["ok"] and [e["type"] for e in answer["events"]] == [seat_bots.EVENT]
    await table.play()
    return table


def _bot_acts(journal: Path, seat: int = 3) -> list[dict[str, Any]]:
    return [item for _, item in read_script(journal).lines if isinstance(item, dict) and item.get("bot") == seat]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_bot_plays_seat_3_to_game_over_and_the_journal_replays_without_it(
        game, tmp_path, fixed_seed, monkeypatch):
    calls: list[tuple[int | None, Heard]] = []
    route = seat_bot_driver.heard_by

    def heard_by(ev: Any, seat: int | None, book: Any) -> Heard | None:  # every line routed to a bot
        heard = route(ev, seat, book)
        if heard is not None:
            calls.append((seat, heard))
        return heard

    monkeypatch.setattr(seat_bot_driver, "heard_by", heard_by)
    table = await _played(tmp_path, game)
    d = table.daemon
    assert d is not None
    over = [e for e in d.log if e["type"] == "game-over"]
    assert len(over) == 1 and over[0]["reason"] != "stopped"
    acts = _bot_acts(table.journal)
    assert len(acts) >= 3, acts
    assert all(seat_bots.is_command_line(a) is False and a["console"].split()[0] in ("scan", "speak")
               for a in acts)
    assert not [e for e in d.log if e["type"] == "error" and "internal" in e["message"]]
    # never at once: each act comes at least the least delay after the phase it acts in began
    numbers = {n for n, item in d.lines if isinstance(item, dict) and item.get("bot") == 3}
    began, waits = 0.0, []
    for ev in d.log:
        if ev["in"] in numbers:
            waits.append(ev["t"] - began)
            numbers.discard(ev["in"])
        if ev["type"] == "phase":
            began = ev["t"]
    assert len(waits) == len(acts) and min(waits) >= DELAY[0], waits
    # the bot heard only its own earphone and the speaker, and did hear its secret
    assert {seat for seat, _ in calls} == {3}
    assert {h.to for _, h in calls} == {"table", "seat:3"}
    live = list(d.log)
    await table.close()
    # the journal replays to the same events with no bot running: no bot code is asked
    calls.clear()
    assert replay_journal(table.journal) == live
    assert not calls
    if game == "mafia42":  # and `kikimimi replay` itself prints that log
        out = subprocess.run([sys.executable, "-m", "kikimimi.cli", "replay", str(table.journal)],
                             capture_output=True, text=True, check=True).stdout
        assert out.splitlines() == [log_line(ev) for ev in live]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_public_view_and_speaker_are_those_of_a_table_where_a_person_made_the_same_scans(
        game, tmp_path, fixed_seed):
    table = await _played(tmp_path, game)
    assert table.daemon is not None
    live = list(table.daemon.log)
    await table.close()
    parsed = read_script(table.journal)
    control = ScriptRun(parsed.header)
    number = 1
    for _, item in parsed.lines:
        assert isinstance(item, dict)
        if seat_bots.is_command_line(item):
            continue  # no bot at the control table
        line = {k: v for k, v in item.items() if k != "bot"}
        words = str(line.get("console", "")).split()
        if item.get("bot") == 3 and words[0] == "scan":  # the same scan, by a person at seat 3
            line = {"t": item["t"], "reader": "hand", "seat": 3, "tag": words[2]}
        number += 1
        control.feed(number, line)
    assert public_view(live) == public_view(control.log)
    speaker = [(e["t"], e["text"]) for e in live if e["type"] == "say" and e["to"] == "table"]
    assert speaker == [(e["t"], e["text"]) for e in control.log if e["type"] == "say" and e["to"] == "table"]
    # and the spectators' stream was exactly that public view: no seat-bot event, no note
    shown = [ev for push in table.spectated for ev in push.get("events", [])]
    assert shown and shown == public_view(live)[len(public_view(live)) - len(shown):]
    assert not [ev for ev in shown if ev["type"] in (seat_bots.EVENT, NOTE)]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_killed_and_resumed_the_bot_never_acts_twice(game, tmp_path, fixed_seed):
    whole = await _played(tmp_path / "whole", game)
    await whole.close()
    expected = read_script(whole.journal).lines

    name, players, options = GAMES[game]
    table = LiveTable(tmp_path, name, players, options, SEEDS[game], referee_next=(game == "witch"))
    await table.open()
    await table.command("bot 3")
    kills = []

    def after_second_act(t: LiveTable) -> bool:  # the act is journaled; was it remembered as made?
        return len(_bot_acts(t.journal)) == 2 and not kills

    def while_one_is_pending(t: LiveTable) -> bool:  # the bot heard its call, its act not yet made
        d = t.daemon
        seat = d.seat_bots.seats.get(3) if d else None
        # (killed as a line is journaled: a restart's clock starts from the journal's last time)
        return (len(kills) == 1 and len(_bot_acts(t.journal)) >= 3 and seat is not None
                and seat.planned is not None and d is not None and d.lines[-1][1].get("t") == t.clock.now)

    for until in (after_second_act, while_one_is_pending):
        await table.play(until)
        assert table.daemon is not None and not table.daemon.table.game.over
        before = table.daemon.seat_bots.seats[3]
        planned, due, acts = before.planned, before.due, before.acts
        await table.kill()
        kills.append(len(_bot_acts(table.journal)))
        await table.open()
        assert table.daemon is not None
        again = table.daemon.seat_bots.seats[3]
        assert (again.planned, again.due, again.acts) == (planned, due, acts)
    assert kills[1] > kills[0]
    await table.play()
    await table.close()
    # the very journal of the game nobody killed: no act made twice, none lost
    assert read_script(table.journal).lines == expected


async def test_a_bot_is_refused_in_one_line_where_the_game_or_the_seat_does_not_allow_it(tmp_path):
    for game, players, lines in (
            ("trident", 3, [("bot 3", "trident is not played with bots in empty seats")]),
            ("witch", 6, [("bot 7", "'7' is not a seat 1-6"), ("bot 3 wizard", "'wizard' is not a bot of witch"),
                          ("unbot 3", "no bot plays seat 3"), ("bot 3", None),
                          ("bot 3", "seat 3 is already played by a bot"), ("bot", "write bot SEAT or bot SEAT KIND"),
                          ("unbot 3", None)])):
        daemon = Daemon(Header(game, players, lang="en"), tmp_path / f"{game}.jsonl")
        daemon.open()
        api = start_api(daemon)
        referee = await ApiClient.connect(api.socket_path)
        spectator = await ApiClient.connect(api.public_path, spectator=True)
        for text, refusal in lines:
            answer = await referee.command(text)
            events = answer["events"]
            assert len(events) == 1 and events[0]["private"] == "referee", events
            if refusal is None:
                assert events[0]["type"] == seat_bots.EVENT
            else:
                assert events[0]["type"] == "error" and refusal in events[0]["message"], events
                assert "\n" not in events[0]["message"]
        with pytest.raises(asyncio.TimeoutError):  # a spectator learns nothing of any of it
            await spectator.next_push(0.3)
        await referee.close()
        await spectator.close()
        api.stop()
        daemon.close()


async def test_the_bots_earphone_lines_reach_only_the_referee(tmp_path, fixed_seed):
    """The room (speaker and earphones) gets nothing addressed to the bot's seat, while it is a
    bot; the referee's console gets everything; after `unbot` the seat's earphone plays again."""
    name, players, options = WITCH
    table = LiveTable(tmp_path, name, players, options, SEEDS["witch"])
    await table.open()
    d = table.daemon
    assert d is not None
    room: list[dict[str, Any]] = []
    d.subscribe(lambda item, events: room.extend(d.seat_bots.room(events)))
    referee_saw: list[dict[str, Any]] = []
    assert table.referee is not None
    table.referee.on_push = lambda push: referee_saw.extend((push or {}).get("events", []))
    await table.command("bot 3")
    assert (await table.referee.state())["snapshot"]["seat_bots"] == {"3": "ear"}  # the referee's table view
    await table.play(lambda t: len(_bot_acts(t.journal)) >= 3)
    private = [e for e in d.log if e["type"] == "say" and e["to"] == "seat:3"]
    assert private  # its role, its vote...
    assert not [e for e in room if e.get("to") == "seat:3"]
    assert {e.get("to") for e in room if e["type"] == "say"} >= {"table", "seat:1", "seat:2"}
    await table.command("unbot 3")
    await table.command("hint 3")
    assert [e for e in room if e.get("to") == "seat:3"]  # a person sits there again
    await table.close()
    assert {e["seq"] for e in private} <= {e.get("seq") for e in referee_saw}
    assert any(e["type"] == NOTE for e in referee_saw)  # its card is the referee's to scan


async def test_a_bot_seated_mid_game_knows_what_that_seat_heard_and_plays_on(tmp_path, fixed_seed, monkeypatch):
    """A player leaves after the first night: the bot that takes the chair is told the seat's
    past (its role first) before it acts, and the game goes on to its end."""
    calls: list[tuple[int | None, Heard]] = []
    route = seat_bot_driver.heard_by
    monkeypatch.setattr(seat_bot_driver, "heard_by",
                        lambda ev, seat, book: (lambda h: (h is not None and calls.append((seat, h))) or h)(
                            route(ev, seat, book)))
    name, players, options = WITCH
    table = LiveTable(tmp_path, name, players, options, SEEDS["witch"], bot_seat=None)
    await table.open()
    d = table.daemon
    assert d is not None
    await table.play(lambda t: any(e["type"] == "phase" and e["phase"] == "day" for e in d.log))
    assert not calls  # nobody is a bot yet
    table.ear.bots = [b for b in table.ear.bots if b.seat != 3]  # the player at seat 3 goes home
    await table.command("bot 3")
    first = [h.key for seat, h in calls]
    assert "your-role" in first and all(seat == 3 for seat, _ in calls)
    await table.play()
    assert d.table.game.over and _bot_acts(table.journal)
    await table.close()
