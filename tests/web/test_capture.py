"""What an adversary on the network sees, and one table shared by every console.

The capture: a small TCP proxy on loopback sits between the referee's client
and the TLS server and keeps every byte both ways, as a sniffer on the club's
Wi-Fi would.  The session carries the game's secrets (the referee's stream
holds every whisper, the pairing code and the session token travel too), so
each is checked to be in what the client decrypted, and absent from the wire.
"""
from __future__ import annotations

import asyncio
import socket
import threading

from kikimimi.api.client import ApiClient
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.script import read_script


class Tap:
    """A loopback TCP proxy to `port`, keeping every byte it passes."""

    def __init__(self, port: int):
        self.target = port
        self.wire = bytearray()
        self.lock = threading.Lock()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.server.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                with self.lock:
                    self.wire += data
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()


def test_a_referee_session_on_the_wire_holds_no_secret(serve_table):
    served = serve_table("witch", 2, 6)
    tap = Tap(served.port)
    try:
        referee = served.client(tap.port)
        code = served.store.new_code("referee")
        assert referee.post("/api/pair", {"code": code}, csrf=False).status == 200
        stream = referee.events("/api/referee/events")
        stream.until(lambda m: m.get("welcome"))
        for _ in range(40):
            if not served.host.step():
                break
        served.wait_caught_up(served.web.bridge.referee)
        assert referee.command("pause").json()["ok"]
        stream.until(lambda m: any("state=paused" in e["text"] for e in m.get("events", [])))
        stream.close()
    finally:
        tap.close()
    log = served.host.daemon.log
    whispers = {ev["text"] for ev in log if not visible_to(ev, None) and isinstance(ev.get("text"), str)
                and len(ev["text"]) >= 8}
    secrets = whispers | {code, referee.cookie.split("=", 1)[1], referee.csrf_token}
    decrypted = bytes(stream.raw).decode()
    assert len(whispers) >= 5 and all(text in decrypted for text in whispers)  # they did travel
    with tap.lock:
        wire = bytes(tap.wire)
    assert wire[:1] == b"\x16" and len(wire) > 10_000  # a TLS handshake, then the session
    on_the_wire = sorted(s for s in secrets if s.encode() in wire)
    assert on_the_wire == []
    assert b"HTTP/1.1" not in wire and b"__Host-kikimimi" not in wire


async def _terminal_console(served):
    from kikimimi.api import paths

    return await ApiClient.connect(paths.referee_socket(served.journal))


def test_two_phones_and_the_terminal_console_see_one_table_and_the_journal_comes_first(serve_table):
    served = serve_table("trident", 4, 3)
    phone_a, phone_b = served.paired("referee"), served.paired("referee")
    streams = [phone.events("/api/referee/events") for phone in (phone_a, phone_b)]
    for s in streams:
        s.until(lambda m: m.get("welcome"))
    loop = asyncio.new_event_loop()
    try:
        console = loop.run_until_complete(_terminal_console(served))
        answer = phone_a.command("pause")
        assert answer.status == 200 and answer.json()["ok"], answer.body
        # journal-first: by the time the phone is answered, the line is on disk
        on_disk = [item for _, item in read_script(served.journal).lines]
        assert on_disk[-1]["console"] == "pause"
        push = loop.run_until_complete(console.next_push())
        assert push is not None and push["input"]["console"] == "pause"
        paused = [ev["seq"] for ev in push["events"] if ev.get("type") == "clock" and ev.get("state") == "paused"]
        assert paused
        for s in streams:  # phone B saw phone A's command, as the terminal console did
            s.until(lambda m: any(e.get("seq") == paused[0] and "state=paused" in e["text"]
                                  for e in m.get("events", [])))
        reply = loop.run_until_complete(console.command("resume"))
        assert reply["ok"]
        for s in streams:  # and both phones see the terminal console's
            s.until(lambda m: any("state=running" in e["text"] for e in m.get("events", [])))
        loop.run_until_complete(console.close())
    finally:
        loop.close()
        for s in streams:
            s.close()
