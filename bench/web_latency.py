"""How long a table event takes to reach the web console's page, beside the terminal console's.

A whole bot game (SimHost: a real Daemon with its journal and the API open)
with the web console on loopback, one referee page's stream over TLS and
one audience page's stream over plain HTTP, and the terminal console's own
client (`kikimimi.api.client.ApiClient`, what `kikimimi console` uses) on
the referee socket, all in one run.  Each event is timed from the moment
the daemon hands it to its listeners (after the journal took the line) to
the moment each reader has parsed it (the page's is its EventSource
`data:` line, as the browser receives it):

    .venv/bin/python bench/web_latency.py [--game witch] [--seed 2] [--pace 0.01]

The audience's events are numbered on their own (`kikimimi.table.public`), so
each is timed from when the same numbering, fed the same events, reached it.

Then the idle cost: the same table, no move, with the web console and both
pages open, against the table alone (the anchor), as the process's CPU time
over `--idle` seconds (percent of one core).  The goal: p95 <= 50 ms
and the idle table with the web console under 5 % of a core.
"""
from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import ssl
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kikimimi.api import paths  # noqa: E402
from kikimimi.api.client import ApiClient  # noqa: E402
from kikimimi.api.sim_host import SimHost  # noqa: E402
from kikimimi.contract.registry import declaration  # noqa: E402
from kikimimi.web.serve import WebServer, web_config  # noqa: E402
from kikimimi.web.store import Store, folder_for  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def summary(values: list[float]) -> str:
    if not values:
        return "no events"
    return (f"p50 {percentile(values, 0.5) * 1e3:6.2f} ms   p95 {percentile(values, 0.95) * 1e3:6.2f} ms   "
            f"max {max(values) * 1e3:6.2f} ms   ({len(values)} events)")


class Page(threading.Thread):
    """One page's event stream, read as the browser reads it: `data:` lines, timed when parsed."""

    def __init__(self, port: int, path: str, cert: Path | None, cookie: str = ""):
        super().__init__(daemon=True)
        if cert is not None:
            ctx = ssl.create_default_context(cafile=str(cert))
            self.conn: http.client.HTTPConnection = http.client.HTTPSConnection("127.0.0.1", port, context=ctx)
        else:
            self.conn = http.client.HTTPConnection("127.0.0.1", port)
        headers = {"Host": f"127.0.0.1:{port}", "Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = cookie
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.arrived: dict[tuple[float, str], float] = {}  # (t, text) -> when
        self.welcomed = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            while line := self.response.fp.readline():
                if not line.startswith(b"data: "):
                    continue
                now = time.perf_counter()
                message = json.loads(line[6:])
                if message.get("welcome"):
                    self.welcomed.set()
                for ev in message.get("events", []):
                    self.arrived.setdefault((ev.get("seq"), ev.get("text")), now)
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        try:
            self.conn.sock.shutdown(2)  # type: ignore[union-attr]
        except (OSError, AttributeError):
            pass


def pair(port: int, cert: Path, journal: Path) -> str:
    ctx = ssl.create_default_context(cafile=str(cert))
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx)
    code = Store(folder_for(journal)).new_code("referee")
    conn.request("POST", "/api/pair", body=json.dumps({"code": code}),
                 headers={"Host": f"127.0.0.1:{port}", "Origin": f"https://127.0.0.1:{port}",
                          "Content-Type": "application/json"})
    r = conn.getresponse()
    r.read()
    assert r.status == 200, r.status
    return str(r.getheader("set-cookie", "")).split(";", 1)[0]


class Terminal(threading.Thread):
    """The terminal console's client on the referee socket, in its own loop."""

    def __init__(self, journal: Path):
        super().__init__(daemon=True)
        self.journal = journal
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = threading.Event()
        self.start()
        self.ready.wait(10)

    def run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        client = await ApiClient.connect(paths.referee_socket(self.journal))

        def pushed(push: dict[str, Any] | None) -> None:
            now = time.perf_counter()
            for ev in (push or {}).get("events", []):
                self.arrived.setdefault(ev.get("seq"), now)

        client.on_push = pushed
        self.ready.set()
        while not self.stop.is_set():
            await asyncio.sleep(0.05)
        await client.close()


def latency(game: str, seed: int, pace: float, tmp: Path) -> None:
    from kikimimi.console.render import event_line

    from kikimimi.table.public import PublicView

    players = declaration(game).default_players
    logged: dict[int, float] = {}
    texts: dict[int, tuple[Any, str | None]] = {}
    public = PublicView()  # the audience's own numbering, as the API's spectator socket numbers
    public_logged: dict[int, float] = {}

    def watch(line: dict[str, Any], events: Any) -> None:
        now = time.perf_counter()
        for ev in events:
            if isinstance(ev.get("seq"), int):
                logged.setdefault(ev["seq"], now)
                texts[ev["seq"]] = (ev["seq"], event_line(ev))
        for shown in public(events):
            if isinstance(shown.get("seq"), int):
                public_logged.setdefault(shown["seq"], now)

    journal = tmp / f"{game}.jsonl"
    host = SimHost(game, seed, players, journal=journal)
    host.start()
    with host.daemon.lock:  # the opening is numbered too (it reaches the pages in their welcome)
        public(host.daemon.log)
        host.daemon.subscribe(watch)
    web = WebServer(web_config(journal, None, bind=["127.0.0.1:0"], audience=["127.0.0.1:0"])).start()
    port, plain = (int(u.rsplit(":", 1)[1]) for u in web.urls)
    while not (web.bridge.referee.connected and web.bridge.audience.connected):
        time.sleep(0.01)
    referee = Page(port, "/api/referee/events", web.cert, pair(port, web.cert, journal))
    audience = Page(plain, "/api/audience/events", None)
    terminal = Terminal(journal)
    referee.welcomed.wait(10)
    audience.welcomed.wait(10)
    started = time.perf_counter()
    while host.step():
        time.sleep(pace)  # the bots' pace: a table's moves come one at a time
    took = time.perf_counter() - started
    time.sleep(0.5)  # the last pushes arrive
    page_lat = [referee.arrived[key] - logged[seq] for seq, key in texts.items()
                if key in referee.arrived and key[1] is not None]
    term_lat = [terminal.arrived[seq] - logged[seq] for seq in logged if seq in terminal.arrived]
    aud_lat = [when - public_logged[seq] for (seq, _), when in audience.arrived.items()
               if isinstance(seq, int) and seq in public_logged]
    print(f"{game}, {players} players, seed {seed}: {len(host.daemon.lines)} inputs, {len(logged)} events "
          f"in {took:.1f} s (pace {pace * 1e3:.0f} ms)")
    print(f"  terminal console (API client) : {summary(term_lat)}")
    print(f"  web referee page (SSE, TLS)   : {summary(page_lat)}")
    print(f"  web audience page (SSE, HTTP) : {summary(aud_lat)}")
    terminal.stop.set()
    referee.close()
    audience.close()
    web.stop()
    host.close()


def idle(seconds: float, tmp: Path) -> None:
    def cpu(with_web: bool) -> float:
        journal = tmp / f"idle-{with_web}.jsonl"
        host = SimHost("trident", 1, 3, journal=journal)
        host.start()
        web = pages = None
        if with_web:
            web = WebServer(web_config(journal, None, bind=["127.0.0.1:0"], audience=["127.0.0.1:0"])).start()
            port, plain = (int(u.rsplit(":", 1)[1]) for u in web.urls)
            while not (web.bridge.referee.connected and web.bridge.audience.connected):
                time.sleep(0.01)
            pages = [Page(port, "/api/referee/events", web.cert, pair(port, web.cert, journal)),
                     Page(plain, "/api/audience/events", None)]
        time.sleep(1.0)  # settled
        c0, w0 = time.process_time(), time.perf_counter()
        time.sleep(seconds)
        share = (time.process_time() - c0) / (time.perf_counter() - w0)
        for p in pages or []:
            p.close()
        if web is not None:
            web.stop()
        host.close()
        return share

    alone, on = cpu(False), cpu(True)
    print(f"idle table, {seconds:g} s: table alone {alone * 100:.2f} % of a core (anchor); "
          f"with the web console and two pages open {on * 100:.2f} % (goal < 5 %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="witch")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--pace", type=float, default=0.01, help="seconds between bot moves")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        latency(args.game, args.seed, args.pace, Path(tmp))
        idle(args.idle, Path(tmp))


if __name__ == "__main__":
    main()
