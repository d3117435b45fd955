"""The web console started before its table (a boot, a restart) waits for it, and the pages follow."""
from __future__ import annotations

from kikimimi.api.sim_host import SimHost
from kikimimi.web.serve import WebServer, web_config


def test_pages_opened_before_the_table_get_it_once_it_is_served(tmp_path, web_client):
    journal = tmp_path / "later.jsonl"
    web = WebServer(web_config(journal, None, bind=["127.0.0.1:0"], audience=["127.0.0.1:0"])).start()
    host = None
    try:
        plain = int(web.urls[1].rsplit(":", 1)[1])
        audience = web_client(plain, web.cert, tls=False)
        stream = audience.events("/api/audience/events")
        first = stream.next()
        assert first["welcome"] and not first["connected"] and first["events"] == []
        host = SimHost("trident", 1, 3, journal=journal)
        host.start()
        welcomed = stream.until(lambda m: m.get("welcome") and m.get("connected"))
        assert welcomed[-1]["header"]["game"] == "trident" and welcomed[-1]["events"]
        stream.close()
    finally:
        web.stop()
        if host is not None:
            host.close()
