"""The web console's pages and endpoints (Starlette), and the guards in front of them.

Two apps are built over one `Bridge` and one `Store`: the paired one, served
over TLS only (referee, owner, pairing, and the audience too), and the
audience-only one that may be served as plain HTTP, which has no paired
route at all (asked for one, it says where the TLS view is).

Guards, as web frameworks do them:
- the Host header must name this table (a bind address or `[web] names`),
  so a page elsewhere cannot reach it through DNS rebinding;
- every state-changing request must be a POST of JSON from this table's own
  Origin, carry the session's CSRF token and a fresh nonce (a request seen
  before, or older than `NONCE_WINDOW`, is a replay and refused);
- the session cookie is `__Host-`, HttpOnly, Secure, SameSite=Strict; it is
  the device's pairing, revoked with the device;
- bodies are bounded (`MAX_BODY`), and every error is one line of JSON
  `{"error": "..."}` with its status, never a page or a traceback.
"""
from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kikimimi.console.commands import CommandError, parse_command
from kikimimi.console.follow import reply_text
from kikimimi.web.bridge import Bridge, Side
from kikimimi.web.store import Device, Store, StoreError
from kikimimi.web.throttle import Throttle

log = logging.getLogger("kikimimi.web")

STATIC = Path(__file__).with_name("static")
PAGES = {"/": "audience.html", "/pair": "pair.html", "/referee": "referee.html", "/owner": "owner.html"}
ASSETS = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
          "strings.js": "text/javascript; charset=utf-8"}
COOKIE = "__Host-kikimimi"
#: Largest request body, bytes (a command line, a code).
MAX_BODY = 4096
#: A nonce older or newer than this (seconds) is refused; seen nonces are kept this long.
NONCE_WINDOW = 120.0
MAX_NONCES = 20000
#: Seconds between a stream's keep-alive comments (and checks that its device is still paired).
KEEPALIVE = 15.0
#: A paired device stays paired this long unless revoked (the cookie's Max-Age).
SESSION_SECONDS = 365 * 24 * 3600
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                                 b"img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class Refusal(Exception):
    """A request answered with one line of JSON and a status."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status
        self.why = why


def error(status: int, why: str) -> JSONResponse:
    return JSONResponse({"error": why}, status_code=status)


class Guard:
    """ASGI middleware: the Host check, the Origin check, body bounds and the security headers."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str], *, tls: bool):
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.tls = tls

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        why = self._refusal(scope, headers, host)
        extra = list(SECURITY_HEADERS)
        if self.tls:
            extra.append((b"strict-transport-security", b"max-age=31536000"))

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if why is not None:
            await error(why[0], why[1])(scope, receive, guarded_send)
            return
        await self.app(scope, receive, guarded_send)

    def _refusal(self, scope: Scope, headers: Mapping[str, str], host: str) -> tuple[int, str] | None:
        if _hostname(host) not in self.hosts:
            return 421, "this is not the host name of the table (use the address the box printed)"
        length = headers.get("content-length")
        if length is not None and (not length.isdecimal() or int(length) > MAX_BODY):
            return 413, f"a request body is at most {MAX_BODY} bytes"
        if scope["method"] not in ("GET", "HEAD"):
            scheme = "https" if self.tls else "http"
            if headers.get("origin") != f"{scheme}://{host}":
                return 403, "refused: a request that changes the table must come from the table's own page"
            if headers.get("sec-fetch-site") not in (None, "same-origin"):
                return 403, "refused: a cross-site request"
            if not headers.get("content-type", "").startswith("application/json"):
                return 415, "a request body is JSON (Content-Type: application/json)"
        return None


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Nonces:
    """Nonces seen lately: `TIME_MS.RANDOM`, each accepted once within `NONCE_WINDOW`."""

    def __init__(self) -> None:
        self.seen: dict[str, float] = {}

    def fresh(self, nonce: str, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        stamp, _, rest = nonce.partition(".")
        if not (stamp.isdecimal() and len(stamp) <= 16 and 16 <= len(rest) <= 64 and rest.isalnum()):
            return False
        if abs(int(stamp) / 1000 - now) > NONCE_WINDOW:
            return False
        if nonce in self.seen:
            return False
        if len(self.seen) >= MAX_NONCES:
            self.seen = {k: t for k, t in self.seen.items() if t > now - NONCE_WINDOW}
            if len(self.seen) >= MAX_NONCES:
                return False
        self.seen[nonce] = now
        return True


class Console:
    """What both apps share: the table's bridge, the pairing store, the throttle."""

    def __init__(self, bridge: Bridge, store: Store, *, config_path: Path | None = None,
                 fingerprint: str = "", tls_url: str = ""):
        self.bridge = bridge
        self.store = store
        self.throttle = Throttle()
        self.nonces = Nonces()
        self.config_path = config_path
        self.fingerprint = fingerprint
        self.tls_url = tls_url
        self._doctor: tuple[float, list[dict[str, Any]]] | None = None

    # -- sessions -----------------------------------------------------------------
    def device(self, request: Request, role: str | None = None) -> tuple[Device, str]:
        token = request.cookies.get(COOKIE, "")
        try:
            device = self.store.device_for(token)
        except StoreError as exc:
            raise Refusal(500, str(exc)) from None
        if device is None:
            raise Refusal(401, "not paired: pair this device with a code from the box (kikimimi web pair)")
        if role is not None and device.role != role:
            raise Refusal(403, f"this device is paired as {device.role}, not {role}")
        return device, token

    async def changing(self, request: Request, role: str) -> tuple[Device, dict[str, Any]]:
        """A state-changing request: paired as `role`, its CSRF token, a fresh nonce, a JSON object."""
        device, token = self.device(request, role)
        given = request.headers.get("x-csrf-token", "")
        if not hmac.compare_digest(given.encode(), self.store.csrf_for(token).encode()):
            raise Refusal(403, "refused: missing or wrong CSRF token (reload the page)")
        if not self.nonces.fresh(request.headers.get("x-kikimimi-nonce", "")):
            raise Refusal(409, "refused: a replayed or stale request (each request is sent once)")
        return device, await body(request)

    def doctor(self) -> list[dict[str, Any]]:
        """`kikimimi doctor` for the table file, kept a few seconds (it probes devices)."""
        now = time.monotonic()
        if self._doctor is None or now - self._doctor[0] > 10:
            from kikimimi.box.doctor import run

            checks = run(str(self.config_path) if self.config_path else None)
            self._doctor = (now, [{"name": c.name, "ok": c.ok, "detail": c.detail, "fix": c.fix} for c in checks])
        return self._doctor[1]


async def body(request: Request) -> dict[str, Any]:
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise Refusal(413, f"a request body is at most {MAX_BODY} bytes")
    try:
        parsed = json.loads(data or b"{}")
    except (ValueError, RecursionError):
        raise Refusal(400, "the body is not JSON") from None
    if not isinstance(parsed, dict):
        raise Refusal(400, "the body is a JSON object")
    return parsed


def client_of(request: Request) -> str:
    return request.client.host if request.client else "?"


Handler = Callable[[Request], Awaitable[Response]]


def guarded(handler: Handler) -> Handler:
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as exc:
            return error(exc.status, exc.why)
    return run


def page(name: str) -> Handler:
    async def serve(request: Request) -> Response:
        return Response((STATIC / name).read_bytes(), media_type="text/html; charset=utf-8")
    return serve


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ASSETS:
        return error(404, "no such file")
    return Response((STATIC / name).read_bytes(), media_type=ASSETS[name])


def stream(side: Side, request: Request, device: str = "",
           still_allowed: Callable[[], bool] = lambda: True) -> Response:
    """Server-sent events: the side's welcome, then every push, until the page goes."""
    queue = side.join(client_of(request), device)
    if queue is None:
        return error(503, "this table already has enough pages open from here: close one and try again")

    async def events() -> Any:
        try:
            yield b"retry: 2000\n\n"
            while True:
                try:
                    data = await asyncio.wait_for(queue.get(), KEEPALIVE)
                except asyncio.TimeoutError:
                    if not still_allowed():
                        return
                    yield b": keep-alive\n\n"
                    continue
                if data is None:
                    return
                yield data
        finally:
            side.leave(queue)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"x-accel-buffering": "no"})


def _error_handler(request: Request, exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        why = {404: "no such page", 405: "that method is not allowed here"}.get(exc.status_code, str(exc.detail))
        return error(exc.status_code, why)
    log.error("web console: %s", exc)
    return error(500, "the web console failed on this request (logged at the box)")


def audience_app(console: Console, hosts: Iterable[str], *, tls: bool = False) -> ASGIApp:
    """Only the public view: fit for plain HTTP on a shared network."""
    return Guard(Starlette(routes=_public_routes(console, tls=tls),
                           exception_handlers={HTTPException: _error_handler, Exception: _error_handler}),
                 hosts, tls=tls)


def _public_routes(console: Console, *, tls: bool) -> list[Route]:
    async def audience_events(request: Request) -> Response:
        return stream(console.bridge.audience, request)

    routes = [Route("/", page(PAGES["/"])), Route("/static/{name}", asset),
              Route("/api/audience/events", audience_events)]
    if not tls:
        async def elsewhere(request: Request) -> Response:
            where = f" ({console.tls_url})" if console.tls_url else ""
            return error(403, f"the referee's and owner's views are served over TLS only{where}")
        for path in ("/pair", "/referee", "/owner", "/api/{rest:path}"):
            routes.append(Route(path, elsewhere, methods=["GET", "POST"]))
    return routes


def paired_app(console: Console, hosts: Iterable[str]) -> ASGIApp:
    """Every view, over TLS."""
    store, bridge = console.store, console.bridge

    @guarded
    async def pair(request: Request) -> Response:
        who = client_of(request)
        delay = console.throttle.attempt(who)
        if delay is not None:
            await asyncio.sleep(delay)
            return error(429, "too many pairing tries: wait a minute, then try the code again")
        data = await body(request)
        code = data.get("code")
        if not isinstance(code, str) or len(code) > 32:
            raise Refusal(400, "give the code the box printed")
        try:
            redeemed = store.redeem(code, request.headers.get("user-agent", "a browser")[:60])
        except StoreError as exc:
            raise Refusal(500, str(exc)) from None
        if redeemed is None:
            log.warning("web console: a wrong, used or expired pairing code from %s", who)
            raise Refusal(403, "that code is wrong, used or expired: ask the box for a new one")
        device, token = redeemed
        log.warning("web console: device %s paired as %s from %s", device.id, device.role, who)
        response = JSONResponse({"role": device.role, "device": device.id, "csrf": store.csrf_for(token)})
        response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, path="/", secure=True, httponly=True,
                            samesite="strict")
        return response

    @guarded
    async def session(request: Request) -> Response:
        device, token = console.device(request)
        return JSONResponse({"role": device.role, "device": device.id, "csrf": store.csrf_for(token),
                             "fingerprint": console.fingerprint, "seats": bridge.referee.follow.players})

    @guarded
    async def forget(request: Request) -> Response:
        device, _ = console.device(request)
        await console.changing(request, device.role)
        store.revoke(device.id)
        bridge.referee.end_device(device.id)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/", secure=True, httponly=True, samesite="strict")
        return response

    def paired_page(name: str, role: str) -> Handler:
        async def serve(request: Request) -> Response:
            try:
                console.device(request, role)
            except Refusal:
                return RedirectResponse("/pair", status_code=303)
            return await page(name)(request)
        return serve

    @guarded
    async def referee_events(request: Request) -> Response:
        device, token = console.device(request, "referee")
        return stream(bridge.referee, request, device.id, lambda: store.device_for(token) is not None)

    @guarded
    async def command(request: Request) -> Response:
        _, data = await console.changing(request, "referee")
        if "undo" in data:
            expect = data["undo"]
            if not isinstance(expect, int) or isinstance(expect, bool):
                raise Refusal(400, '"undo" names the input number the page showed')
            reply = await bridge.referee.submit({"console": "undo"}, expect_last=expect)
            return JSONResponse({"ok": bool(reply.get("ok")), "text": reply_text("undo", reply)})
        text = data.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise Refusal(400, '"text" is one command line (at most 200 characters)')
        try:
            parsed = parse_command(text, bridge.referee.follow.players)
        except CommandError as exc:
            raise Refusal(400, str(exc)) from None
        if parsed is None or parsed.kind != "submit" or parsed.line is None:
            raise Refusal(400, "that is the terminal console's own word: the page has a button for it")
        reply = await bridge.referee.submit(parsed.line)
        return JSONResponse({"ok": bool(reply.get("ok")), "text": reply_text(text, reply)})

    @guarded
    async def games(request: Request) -> Response:
        console.device(request, "referee")
        return JSONResponse({"games": await asyncio.to_thread(bridge.referee.games)})

    @guarded
    async def doctor(request: Request) -> Response:
        console.device(request, "owner")
        checks = await asyncio.to_thread(console.doctor)
        return JSONResponse({"checks": checks})

    @guarded
    async def records(request: Request) -> Response:
        console.device(request, "owner")
        return JSONResponse({"players": await asyncio.to_thread(_records, console.config_path)})

    @guarded
    async def devices(request: Request) -> Response:
        console.device(request, "owner")
        return JSONResponse({"devices": [{"id": d.id, "role": d.role, "name": d.name, "paired": d.paired}
                                         for d in store.devices()]})

    @guarded
    async def say(request: Request) -> Response:
        """The owner's output test or the fingerprint, said by the table's own outputs."""
        _, data = await console.changing(request, "owner")
        what, output = data.get("what"), data.get("output", "")
        if what not in ("output", "fingerprint") or not isinstance(output, str) or len(output) > 12:
            raise Refusal(400, '"what" is output (with "output": speaker or seat-N) or fingerprint')
        reply = await bridge.referee.say(what, **({"output": output} if what == "output" else {}))
        if not reply.get("ok"):
            raise Refusal(409, str(reply.get("error", "the table did not say it")).splitlines()[0][:200])
        said = [str(ev.get("text", "")) for ev in reply.get("events", []) if isinstance(ev, Mapping)]
        return JSONResponse({"ok": True, "text": "said: " + " ".join(said)})

    @guarded
    async def revoke(request: Request) -> Response:
        _, data = await console.changing(request, "owner")
        ident = data.get("id")
        if not isinstance(ident, str) or not store.revoke(ident):
            raise Refusal(404, "no such paired device")
        bridge.referee.end_device(ident)  # its open pages end now (one revoked elsewhere: at the next keep-alive)
        return JSONResponse({"ok": True})

    routes = [
        *_public_routes(console, tls=True),
        Route("/pair", page(PAGES["/pair"])),
        Route("/referee", paired_page(PAGES["/referee"], "referee")),
        Route("/owner", paired_page(PAGES["/owner"], "owner")),
        Route("/api/pair", pair, methods=["POST"]),
        Route("/api/session", session),
        Route("/api/forget", forget, methods=["POST"]),
        Route("/api/referee/events", referee_events),
        Route("/api/referee/command", command, methods=["POST"]),
        Route("/api/referee/games", games),
        Route("/api/owner/doctor", doctor),
        Route("/api/owner/records", records),
        Route("/api/owner/devices", devices),
        Route("/api/owner/revoke", revoke, methods=["POST"]),
        Route("/api/owner/say", say, methods=["POST"]),
    ]
    return Guard(Starlette(routes=routes,
                           exception_handlers={HTTPException: _error_handler, Exception: _error_handler}),
                 hosts, tls=True)


def _records(config_path: Path | None) -> list[dict[str, Any]]:
    """The club's ladder as rows (the records of the table file's `[records] db`)."""
    from kikimimi.records.club import Club
    from kikimimi.records.errors import RecordsError
    from kikimimi.records.ladder import Rank, peerage_key, rank_key
    from kikimimi.table.config import ConfigError, load_table_config

    target = None
    if config_path is not None:
        try:
            target = load_table_config(config_path).records.get("db")
        except ConfigError:
            target = None
    if target is None:
        return []
    try:
        club = Club(target, create=False)
    except RecordsError:
        return []
    try:
        rows = []
        for p in club.players():
            lad = p.ladder
            rows.append({"id": p.id, "name": p.name, "rank": rank_key(Rank(lad.rank), p.form),
                         "peerage": peerage_key(lad.peerage, p.form) if lad.peerage else None,
                         "wins": lad.wins, "games": lad.games, "sessions": lad.sessions})
        return rows
    finally:
        club.close()
