"""Said on request from the owner's page: an output's test ("Seat 2." in that earphone) and
the certificate's fingerprint on the speaker, said by the daemon's own outputs (what they
receive is what a listener of the daemon receives: the events checked here)."""
from __future__ import annotations

from kikimimi.web.tls import fingerprint


def test_the_owner_hears_an_output_and_the_fingerprint_and_bad_requests_are_one_line(served):
    heard: list[dict] = []
    served.host.daemon.subscribe(lambda line, events: heard.extend(events))  # as serve's outputs are fed
    owner = served.paired("owner")
    assert owner.get("/api/session").json()["seats"] == 3

    answer = owner.post("/api/owner/say", {"what": "output", "output": "seat-2"})
    assert answer.status == 200 and answer.json() == {"ok": True, "text": "said: Seat 2."}, answer.body
    assert [(ev["to"], ev["text"]) for ev in heard] == [("seat:2", "Seat 2.")]  # that earphone only

    owner.post("/api/owner/say", {"what": "output", "output": "speaker"})
    assert (heard[-1]["to"], heard[-1]["text"]) == ("table", "Speaker.")

    answer = owner.post("/api/owner/say", {"what": "fingerprint"})
    assert answer.status == 200, answer.body
    begins = " ".join(fingerprint(served.web.cert).split(":")[:8])  # what kikimimi web prints, its first 8 bytes
    assert heard[-1]["to"] == "table" and begins in heard[-1]["text"], (begins, heard[-1])

    said = len(heard)
    for body, status, why in (({"what": "output", "output": "seat-4"}, 409, "seat-1 .. seat-3"),
                              ({"what": "output", "output": "seat-2; rm"}, 409, "which output"),
                              ({"what": "code"}, 400, "fingerprint"),
                              ({"what": "output", "output": ["seat-1"]}, 400, "output")):
        refused = owner.post("/api/owner/say", body)
        assert refused.status == status and why in refused.json()["error"], (body, refused.body)
        assert "\n" not in refused.json()["error"]
    assert len(heard) == said  # nothing said
    referee = served.paired("referee")
    assert referee.post("/api/owner/say", {"what": "fingerprint"}).status == 403
