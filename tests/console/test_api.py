"""The daemon API in-process: a real Daemon (toy game), real sockets, the real client."""
from __future__ import annotations

import asyncio
import json
import socket
import stat

import pytest

from kikimimi.api import paths
from kikimimi.api.client import ApiClient, Refused
from kikimimi.api.server import ApiError, start_api
from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import Table
from kikimimi.contract.script import Header, read_script, without_undone


@pytest.fixture
def table(tmp_path, toy):
    daemon = Daemon(Header("toy", 2, lang="en"), tmp_path / "j.jsonl")
    daemon.open()
    api = start_api(daemon)
    yield daemon, api
    api.stop()
    daemon.close()


async def _until(client, predicate, timeout=5.0):
    """Pushes until one satisfies `predicate`; returns it."""
    while True:
        push = await client.next_push(timeout)
        assert push is not None, "the table closed the connection"
        if predicate(push):
            return push


def test_files_are_private_and_gone_after_stop(tmp_path, toy):
    daemon = Daemon(Header("toy", 2), tmp_path / "j.jsonl")
    daemon.open()
    api = start_api(daemon)
    journal = tmp_path / "j.jsonl"
    assert stat.S_IMODE(paths.referee_socket(journal).stat().st_mode) == 0o600
    assert stat.S_IMODE(paths.secret_file(journal).stat().st_mode) == 0o600
    assert stat.S_IMODE(paths.public_socket(journal).stat().st_mode) == 0o666
    assert stat.S_ISSOCK(paths.referee_socket(journal).stat().st_mode)
    with pytest.raises(ApiError, match="already serving"):
        start_api(daemon)
    api.stop()
    assert not any(p.exists() for p in (paths.referee_socket(journal), paths.public_socket(journal),
                                        paths.secret_file(journal)))
    # a socket file left behind by a crash is not "another table"
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(paths.referee_socket(journal)))
    stale.close()
    start_api(daemon).stop()
    daemon.close()


async def test_without_the_secret_a_client_gets_one_refusal_line_and_nothing_else(table, tmp_path):
    daemon, api = table
    for hello in ({"hello": "referee", "secret": "guess"}, {"hello": "referee"}, {"hi": 1}):
        reader, writer = await asyncio.open_unix_connection(str(api.socket_path))
        writer.write((json.dumps(hello) + "\n").encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), 5)  # everything until the server closes
        lines = data.decode().splitlines()
        assert len(lines) == 1 and "refused" in json.loads(lines[0])
        assert "toy" not in data.decode() and "stone" not in data.decode()
        writer.close()
    with pytest.raises(Refused, match="secret"):
        await ApiClient.connect(api.socket_path, secret="nope")
    # a referee cannot come in through the spectators' door either
    with pytest.raises(Refused, match="spectators"):
        await ApiClient.connect(api.public_path, secret=api.secret_path.read_text().strip())


async def test_referee_commands_change_the_game_and_every_referee_sees_it(table):
    daemon, api = table
    first = await ApiClient.connect(api.socket_path)
    second = await ApiClient.connect(api.socket_path)
    assert first.welcome["snapshot"]["game"] == {"turn": 1, "played": []}
    reply = await first.command("stop")
    assert reply["ok"] and any(ev["type"] == "game-over" for ev in reply["events"])
    push = await _until(second, lambda p: p["events"])
    assert push["input"]["console"] == "stop" and push["snapshot"]["over"] is True
    assert daemon.table.game.over
    assert read_script(daemon.journal_path).lines[-1][1]["console"] == "stop"  # journaled like any input
    # a referee sends commands and reader states, never a piece
    refused = await first.submit({"reader": "field", "tag": "toy:stone-1"})
    assert not refused["ok"] and "lost/back" in refused["error"]
    lost = await first.submit({"reader": "hand", "seat": 2, "lost": True})
    assert lost["ok"] and lost["events"][0]["type"] == "reader"
    push = await _until(second, lambda p: p.get("input", {}).get("lost"))
    assert push["health"]["hand 2"] == "lost"
    await first.close()
    await second.close()


async def test_a_spectator_sees_public_events_only_never_a_hand(table):
    daemon, api = table
    spectator = await ApiClient.connect(api.public_path, spectator=True)
    referee = await ApiClient.connect(api.socket_path)
    assert "snapshot" not in spectator.welcome and spectator.welcome["log"]
    daemon.submit({"reader": "hand", "seat": 1, "tag": "toy:stone-4"})  # whispered to seat 1
    daemon.submit({"reader": "field", "tag": "toy:stone-2"})
    assert (await referee.undo(daemon.last_input()[0]))["ok"]  # takes back the field play
    assert (await referee.undo(daemon.last_input()[0]))["ok"]  # takes back the hand scan
    seen = []
    while sum(ev.get("key") == "undone" for ev in seen) < 2:  # the undo itself is the referee's
        push = await spectator.next_push()
        assert set(push) <= {"events", "health", "log"}  # no input, no snapshot
        seen += push.get("log", [])
        seen += push["events"]
    text = json.dumps(spectator.welcome) + json.dumps(seen)
    assert "stone-4" not in text and "seat:1" not in text
    assert any(ev["type"] == "play" and ev["tag"] == "toy:stone-2" for ev in seen)
    refused = await spectator.command("stop")
    assert not refused["ok"] and not daemon.table.game.over
    await spectator.close()
    await referee.close()


async def test_undo_takes_back_only_what_was_shown_and_restores_the_replayed_state(table):
    daemon, api = table
    referee = await ApiClient.connect(api.socket_path)
    for line in ({"reader": "field", "tag": "toy:stone-1"}, {"reader": "hand", "seat": 2, "tag": "toy:stone-3"},
                 {"reader": "field", "tag": "toy:stone-5"}):
        await referee.submit(line) if "console" in line else daemon.submit(line)
    shown = (await referee.state())["last_input"]
    assert shown[1]["tag"] == "toy:stone-5"
    daemon.submit({"reader": "field", "tag": "toy:stone-6"})  # someone plays meanwhile
    stale = await referee.undo(shown[0])
    assert not stale["ok"] and "changed" in stale["error"]
    state = await referee.state()
    reply = await referee.undo(state["last_input"][0])
    undo = next(ev for ev in reply["events"] if ev["type"] == "undo")
    assert reply["ok"] and undo["input"]["tag"] == "toy:stone-6"
    # the game now is exactly the replay of the journal without the undone line
    parsed = read_script(daemon.journal_path)
    replay = Table(parsed.header)
    replay.start()
    for number, item in without_undone(parsed.lines):
        replay.feed(number, item)
    after = (await referee.state())["snapshot"]["game"]
    assert after == replay.game.snapshot() == {"turn": 1, "played": ["toy:stone-1", "toy:stone-5"]}
    await referee.close()
