"""Running the web console: uvicorn on exactly the addresses the table file names.

`[web]` in the table file:

    [web]
    bind = ["192.168.1.20:8443"]      # TLS: referee, owner, pairing and the audience
    audience = ["192.168.1.20:8080"]  # plain HTTP: the audience view only (optional)
    names = ["kikimimi.local"]        # other host names a phone may use for the box

Without it the console listens on loopback only (127.0.0.1:8443).  Every
server shares one loop, one bridge to the table and one pairing store.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import logging
import signal
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp

from kikimimi.web import store as store_mod
from kikimimi.web import tls
from kikimimi.web.app import Console, audience_app, paired_app
from kikimimi.web.bridge import Bridge

DEFAULT_BIND = ("127.0.0.1:8443",)


class _Server(uvicorn.Server):
    """One of several servers in one loop: the signals are the web console's to catch, once."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


class WebError(ValueError):
    """The web console cannot start (one line)."""


@dataclass
class WebConfig:
    journal: Path
    bind: list[tuple[str, int]]
    audience: list[tuple[str, int]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    config_path: Path | None = None

    @property
    def hosts(self) -> list[str]:
        return list(dict.fromkeys(["localhost", "127.0.0.1", "::1", *(h for h, _ in self.bind + self.audience),
                                   *self.names]))


def address(text: str, where: str = "web") -> tuple[str, int]:
    """`HOST:PORT` (IPv6 as `[::1]:8443`), checked: a literal address, a port 0-65535."""
    if not isinstance(text, str) or len(text) > 80:
        raise WebError(f"{where}: an address is HOST:PORT, not {text!r}")
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not port.isdecimal() or not 0 <= int(port) <= 65535:
        raise WebError(f"{where}: an address is HOST:PORT, not {text!r}")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        raise WebError(f"{where}: {host!r} is not an IP address (bind the box's own address)") from None
    if ip.is_unspecified:
        raise WebError(f"{where}: {host} would serve every network the box is on: bind the box's own address "
                       "on the club's network (and 127.0.0.1 for the box itself)")
    return host, int(port)


def web_config(journal: Path, section: dict[str, object] | None, *, config_path: Path | None = None,
               bind: Sequence[str] = (), audience: Sequence[str] = ()) -> WebConfig:
    section = section or {}
    binds = list(bind) or list(section.get("bind", DEFAULT_BIND))  # type: ignore[call-overload]
    plain = list(audience) or list(section.get("audience", []))  # type: ignore[call-overload]
    names = [str(n) for n in section.get("names", [])]  # type: ignore[attr-defined]
    return WebConfig(journal, [address(b, "web.bind") for b in binds], [address(a, "web.audience") for a in plain],
                     names, config_path)


class WebServer:
    """Every server of one table's web console, in one loop (`run()` here, or `start()` in a thread)."""

    def __init__(self, config: WebConfig):
        self.config = config
        self.store = store_mod.Store(store_mod.folder_for(config.journal)).ensure()
        self.cert, self.key = tls.certificate(self.store.folder, config.hosts)
        self.fingerprint = tls.fingerprint(self.cert)
        self.bridge = Bridge(config.journal)
        self.servers: list[_Server] = []
        self.console: Console | None = None
        self.urls: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def _uvicorn(self, app: ASGIApp, host: str, port: int, secure: bool) -> _Server:
        conf = uvicorn.Config(app, host=host, port=port, lifespan="off", log_level="warning", access_log=False,
                              server_header=False, date_header=False, http="h11", ws="none",
                              limit_concurrency=128, timeout_keep_alive=5, timeout_graceful_shutdown=1,
                              ssl_certfile=str(self.cert) if secure else None,
                              ssl_keyfile=str(self.key) if secure else None)
        return _Server(conf)

    async def serve(self, ready: concurrent.futures.Future[None] | None = None,
                    listening: Callable[[list[str]], None] | None = None) -> None:
        """Every server until `exit()`; `ready` (a thread's start) or `listening(urls)` once they listen."""
        self.bridge.start()
        tls_url = _url("https", *self.config.bind[0]) if self.config.bind else ""
        console = self.console = Console(self.bridge, self.store, config_path=self.config.config_path,
                                         fingerprint=self.fingerprint, tls_url=tls_url)
        hosts = self.config.hosts
        paired, public = paired_app(console, hosts), audience_app(console, hosts)
        self.servers = [self._uvicorn(paired, h, p, True) for h, p in self.config.bind]
        self.servers += [self._uvicorn(public, h, p, False) for h, p in self.config.audience]
        tasks = [asyncio.create_task(s.serve()) for s in self.servers]
        try:
            while not all(s.started for s in self.servers):
                done = [t for t in tasks if t.done()]
                if done:
                    raise WebError(f"the web console could not listen on {self._addresses()} "
                                   "(in use, or not an address of this machine)")
                await asyncio.sleep(0.01)
            self.urls = [_url("https", *s.servers[0].sockets[0].getsockname()[:2]) for s in self.servers[:len(self.config.bind)]]
            self.urls += [_url("http", *s.servers[0].sockets[0].getsockname()[:2]) for s in self.servers[len(self.config.bind):]]
            console.tls_url = self.urls[0] if self.config.bind else ""
            if ready is not None:
                ready.set_result(None)
            else:  # run from the command line: Ctrl-C and the service manager's stop end it
                loop = asyncio.get_running_loop()
                for sig in (signal.SIGINT, signal.SIGTERM):
                    loop.add_signal_handler(sig, self.exit)
            if listening is not None:
                listening(self.urls)
            await asyncio.gather(*tasks)
        except BaseException as exc:
            for s in self.servers:
                s.should_exit = True
            if ready is not None and not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else WebError("stopped"))
            raise
        finally:
            await self.bridge.close()

    def exit(self) -> None:
        """In the loop: end every page's stream (so nothing holds the shutdown), then every server."""
        self.bridge.end_pages()
        for s in self.servers:
            s.should_exit = True

    def _addresses(self) -> str:
        return ", ".join(f"{h}:{p}" for h, p in self.config.bind + self.config.audience)

    # -- in a thread (tests, benches) ------------------------------------------------
    def start(self) -> "WebServer":
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._loop = asyncio.new_event_loop()

        def run() -> None:
            assert self._loop is not None
            asyncio.set_event_loop(self._loop)
            try:
                self._loop.run_until_complete(self.serve(ready))
            except BaseException:
                pass
            finally:
                self._loop.close()

        self._thread = threading.Thread(target=run, daemon=True, name="web")
        self._thread.start()
        ready.result(timeout=30)
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self.exit)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=10)


def _url(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def quiet_uvicorn() -> None:
    """uvicorn's own log says each refused handshake; the table's log says what matters."""
    logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
