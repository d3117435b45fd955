"""The owner's view over TLS: doctor's findings for the table file, the club's ladder, the devices.

A referee's device may not read it, and the owner's may not referee."""
from __future__ import annotations

from pathlib import Path

from kikimimi.records.club import Club
from kikimimi.web.serve import WebServer, web_config

TABLE = Path(__file__).resolve().parents[2] / "games" / "trident" / "sim.toml"


def test_the_owner_reads_doctor_records_and_devices(serve_table, tmp_path):
    served = serve_table("trident", 1, 3)
    club_db = tmp_path / "club.sqlite"
    club = Club(club_db, create=True)
    club.add_player("Aoi", form="king")
    club.add_player("Ren", form="queen")
    club.close()
    table = tmp_path / "table.toml"
    table.write_text(TABLE.read_text().replace('journal = "var/trident-sim.jsonl"', f'journal = "{served.journal}"')
                     + f'\n[records]\ndb = "{club_db}"\n')
    served.web.stop()  # the fixture's console, replaced by one that knows the table file
    web = WebServer(web_config(served.journal, None, config_path=table, bind=["127.0.0.1:0"])).start()
    try:
        port = int(web.urls[0].rsplit(":", 1)[1])
        owner = served.client(port)  # the same folder, so the same certificate
        assert owner.post("/api/pair", {"code": served.store.new_code("owner")}, csrf=False).status == 200
        checks = owner.get("/api/owner/doctor").json()["checks"]
        names = {c["name"] for c in checks}
        assert any(name.startswith("reader") or "reader" in name for name in names), names
        assert all(set(c) == {"name", "ok", "detail", "fix"} for c in checks)
        assert all(c["fix"] for c in checks if not c["ok"]), [c for c in checks if not c["ok"] and not c["fix"]]
        players = owner.get("/api/owner/records").json()["players"]
        assert sorted(p["name"] for p in players) == ["Aoi", "Ren"]
        assert all(p["rank"] and p["wins"] == 0 for p in players)
        assert owner.get("/owner").status == 200
        assert owner.command("pause").status == 403  # an owner does not referee
        referee = served.client(port)
        assert referee.post("/api/pair", {"code": served.store.new_code("referee")}, csrf=False).status == 200
        assert referee.get("/api/owner/records").status == 403
        assert referee.get("/owner").status == 303
    finally:
        web.stop()
