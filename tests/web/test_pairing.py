"""Pairing and the guards: who may open the referee's and owner's views, and what is refused.

Every request here is a real one through TLS to the real servers on loopback."""
from __future__ import annotations

import json
import logging
import stat
import time

from kikimimi.web import store as store_mod
from kikimimi.web.throttle import BURST

REFEREE_ONLY = ["/api/referee/events", "/api/owner/doctor", "/api/owner/records", "/api/owner/devices",
                "/api/session"]


def _one_line_error(answer) -> str:
    assert answer.headers["content-type"] == "application/json"
    assert b"\n" not in answer.body.strip()
    return answer.json()["error"]


def test_a_code_pairs_once_and_the_cookie_is_locked_down(served):
    client = served.client()
    code = served.store.new_code("referee")
    answer = client.post("/api/pair", {"code": code}, csrf=False)
    assert answer.status == 200, answer.body
    cookie = answer.headers["set-cookie"]
    for flag in ("HttpOnly", "Secure", "SameSite=strict", "Path=/"):
        assert flag in cookie
    assert cookie.startswith("__Host-kikimimi=")
    assert client.get("/api/session").json()["role"] == "referee"
    assert client.get("/referee").status == 200
    # the same code again (a replayed pairing) pairs nobody
    again = served.client().post("/api/pair", {"code": code}, csrf=False)
    assert again.status == 403 and "wrong, used or expired" in _one_line_error(again)
    # an owner's view is not a referee's
    assert client.get("/api/owner/doctor").status == 403


def test_codes_expire(served):
    store = served.store
    code = store.new_code("owner", now=time.time() - store_mod.CODE_LIFETIME - 1)
    answer = served.client().post("/api/pair", {"code": code}, csrf=False)
    assert answer.status == 403


def test_nothing_secret_is_stored_as_given_and_only_the_table_user_reads_it(served):
    client = served.paired("referee")
    code = served.store.new_code("owner")
    folder = served.store.folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    token = client.cookie.split("=", 1)[1]
    for path in folder.iterdir():
        if path.name == "lock":
            continue
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        text = path.read_text()
        assert token not in text and code not in text


def test_unpaired_requests_are_refused(served):
    stranger = served.client()
    for path in REFEREE_ONLY:
        answer = stranger.get(path)
        assert answer.status == 401, path
        assert "not paired" in _one_line_error(answer)
    assert stranger.get("/referee").status == 303  # the page sends a stranger to pairing
    answer = stranger.post("/api/referee/command", {"text": "pause"}, csrf=False)
    assert answer.status == 401
    forged = stranger.request("GET", "/api/session", headers={"Cookie": "__Host-kikimimi=" + "A" * 43})
    assert forged.status == 401


def test_cross_site_replayed_and_tokenless_requests_are_refused(served):
    referee = served.paired("referee")
    ok = referee.command("pause")
    assert ok.status == 200 and ok.json()["ok"], ok.body
    # another site's page: its Origin, or a cross-site fetch
    evil = referee.post("/api/referee/command", {"text": "resume"}, headers={"Origin": "https://evil.example"})
    assert evil.status == 403 and "own page" in _one_line_error(evil)
    cross = referee.post("/api/referee/command", {"text": "resume"}, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status == 403
    # no CSRF token, or a wrong one
    assert referee.post("/api/referee/command", {"text": "resume"}, csrf=False).status == 403
    assert referee.post("/api/referee/command", {"text": "resume"},
                        headers={"X-CSRF-Token": "x" * 43}).status == 403
    # a request seen before (same nonce) or an old one is a replay
    nonce = f"{int(time.time() * 1000)}.{'ab' * 16}"
    assert referee.post("/api/referee/command", {"text": "resume"}, nonce=nonce).status == 200
    replay = referee.post("/api/referee/command", {"text": "resume"}, nonce=nonce)
    assert replay.status == 409 and "replayed" in _one_line_error(replay)
    stale = f"{int((time.time() - 3600) * 1000)}.{'cd' * 16}"
    assert referee.post("/api/referee/command", {"text": "resume"}, nonce=stale).status == 409
    # a form post (not JSON) is refused before anything reads it
    form = referee.request("POST", "/api/referee/command", b"text=stop",
                           {"Origin": referee.origin, "Content-Type": "application/x-www-form-urlencoded"})
    assert form.status == 415
    # the journal holds exactly the two accepted commands
    consoles = [item.get("console") for _, item in served.host.daemon.lines if "console" in item]
    assert consoles == ["pause", "resume"]


def test_other_hosts_big_bodies_and_unknown_paths_get_one_line(served):
    client = served.paired("referee")
    rebinding = client.request("GET", "/api/session", headers={"Host": f"attacker.example:{served.port}"})
    assert rebinding.status == 421 and "host name" in _one_line_error(rebinding)
    big = client.post("/api/referee/command", {"text": "x" * 5000})
    assert big.status == 413
    assert client.get("/nothing-here").status == 404 and _one_line_error(client.get("/nothing-here"))
    bad = client.request("POST", "/api/referee/command", b"{not json",
                         {"Origin": client.origin, "Content-Type": "application/json", "X-CSRF-Token": client.csrf_token,
                          "X-Kikimimi-Nonce": f"{int(time.time() * 1000)}.{'ef' * 16}"})
    assert bad.status == 400 and _one_line_error(bad) == "the body is not JSON"


def test_the_plain_audience_server_has_no_paired_view(served):
    plain = served.client(served.audience_port)
    plain.tls = False
    assert plain.get("/").status == 200
    for path in ("/pair", "/referee", "/api/session", "/api/referee/events"):
        answer = plain.get(path)
        assert answer.status == 403 and "TLS only" in _one_line_error(answer), path


def test_a_revoked_device_is_refused_at_once(served):
    owner = served.paired("owner")
    referee = served.paired("referee")
    devices = owner.get("/api/owner/devices").json()["devices"]
    assert sorted(d["role"] for d in devices) == ["owner", "referee"]
    victim = next(d["id"] for d in devices if d["role"] == "referee")
    following = referee.events("/api/referee/events")
    assert following.next().get("welcome")
    assert owner.post("/api/owner/revoke", {"id": victim}).status == 200
    assert following.next() is None  # its open page ends at once, secrets stop flowing
    following.close()
    assert referee.get("/api/session").status == 401
    assert referee.command("pause").status == 401
    refused = referee.events("/api/referee/events")
    assert refused.status == 401
    refused.close()


def test_one_client_cannot_hold_every_page(served):
    from kikimimi.web.bridge import PAGES_PER_CLIENT

    audience = served.client(served.audience_port)
    audience.tls = False
    streams = [audience.events("/api/audience/events") for _ in range(PAGES_PER_CLIENT)]
    try:
        assert all(s.status == 200 for s in streams)
        one_more = audience.events("/api/audience/events")
        assert one_more.status == 503
        one_more.close()
    finally:
        for s in streams:
            s.close()


def test_a_flood_of_pairing_tries_is_slowed_and_logged(served, caplog):
    caplog.set_level(logging.WARNING, logger="kikimimi.web")
    client = served.client()
    for _ in range(BURST):
        assert client.post("/api/pair", {"code": "000000"}, csrf=False).status == 403
    code = served.store.new_code("referee")
    delays = []
    for _ in range(3):
        started = time.monotonic()
        answer = client.post("/api/pair", {"code": code}, csrf=False)  # even the right code, during a flood
        delays.append(time.monotonic() - started)
        assert answer.status == 429 and "too many" in _one_line_error(answer)
    assert delays[-1] >= 0.7  # each refusal waits longer: 0.25, 0.5, 0.75 s
    assert any("pairing flood from 127.0.0.1" in r.getMessage() for r in caplog.records)
    assert served.web.console is not None and served.web.console.throttle.refused("127.0.0.1") == 3
    assert json.loads(client.get("/api/session").body)["error"].startswith("not paired")
