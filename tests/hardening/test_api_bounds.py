"""The spectator socket is bounded and the referee is always served."""
from __future__ import annotations

import asyncio
import socket
import threading

import pytest

from kikimimi.api import server as api_server
from kikimimi.api.client import ApiClient
from kikimimi.api.server import MAX_LINE, start_api
from kikimimi.table.daemon import Daemon
from kikimimi.contract.script import Header


@pytest.fixture
def table(tmp_path, toy, monkeypatch):
    monkeypatch.setattr(api_server, "MAX_SPECTATORS", 20)
    daemon = Daemon(Header("toy", 2), tmp_path / "j.jsonl")
    daemon.open()
    api = start_api(daemon)
    yield daemon, api
    api.stop()
    daemon.close()


def _spectator(path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(str(path))
    return s


def test_connections_beyond_the_bound_are_refused_and_the_referee_still_plays(table):
    daemon, api = table
    threads_before = threading.active_count()
    idle = [_spectator(api.public_path) for _ in range(20)]  # never say hello: they hold their slots
    extra = _spectator(api.public_path)
    assert b"connections" in extra.makefile("rb").readline()
    extra.close()
    assert threading.active_count() <= threads_before + 2  # no thread per connection

    async def referee_plays():
        referee = await ApiClient.connect(api.socket_path)
        reply = await referee.command("stop")
        await referee.close()
        return reply

    assert asyncio.run(referee_plays())["ok"]
    assert daemon.table.game.over
    for s in idle:
        s.close()


def test_a_spectator_sees_only_public_events_even_when_many_watch(table):
    daemon, api = table

    async def watch():
        spectators = [await ApiClient.connect(api.public_path, spectator=True) for _ in range(5)]
        await asyncio.to_thread(daemon.submit, {"reader": "hand", "seat": 1, "tag": "toy:stone-3"})
        await asyncio.to_thread(daemon.submit, {"reader": "field", "tag": "toy:stone-1"})
        pushes = [await s.next_push() for s in spectators]
        for s in spectators:
            await s.close()
        return pushes

    for push in asyncio.run(watch()):
        assert [ev["type"] for ev in push["events"]] == ["play", "say", "turn"]  # a timer set is bookkeeping
        assert "stone-3" not in str(push)


def test_an_overlong_request_is_refused_once_and_the_connection_goes_on(table):
    daemon, api = table

    async def flood():
        referee = await ApiClient.connect(api.socket_path)
        referee.writer.write(b"x" * (MAX_LINE * 4) + b"\n")
        await referee.writer.drain()
        push = await referee.next_push()
        state = await referee.state()  # the same connection still answers
        await referee.close()
        return push, state

    push, state = asyncio.run(flood())
    assert push["ok"] is False and "at most" in push["error"], push
    assert state["ok"] and state["snapshot"]["inputs"] == 0


def test_a_spectator_that_never_reads_is_dropped_not_waited_for(table, monkeypatch):
    daemon, api = table
    monkeypatch.setattr(api_server, "MAX_BUFFERED", 4096)
    lazy = _spectator(api.public_path)
    lazy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    lazy.sendall(b'{"hello": "spectator"}\n')
    pause = threading.Event()
    while not any(c.role == "spectator" for c in api.clients):
        pause.wait(0.01)
    big = "x" * 2000  # an error event quoting a long bad command: a big public push
    for i in range(3000):  # the table never slows down for it
        api._on_input({}, [{"type": "say", "to": "table", "key": "k", "text": big}])
        if i % 50 == 0 and not any(c.role == "spectator" for c in api.clients):
            break
    for _ in range(100):
        if not any(c.role == "spectator" for c in api.clients):
            break
        pause.wait(0.05)
    assert not any(c.role == "spectator" for c in api.clients)
    lazy.close()
