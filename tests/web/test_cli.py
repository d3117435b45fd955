"""`kikimimi web pair | devices | revoke` and the table file's `[web]` section, each answered in one line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kikimimi.cli import main
from kikimimi.table.config import ConfigError, load_table_config
from kikimimi.web.store import Store, folder_for

TABLE = Path(__file__).resolve().parents[2] / "games" / "trident" / "sim.toml"


def _table(tmp_path: Path, web: str) -> Path:
    text = TABLE.read_text().replace('journal = "var/trident-sim.jsonl"', f'journal = "{tmp_path}/t.jsonl"')
    path = tmp_path / "table.toml"
    path.write_text(text + "\n[web]\n" + web)
    return path


def test_pair_devices_and_revoke_from_the_box(tmp_path, capsys):
    table = _table(tmp_path, 'bind = ["127.0.0.1:8443"]\naudience = ["127.0.0.1:8080"]\n')
    assert load_table_config(table).web["bind"] == ["127.0.0.1:8443"]
    assert main(["web", "pair", str(table), "--role", "owner"]) == 0
    out = capsys.readouterr().out
    code = re.search(r"code for a owner: (\d{3}) (\d{3})", out)
    assert code and "https://127.0.0.1:8443/pair" in out and re.search(r"fingerprint is ([0-9A-F]{2}:){31}[0-9A-F]{2}", out)
    store = Store(folder_for(tmp_path / "t.jsonl"))
    device, _ = store.redeem(code.group(1) + code.group(2), "phone") or (None, None)
    assert device is not None and device.role == "owner"
    assert main(["web", "devices", str(table)]) == 0
    assert device.id in capsys.readouterr().out
    assert main(["web", "revoke", str(table), device.id]) == 0
    assert store.devices() == []
    assert main(["web", "revoke", str(table), device.id]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no paired device" in err


@pytest.mark.parametrize("web,problem", [
    ('bind = "127.0.0.1:8443"\n', "web.bind: must be a list"),
    ('listen = ["127.0.0.1:8443"]\n', "web.listen: unknown key"),
])
def test_a_bad_web_section_is_one_line(tmp_path, web, problem):
    with pytest.raises(ConfigError, match=re.escape(problem)):
        load_table_config(_table(tmp_path, web))


@pytest.mark.parametrize("bind,problem", [
    ("the-box:8443", "not an IP address"),
    ("0.0.0.0:8443", "every network the box is on"),
    ("[::]:8443", "every network the box is on"),
    ("127.0.0.1:99999", "an address is HOST:PORT"),
])
def test_an_address_that_is_no_address_of_the_box_is_refused_in_one_line(tmp_path, capsys, bind, problem):
    table = _table(tmp_path, f'bind = ["{bind}"]\n')
    assert main(["web", "pair", str(table)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and problem in err


def test_kikimimi_web_serves_a_running_table_and_stops_on_sigterm(serve_table, tmp_path):
    """The command as a service runs it: its own process, the table's journal, SIGTERM ends it."""
    import http.client
    import os
    import signal
    import ssl
    import subprocess
    import sys

    served = serve_table("trident", 1, 3)
    served.web.stop()  # the fixture's own web console: this test runs the command instead
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "web", "--journal", str(served.journal),
                             "--bind", "127.0.0.1:0", "--audience", "127.0.0.1:0"],
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        lines = []
        while len([line for line in lines if " at http" in line]) < 2:
            line = proc.stderr.readline()  # type: ignore[union-attr]
            assert line, f"kikimimi web ended: {lines}"
            lines.append(line)
        assert any("fingerprint" in line for line in lines)
        url = next(line for line in lines if "at https://" in line).split(" at ")[1].strip().rstrip("/")
        port = int(url.rsplit(":", 1)[1])
        ctx = ssl.create_default_context(cafile=str(served.store.folder / "cert.pem"))
        conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx, timeout=20)
        conn.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
        assert conn.getresponse().status == 200
        conn.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
