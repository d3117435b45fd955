"""A served bot game with its web console on loopback, and a small HTTPS client for it.

The table is `kikimimi.api.sim_host.SimHost` (a bot game behind the real
API, as the console tests serve one); the web console is the real uvicorn
servers on 127.0.0.1 (port 0), one over TLS and one plain for the audience.
The client is the standard library's, trusting exactly the table's own
certificate, so every request is a real one through TLS.
"""
from __future__ import annotations

import http.client
import os
import json
import queue
import secrets
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("CI"):  # CI installs the web extra (.ci/run): without it these tests fail, never skip
    import starlette  # noqa: F401
else:
    pytest.importorskip("starlette", reason="the web console's extra is not installed (pip install '.[web]')")

from kikimimi.api.sim_host import SimHost  # noqa: E402
from kikimimi.web.serve import WebServer, web_config  # noqa: E402
from kikimimi.web.store import Store, folder_for  # noqa: E402


@dataclass
class Served:
    host: SimHost
    web: WebServer
    journal: Path

    @property
    def port(self) -> int:
        return int(self.web.urls[0].rsplit(":", 1)[1])

    @property
    def audience_port(self) -> int:
        return int(self.web.urls[1].rsplit(":", 1)[1])

    @property
    def store(self) -> Store:
        return Store(folder_for(self.journal))

    def client(self, port: int | None = None) -> "Client":
        return Client(port or self.port, self.web.cert)

    def paired(self, role: str = "referee") -> "Client":
        c = self.client()
        answer = c.post("/api/pair", {"code": self.store.new_code(role)}, csrf=False)
        assert answer.status == 200, answer.body
        return c

    def wait_caught_up(self, side: Any, timeout: float = 20.0) -> None:
        """Until the web console has every event the daemon logged (its seq), on that side."""
        end = time.monotonic() + timeout
        while True:
            with self.host.daemon.lock:
                inputs = len(self.host.daemon.lines)
            snap = side.follow.snapshot if not side.spectator else None
            if snap is not None and snap.get("inputs") == inputs:
                return
            assert time.monotonic() < end, "the web console did not catch up with the table"
            time.sleep(0.005)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Client:
    port: int
    cert: Path
    host: str = "127.0.0.1"
    cookie: str = ""
    csrf_token: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    tls: bool = True

    def _conn(self) -> http.client.HTTPConnection:
        if not self.tls:
            return http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        ctx = ssl.create_default_context(cafile=str(self.cert))
        return http.client.HTTPSConnection("127.0.0.1", self.port, context=ctx, timeout=20)

    @property
    def origin(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}"

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        conn = self._conn()
        sent = {"Host": f"{self.host}:{self.port}", **self.headers, **(headers or {})}
        if self.cookie:
            sent.setdefault("Cookie", self.cookie)
        conn.request(method, path, body=body, headers=sent)
        r = conn.getresponse()
        answer = Answer(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
        conn.close()
        cookie = answer.headers.get("set-cookie", "")
        if cookie.startswith("__Host-kikimimi="):
            self.cookie = cookie.split(";", 1)[0]
            if answer.status == 200 and b"csrf" in answer.body:
                self.csrf_token = answer.json()["csrf"]
        return answer

    def get(self, path: str, **headers: str) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, body: Any, *, csrf: bool = True, nonce: str | None = None,
             headers: dict[str, str] | None = None) -> Answer:
        sent = {"Origin": self.origin, "Content-Type": "application/json",
                "X-Kikimimi-Nonce": nonce or fresh_nonce()}
        if csrf:
            sent["X-CSRF-Token"] = self.csrf_token
        sent.update(headers or {})
        return self.request("POST", path, json.dumps(body).encode(), sent)

    def command(self, text: str) -> Answer:
        return self.post("/api/referee/command", {"text": text})

    def events(self, path: str) -> "Stream":
        return Stream(self, path)


def fresh_nonce() -> str:
    return f"{int(time.time() * 1000)}.{secrets.token_hex(16)}"


class Stream:
    """A server-sent event stream read on a thread: each `data:` line's JSON on `messages`."""

    def __init__(self, client: Client, path: str):
        self.conn = client._conn()
        headers = {"Host": f"{client.host}:{client.port}", "Accept": "text/event-stream"}
        if client.cookie:
            headers["Cookie"] = client.cookie
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.messages: queue.Queue[Any] = queue.Queue()
        self.raw = bytearray()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                line = self.response.fp.readline()  # raw: chunk sizes, then the stream's lines
                if not line or line == b"0\r\n":  # the last chunk: the server ended the stream
                    break
                self.raw += line
                if line.startswith(b"data: "):
                    self.messages.put(json.loads(line[6:]))
        except (OSError, ValueError, AttributeError):  # AttributeError: a refusal's body, read and closed
            pass
        self.messages.put(None)

    def next(self, timeout: float = 20.0) -> Any:
        return self.messages.get(timeout=timeout)

    def until(self, predicate: Any, timeout: float = 30.0) -> list[Any]:
        """Messages up to and including the first that `predicate` accepts."""
        seen = []
        end = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, end - time.monotonic()))
            assert message is not None, "the stream ended"
            seen.append(message)
            if predicate(message):
                return seen

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(2)  # type: ignore[union-attr]
        except (OSError, AttributeError):
            pass
        self.conn.close()


def serve(tmp_path: Path, game: str = "trident", seed: int = 1, players: int = 3,
          options: dict[str, Any] | None = None, lang: str = "en") -> Served:
    tmp_path.mkdir(parents=True, exist_ok=True)
    journal = tmp_path / f"{game}.jsonl"
    host = SimHost(game, seed, players, options, journal=journal, lang=lang)
    host.start()
    web = WebServer(web_config(journal, None, bind=["127.0.0.1:0"], audience=["127.0.0.1:0"])).start()
    served = Served(host, web, journal)
    end = time.monotonic() + 20
    while not (web.bridge.referee.connected and web.bridge.audience.connected):
        assert time.monotonic() < end, "the web console never connected to the table"
        time.sleep(0.005)
    return served


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = serve(tmp_path)
    try:
        yield s
    finally:
        s.web.stop()
        s.host.close()


def close(s: Served) -> None:
    s.web.stop()
    s.host.close()



@pytest.fixture
def serve_table(tmp_path: Path) -> Iterator[Any]:
    """`serve_table(game, seed, players)`: a served bot game, closed at the end of the test."""
    opened: list[Served] = []

    def open_one(game: str = "trident", seed: int = 1, players: int = 3, lang: str = "en") -> Served:
        s = serve(tmp_path / f"{game}-{seed}", game, seed, players, lang=lang)
        opened.append(s)
        return s

    yield open_one
    for s in opened:
        close(s)


@pytest.fixture
def evening_table(tmp_path: Path) -> Iterator[Served]:
    """A served bot Trident whose evening offers 鬼探し too (as a table file's `[games.NAME]`
    with `options = { raise_window = 2.0 }`): `game NAME key=value ...` is the table's."""
    from kikimimi.table.config import GameChoice
    from kikimimi.table.engine import default_tagmap
    from kikimimi.table.evening import Evening

    s = serve(tmp_path / "evening")
    games = {"trident": GameChoice("trident", 3, {}, default_tagmap("trident")),
             "onisagashi": GameChoice("onisagashi", 4, {"raise_window": 2.0}, default_tagmap("onisagashi"))}
    Evening(s.host.daemon, complain=lambda _: None, games=games).begin()
    try:
        yield s
    finally:
        close(s)


@pytest.fixture
def web_client() -> type[Client]:
    """The client class, for a test that starts its own web console."""
    return Client
