"""The daemon's local API: referee consoles and spectators, as JSON lines over Unix sockets.

Why Unix sockets and not loopback TCP: a Unix socket cannot be reached from
another machine by any misconfiguration, its file mode decides which local
accounts may even connect, and there is no port to collide with a second
table.  Two sockets sit next to the journal (`kikimimi.api.paths`):

- `<journal>.sock`, mode 0600: referees.  The client must also send the
  table's secret (a fresh random token in `<journal>.secret`, mode 0600);
  0660 and 0640 when the journal's folder is set-group-ID and lets its group in
  (`shared_with_group`: the boot service's folder, whose group the owner is in);
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
spectators get the public `"log"` of the game as it now stands, to start
over from), and a referee may send `{"id": N, "submit": LINE}` (a `console` line or a reader
`lost`/`back` line; `"expect_last": LINE_NO` makes an undo take back only
the input the referee was shown) or `{"id": N, "get": "snapshot"}`; each
gets `{"id": N, "ok": true, ...}` or `{"id": N, "ok": false, "error": WHY}`.

One asyncio loop in one thread serves every connection (a connection costs
no thread).  The daemon calls listeners from the submitting thread under its
lock, so the listener only serialises and hands the bytes to the loop; a
client whose unread output grows past `MAX_BUFFERED` is dropped, never
waited for.  What reaches the daemon (a referee's request, a welcome, which
needs the log) runs on small thread pools, the referees' apart from the
spectators', so spectators can never queue a referee out.  Connections are
bounded per socket (`MAX_SPECTATORS`, `MAX_REFEREES`); one more is told so
in one line and closed.  Every file is the table's own: the secret is
created afresh with `O_EXCL | O_NOFOLLOW`, and the journal's lock (held by
the daemon) is what says no other table uses these paths.
"""
from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import hmac
import json
import os
import secrets
import socket
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.api import paths
from kikimimi.api.views import Health, jsonable, plain_input, public_events
from kikimimi.contract.protocol import in_log_order
from kikimimi.table.public import PublicView, public_header, secret_options_of
from kikimimi.contract.script import NEW_GAME
from kikimimi.table.said_on_request import SayRefused, said_line

if TYPE_CHECKING:
    from kikimimi.table.daemon import Daemon
    from kikimimi.table.config import TableConfig

#: Longest request line accepted from a client (the connection's read buffer).
MAX_LINE = 1 << 16
#: Unread output one client may leave queued (beyond its welcome) before it is dropped.
MAX_BUFFERED = 4 << 20
#: Connections at once on each socket; one more is refused in one line.
MAX_SPECTATORS = 64
MAX_REFEREES = 16
HELLO_TIMEOUT = 10.0
#: While inputs keep coming, how often the loop collects what they queued (the
#: latency it adds to a push, at most).
BATCH_SECONDS = 0.002


class ApiError(RuntimeError):
    """The API cannot start (one line, ready to print)."""


def dumps(obj: Any) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, default=jsonable) + "\n").encode()


class _Client:
    """One admitted connection.  Used from the loop's thread only."""

    def __init__(self, writer: asyncio.StreamWriter, role: str):
        self.writer = writer
        self.role = role
        self.closed = False
        self.allowance = MAX_BUFFERED

    def send(self, data: bytes) -> None:
        if self.closed:
            return
        if self.writer.transport.get_write_buffer_size() > self.allowance:
            self.drop()  # too slow to keep up: dropped, never waited for
            return
        self.writer.write(data)

    def drop(self) -> None:
        """Close now, discarding what is unsent (a client too slow, or gone)."""
        if not self.closed:
            self.closed = True
            self.writer.transport.abort()

    def finish(self) -> None:
        """Close once what is queued (a last refusal) has been sent."""
        if not self.closed:
            self.closed = True
            self.writer.close()


class ApiServer:
    """The handle `start_api` returns: `.stop()` closes everything it opened."""

    def __init__(self, daemon: Daemon, config: TableConfig | None = None):
        self.daemon = daemon
        journal = Path(daemon.journal_path)
        self.socket_path = paths.referee_socket(journal)
        self.public_path = paths.public_socket(journal)
        self.secret_path = paths.secret_file(journal)
        self.health = Health(config.readers if config else None, config.audio if config else None)
        #: Spectators' numbering (`kikimimi.table.public`): fed every event, under the daemon's lock.
        self._public = PublicView()
        self.clients: list[_Client] = []  # admitted (changed under _clients_lock)
        self._open = {True: 0, False: 0}  # connections per socket (public?), loop thread only
        self._secret = ""
        self._shared = False  # the referee's socket and secret the group's too (`shared_with_group`)
        self._clients_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._servers: list[asyncio.AbstractServer] = []
        # Sends handed from the daemon's threads to the loop; one wake-up per batch.
        self._outbox: collections.deque[tuple[_Client, bytes]] = collections.deque()
        self._outbox_lock = threading.Lock()
        self._collecting = False  # the loop has sends to collect, or will look again soon
        self._pools = {
            "referee": concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="api-referee"),
            "spectator": concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="api-spectator"),
        }

    # -- lifecycle ------------------------------------------------------------
    def start(self) -> "ApiServer":
        for path in (self.socket_path, self.public_path):
            problem = paths.check_length(path)
            if problem:
                raise ApiError(problem)
        # The daemon holds the journal's lock, so files here are a crashed run's
        # leftovers; a socket that answers is checked all the same.
        for path in (self.socket_path, self.public_path):
            _clear_stale(path)
        _remove_leftover(self.secret_path)
        self._secret = secrets.token_urlsafe(32)
        self._shared = shared_with_group(self.secret_path.parent)
        try:
            _write_private(self.secret_path, self._secret + "\n", 0o640 if self._shared else 0o600)
        except OSError as exc:
            raise ApiError(f"{self.secret_path}: cannot write the secret ({exc.strerror or exc})") from None
        with self.daemon.lock:
            self.health.absorb(self.daemon.log)
            self._public(self.daemon.log)  # the stream numbers on from the game as it stands
            self.daemon.subscribe(self._on_input)
        self._loop = asyncio.new_event_loop()
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(ready,), daemon=True, name="api")
        self._thread.start()
        try:
            ready.result(timeout=30)
        except OSError as exc:
            self.stop()
            raise ApiError(f"{exc.filename or self.socket_path}: cannot listen ({exc.strerror or exc})") from None
        return self

    def stop(self) -> None:
        self.daemon.unsubscribe(self._on_input)
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None and thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(timeout=5)
            except (concurrent.futures.TimeoutError, RuntimeError):
                pass
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=5)
        self._thread = None
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        for path in (self.socket_path, self.public_path, self.secret_path):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    def report_health(self, component: str, state: str) -> None:
        """For the outputs and runners: e.g. `report_health("audio speaker", "no device")`."""
        with self.daemon.lock:
            if self.health.report(component, state):
                message = {"events": [], "health": dict(self.health.state)}
                self._broadcast(message, message)

    # -- the loop ---------------------------------------------------------------
    def _run(self, ready: concurrent.futures.Future[None]) -> None:
        loop = self._loop
        assert loop is not None
        asyncio.set_event_loop(loop)
        try:
            self._servers = loop.run_until_complete(self._listen())
        except OSError as exc:
            ready.set_exception(exc)
            loop.close()
            return
        ready.set_result(None)
        try:
            loop.run_forever()
        finally:
            loop.close()

    async def _listen(self) -> list[asyncio.AbstractServer]:
        servers: list[asyncio.AbstractServer] = []
        referee = 0o660 if self._shared else 0o600
        for path, public, mode in ((self.socket_path, False, referee), (self.public_path, True, 0o666)):
            try:
                server = await asyncio.start_unix_server(
                    functools.partial(self._connection, public=public), path=str(path), limit=MAX_LINE)
            except OSError as exc:
                for s in servers:
                    s.close()
                exc.filename = exc.filename or str(path)
                raise
            # With the usual umask (022) nobody else may connect (that needs
            # write permission) until the chmod, and the secret still applies.
            os.chmod(path, mode)
            servers.append(server)
        return servers

    async def _shutdown(self) -> None:
        for server in self._servers:
            server.close()
        with self._clients_lock:
            clients, self.clients = self.clients, []
        for client in clients:
            client.drop()
        current = asyncio.current_task()
        for task in asyncio.all_tasks():
            if task is not current:
                task.cancel()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                          public: bool) -> None:
        limit = MAX_SPECTATORS if public else MAX_REFEREES
        if self._open[public] >= limit:
            await _refuse(writer, f"this table already has {limit} connections on this socket: try again later")
            return
        self._open[public] += 1
        client: _Client | None = None
        try:
            try:
                raw = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT)
                hello = json.loads(raw or b"null")
            except (ValueError, OSError, asyncio.TimeoutError):
                hello = None
            role, why = self.admit(hello, public_socket=public)
            if role is None:
                await _refuse(writer, why)
                return
            client = _Client(writer, role)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._pools[role], self.join, client)
            skipping = False  # the rest of an overlong line is still arriving: discard it
            while not client.closed:
                try:
                    raw = await reader.readline()
                except ValueError as exc:  # longer than MAX_LINE: dropped, so memory stays bounded
                    if not skipping:
                        client.send(dumps({"id": None, "ok": False,
                                           "error": f"a request is one line of at most {MAX_LINE} bytes"}))
                    skipping = "not found" in str(exc)  # no newline yet: more of it is coming
                    continue
                if not raw:
                    break
                if skipping:  # the end of the overlong line
                    skipping = False
                    continue
                if role == "referee":
                    answer = await loop.run_in_executor(self._pools[role], self.request, client, raw)
                else:
                    answer = self.request(client, raw)  # a spectator is answered without the daemon
                client.send(dumps(answer))
        except (OSError, asyncio.CancelledError, RuntimeError):
            pass
        finally:
            self._open[public] -= 1
            if client is not None:
                self.leave(client)
                client.drop()
            else:
                writer.transport.abort()

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
        """Welcome and subscribe under the daemon's lock, so no event falls between
        (the welcome is queued on the loop before any later push)."""
        with self.daemon.lock:
            d = self.daemon
            welcome: dict[str, Any] = {"welcome": client.role, "header": d.header.to_json(),
                                       "over": d.table.game.over, "health": dict(self.health.state)}
            if client.role == "referee":
                welcome["log"] = [in_log_order(ev) for ev in d.log]  # as written: the log's key order
                welcome.update(self._referee_state())
            else:
                welcome["header"] = public_header(welcome["header"], secret_options_of(d.header.game))
                welcome["log"] = public_events(d.log)
            data = dumps(welcome)
            client.allowance = MAX_BUFFERED + len(data)
            self._post(client, data)
            with self._clients_lock:
                self.clients.append(client)

    def leave(self, client: _Client) -> None:
        with self._clients_lock:
            if client in self.clients:
                self.clients.remove(client)

    def request(self, client: _Client, raw: bytes) -> dict[str, Any]:
        try:
            req = json.loads(raw)
        except (ValueError, RecursionError):
            return {"id": None, "ok": False, "error": "not a JSON line"}
        if not isinstance(req, dict):
            return {"id": None, "ok": False, "error": "a request is a JSON object"}
        rid = req.get("id")
        if not (rid is None or isinstance(rid, (int, str)) and not isinstance(rid, bool)):
            rid = None
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
                try:
                    events = self.daemon.submit(line)
                except ValueError as exc:  # the journal could not take it, or no journal could: not applied
                    return {"id": rid, "ok": False, "error": str(exc)}
            return {"id": rid, "ok": True, "events": [in_log_order(ev) for ev in events]}
        if "say" in req:  # the owner's output test, the certificate's fingerprint (said_on_request)
            with self.daemon.lock:
                try:
                    line = said_line(self.daemon, req)
                except SayRefused as exc:
                    return {"id": rid, "ok": False, "error": str(exc)}
                self.daemon.announce([line])
            return {"id": rid, "ok": True, "events": [in_log_order(line)]}
        return {"id": rid, "ok": False, "error": 'unknown request (use "submit", "say" or "get")'}

    # -- pushing ----------------------------------------------------------------
    def _referee_state(self) -> dict[str, Any]:
        last = self.daemon.last_input()
        return {"snapshot": self.daemon.snapshot(),
                "last_input": [last[0], plain_input(last[1])] if last else None,
                "no_undo": None if last else self.daemon.why_no_undo()}

    def _on_input(self, line: dict[str, Any], events: Sequence[Mapping[str, Any]]) -> None:
        """Called by the daemon under its lock: serialise and hand over, never block."""
        changed = self.health.absorb(events)
        shown = self._public(events)  # numbered even with nobody watching: a later welcome counts them
        if not self.clients:
            return
        public: dict[str, Any] = {"events": shown}
        if changed:
            public["health"] = dict(self.health.state)
        if any(ev.get("type") == "undo" for ev in events):
            # the game was rebuilt: spectators following from events start over
            public["log"] = public_events(self.daemon.run.standing_log)
        if line.get("console") == NEW_GAME:  # the next game (of an evening: maybe another game)
            d = self.daemon
            public["header"] = public_header(d.header.to_json(), secret_options_of(d.header.game))
            public["log"] = public["events"]
        self._broadcast(lambda: {"input": line, "events": [in_log_order(ev) for ev in events],
                                 **self._referee_state(), **({"health": public["health"]} if changed else {})},
                        public)

    def _broadcast(self, referee: Callable[[], dict[str, Any]] | dict[str, Any], public: dict[str, Any]) -> None:
        with self._clients_lock:
            clients = list(self.clients)
        if not clients:
            return
        sends: list[tuple[_Client, bytes]] = []
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
            sends.append((client, data))
        self._hand_over(sends)

    def _post(self, client: _Client, data: bytes) -> None:
        self._hand_over([(client, data)])

    def _hand_over(self, sends: list[tuple[_Client, bytes]]) -> None:
        """Queue sends for the loop, in order.  The loop is woken from here only
        at the start of a burst; while inputs keep coming it collects them
        itself every `BATCH_SECONDS` (waking another thread costs the input
        path a system call and a switch of the interpreter lock each time)."""
        if not sends or self._loop is None:
            return
        with self._outbox_lock:
            self._outbox.extend(sends)
            wake = not self._collecting
            self._collecting = True
        if wake:
            try:
                self._loop.call_soon_threadsafe(self._collect)
            except RuntimeError:
                pass  # the loop has stopped: the table is closing

    def _collect(self) -> None:
        """On the loop: send what is queued; look again shortly while there is traffic."""
        with self._outbox_lock:
            sends, self._outbox = self._outbox, collections.deque()
            if not sends:
                self._collecting = False  # quiet: the next burst wakes the loop again
                return
        for client, data in sends:
            client.send(data)
        asyncio.get_running_loop().call_later(BATCH_SECONDS, self._collect)


async def _refuse(writer: asyncio.StreamWriter, why: str) -> None:
    try:
        writer.write(dumps({"refused": why}))
        await asyncio.wait_for(writer.drain(), HELLO_TIMEOUT)
    except (OSError, asyncio.TimeoutError):
        pass
    finally:
        writer.transport.abort() if writer.transport.get_write_buffer_size() else writer.close()


def start_api(daemon: Daemon, config: TableConfig | None = None) -> ApiServer:
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
        probe.settimeout(1.0)
        probe.connect(str(path))
    except OSError:
        _remove_leftover(path)
    else:
        raise ApiError(f"{path}: another kikimimi is already serving this table")
    finally:
        probe.close()


def _remove_leftover(path: Path) -> None:
    """A socket or secret left by a crashed run of this table (a link is removed, never followed)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise ApiError(f"{path}: cannot remove a leftover file ({exc.strerror or exc})") from None


def shared_with_group(folder: Path) -> bool:
    """Whether the journal's folder is one made to share the table with its group: set-group-ID
    and open to the group (`service install` makes the boot service's so, 2751, for the owner in
    the service's group).  Then the referee's socket and the secret are the group's too (0660,
    0640), so the owner's console reaches the table.  A plain folder that merely lets its group
    in (a user's own `mkdir`, whose group may be everyone's "users") keeps them the user's alone."""
    import stat

    try:
        st = os.stat(folder)
    except OSError:
        return False
    return bool(st.st_mode & stat.S_ISGID) and bool(st.st_mode & 0o010) and st.st_gid == os.getegid()


def _write_private(path: Path, text: str, mode: int = 0o600) -> None:
    """A new file only the table's user (and, `mode` 0640, its group) may read; never through a planted link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, mode)
        os.write(fd, text.encode())
    finally:
        os.close(fd)
