"""The daemon's local API: referee consoles and spectators, as JSON lines over Unix sockets.

Why Unix sockets and not loopback TCP: a Unix socket cannot be reached from
another machine by any misconfiguration, its file mode decides which local
accounts may even connect, and there is no port to collide with a second
table.  Two sockets sit next to the journal (`kikimimi.api.paths`):

- `<journal>.sock`, mode 0600: referees.  The client must also send the
  table's secret (a fresh random token in `<journal>.secret`, mode 0600);
  without it the connection gets one refusal line and is closed, and it
  never learns anything about the game.
- `<journal>.public.sock`, mode 0666: spectators from any local account (a
  braille display, a scoreboard).  It needs no secret because it can only
  ever say public things: `views.public_events`, no snapshot, no inputs.

Protocol (one JSON object per line).  The client speaks first:
`{"hello": "referee", "secret": S}` or `{"hello": "spectator"}`.  The server
answers `{"refused": WHY}` (and closes) or `{"welcome": ROLE, "header",
"log", "health"}` plus, for referees, `"snapshot"` and `"last_input"`.
Afterwards the server pushes `{"events": [...], "health"}` after every input
(referees also get `"input"`, `"snapshot"`, `"last_input"`; after an undo,
spectators get the rebuilt public `"log"`), and a referee
may send `{"id": N, "submit": LINE}` (a `console` line or a reader
`lost`/`back` line; `"expect_last": LINE_NO` makes an undo take back only
the input the referee was shown) or `{"id": N, "get": "snapshot"}`; each
gets `{"id": N, "ok": true, ...}` or `{"id": N, "ok": false, "error": WHY}`.

The daemon calls listeners from the submitting thread under its lock, so
the listener only serialises and queues; one writer thread per client does
the sending, and a client too slow to keep up is dropped, never waited for.
"""
from __future__ import annotations

import hmac
import json
import os
import queue
import secrets
import socket
import socketserver
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kikimimi.api import paths
from kikimimi.api.views import Health, jsonable, plain_input, public_events

#: Messages queued for one client before it counts as stuck and is dropped.
MAX_QUEUED = 5000
#: Longest request line accepted from a client.
MAX_LINE = 1 << 16
HELLO_TIMEOUT = 10.0


class ApiError(RuntimeError):
    """The API cannot start (one line, ready to print)."""


def dumps(obj: Any) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, default=jsonable) + "\n").encode()


class _Client:
    """One connected client: its role and its outgoing queue."""

    def __init__(self, sock: socket.socket, role: str):
        self.sock = sock
        self.role = role
        self.queue: queue.Queue[bytes | None] = queue.Queue(MAX_QUEUED)
        self.closed = threading.Event()

    def send(self, data: bytes) -> None:
        if self.closed.is_set():
            return
        try:
            self.queue.put_nowait(data)
        except queue.Full:
            self.close()

    def close(self) -> None:
        if not self.closed.is_set():
            self.closed.set()
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            try:
                self.queue.put_nowait(None)
            except queue.Full:
                pass

    def write_loop(self) -> None:
        while True:
            data = self.queue.get()
            if data is None:
                return
            try:
                self.sock.sendall(data)
            except OSError:
                self.close()
                return


class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, path: Path, api: "ApiServer", public: bool):
        self.api = api
        self.public = public
        super().__init__(str(path), _Handler)


class _Handler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        api = self.server.api
        self.connection.settimeout(HELLO_TIMEOUT)
        try:
            hello = json.loads(self.rfile.readline(MAX_LINE) or b"null")
        except (ValueError, OSError):
            hello = None
        self.connection.settimeout(None)
        role, why = api.admit(hello, public_socket=self.server.public)
        if role is None:
            try:
                self.wfile.write(dumps({"refused": why}))
                self.wfile.flush()
            except OSError:
                pass
            return
        client = _Client(self.connection, role)
        writer = threading.Thread(target=client.write_loop, daemon=True, name=f"api-{role}-writer")
        writer.start()
        api.join(client)
        try:
            while not client.closed.is_set():
                raw = self.rfile.readline(MAX_LINE)
                if not raw:
                    break
                client.send(dumps(api.request(client, raw)))
        except OSError:
            pass
        finally:
            api.leave(client)
            client.close()
            writer.join(timeout=2)


class ApiServer:
    """The handle `start_api` returns: `.stop()` closes everything it opened."""

    def __init__(self, daemon: Any, config: Any = None):
        self.daemon = daemon
        journal = Path(daemon.journal_path)
        self.socket_path = paths.referee_socket(journal)
        self.public_path = paths.public_socket(journal)
        self.secret_path = paths.secret_file(journal)
        self.health = Health(getattr(config, "readers", None), getattr(config, "audio", None))
        self.clients: list[_Client] = []
        self._servers: list[_Server] = []
        self._threads: list[threading.Thread] = []
        self._secret = ""
        self._clients_lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------
    def start(self) -> "ApiServer":
        for path in (self.socket_path, self.public_path):
            problem = paths.check_length(path)
            if problem:
                raise ApiError(problem)
            _clear_stale(path)
        self._secret = secrets.token_urlsafe(32)
        _write_private(self.secret_path, self._secret + "\n")
        with self.daemon.lock:
            self.health.absorb(self.daemon.log)
            self.daemon.subscribe(self._on_input)
        for path, public, mode in ((self.socket_path, False, 0o600), (self.public_path, True, 0o666)):
            try:
                # With the usual umask (022) nobody else may connect (that needs
                # write permission) until the chmod, and the secret still applies.
                server = _Server(path, self, public)
            except OSError as exc:
                self.stop()
                raise ApiError(f"{path}: cannot listen ({exc.strerror or exc})") from None
            os.chmod(path, mode)
            self._servers.append(server)
            thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                      daemon=True, name=f"api-{'public' if public else 'referee'}")
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        self.daemon.unsubscribe(self._on_input)
        for server in self._servers:
            server.shutdown()
            server.server_close()
        with self._clients_lock:
            clients, self.clients = self.clients, []
        for client in clients:
            client.close()
        for path in (self.socket_path, self.public_path, self.secret_path):
            try:
                path.unlink()
            except FileNotFoundError:
                pass
        self._servers.clear()

    def report_health(self, component: str, state: str) -> None:
        """For the outputs and runners: e.g. `report_health("audio speaker", "no device")`."""
        with self.daemon.lock:
            if self.health.report(component, state):
                message = {"events": [], "health": dict(self.health.state)}
                self._broadcast(message, message)

    # -- sessions -----------------------------------------------------------
    def admit(self, hello: Any, *, public_socket: bool) -> tuple[str | None, str]:
        if not isinstance(hello, Mapping) or hello.get("hello") not in ("referee", "spectator"):
            return None, 'say hello first: {"hello": "referee", "secret": ...} or {"hello": "spectator"}'
        if public_socket:
            if hello["hello"] != "spectator":
                return None, "this is the spectators' socket: referees connect to the table's .sock with its secret"
            return "spectator", ""
        given = hello.get("secret")
        if not isinstance(given, str) or not hmac.compare_digest(given.encode(), self._secret.encode()):
            return None, "refused: wrong or missing secret (it is in the table's .secret file)"
        return str(hello["hello"]), ""

    def join(self, client: _Client) -> None:
        """Welcome and subscribe under the daemon's lock, so no event falls between."""
        with self.daemon.lock:
            d = self.daemon
            welcome: dict[str, Any] = {"welcome": client.role, "header": d.header.to_json(),
                                       "over": d.table.game.over, "health": dict(self.health.state)}
            if client.role == "referee":
                welcome["log"] = list(d.log)
                welcome.update(self._referee_state())
            else:
                welcome["log"] = public_events(d.log)
            client.send(dumps(welcome))
            with self._clients_lock:
                self.clients.append(client)

    def leave(self, client: _Client) -> None:
        with self._clients_lock:
            if client in self.clients:
                self.clients.remove(client)

    def request(self, client: _Client, raw: bytes) -> dict[str, Any]:
        try:
            req = json.loads(raw)
        except ValueError:
            return {"id": None, "ok": False, "error": "not a JSON line"}
        if not isinstance(req, dict):
            return {"id": None, "ok": False, "error": "a request is a JSON object"}
        rid = req.get("id")
        if client.role != "referee":
            return {"id": rid, "ok": False, "error": "spectators may only watch"}
        if req.get("get") == "snapshot":
            with self.daemon.lock:
                return {"id": rid, "ok": True, **self._referee_state()}
        if "submit" in req:
            line = req["submit"]
            why = _not_a_referee_line(line)
            if why:
                return {"id": rid, "ok": False, "error": why}
            with self.daemon.lock:
                expect = req.get("expect_last")
                if expect is not None:
                    last = self.daemon.last_input()
                    if (last[0] if last else None) != expect:
                        return {"id": rid, "ok": False,
                                "error": "the last input changed since you were shown it: look again"}
                events = self.daemon.submit(line)
            return {"id": rid, "ok": True, "events": events}
        return {"id": rid, "ok": False, "error": 'unknown request (use "submit" or "get")'}

    # -- pushing ----------------------------------------------------------------
    def _referee_state(self) -> dict[str, Any]:
        last = self.daemon.last_input()
        return {"snapshot": self.daemon.snapshot(),
                "last_input": [last[0], plain_input(last[1])] if last else None}

    def _on_input(self, line: dict[str, Any], events: Sequence[Mapping[str, Any]]) -> None:
        """Called by the daemon under its lock: serialise and queue, never block."""
        changed = self.health.absorb(events)
        public: dict[str, Any] = {"events": public_events(events)}
        if changed:
            public["health"] = dict(self.health.state)
        if any(ev.get("type") == "undo" for ev in events):
            # the game was rebuilt: spectators following from events start over
            public["log"] = public_events(self.daemon.log)
        self._broadcast(lambda: {"input": line, "events": list(events), **self._referee_state(),
                                 **({"health": public["health"]} if changed else {})}, public)

    def _broadcast(self, referee: Callable[[], dict[str, Any]] | dict[str, Any], public: dict[str, Any]) -> None:
        with self._clients_lock:
            clients = list(self.clients)
        encoded: dict[str, bytes] = {}
        for client in clients:
            if client.role == "referee":
                if "referee" not in encoded:  # the snapshot is built only if someone will read it
                    encoded["referee"] = dumps(referee() if callable(referee) else referee)
                data = encoded["referee"]
            elif public["events"] or "health" in public:
                data = encoded.setdefault("public", dumps(public))
            else:
                continue  # nothing public happened: a spectator learns not even that
            client.send(data)


def start_api(daemon: Any, config: Any = None) -> ApiServer:
    """`kikimimi serve` calls this once the daemon is open; `.stop()` at exit."""
    return ApiServer(daemon, config).start()


def _not_a_referee_line(line: Any) -> str | None:
    """Referees send commands and reader states, never pieces: a tag comes from a reader."""
    if not isinstance(line, Mapping):
        return "submit takes one script line (a JSON object)"
    if "console" in line:
        if not isinstance(line["console"], str) or not line["console"].strip():
            return '"console" must be a command line'
        if set(line) - {"console", "t"}:
            return "a console line has only \"console\""
        return None
    if line.get("reader") in ("hand", "field") and (line.get("lost") is True or line.get("back") is True):
        if set(line) - {"reader", "seat", "lost", "back", "detail", "t"}:
            return "a reader line from the console says only lost or back"
        return None
    return "the console sends console commands and reader lost/back lines only"


def _clear_stale(path: Path) -> None:
    """A socket file left by a crashed table is removed; a live one means the
    table is already being served, which must not happen twice."""
    if not path.exists() and not path.is_symlink():
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink()
    else:
        raise ApiError(f"{path}: another kikimimi is already serving this table")
    finally:
        probe.close()


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode())
    finally:
        os.close(fd)
