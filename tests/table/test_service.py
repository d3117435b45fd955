"""`kikimimi service install`: a unit systemd's own verifier accepts, refused in one line when it cannot run."""
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.game_files import game_file

SIM_TABLE = Path(str(game_file("trident", "sim.toml")))


def unprivileged_user() -> str:
    for entry in pwd.getpwall():
        if 100 <= entry.pw_uid < 65534:
            return entry.pw_name
    pytest.skip("no unprivileged user on this machine to run the unit as")


def install(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kikimimi.cli", "service", "install", *args],
                          capture_output=True, text=True, timeout=60, cwd=cwd)


def verify(unit: Path) -> list[str]:
    """systemd-analyze verify's complaints about this unit (it exits 0 on many of them)."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze missing (apt-get install systemd; scripts/setup does)")
    proc = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                          timeout=60, cwd=unit.parent)
    return [line for line in (proc.stdout + proc.stderr).splitlines() if unit.name in line or proc.returncode]


def test_the_unit_passes_systemds_verifier_and_restarts_on_failure_after_the_sound_system(tmp_path):
    table = tmp_path / "table.toml"
    table.write_text(SIM_TABLE.read_text())
    user = unprivileged_user()
    proc = install(str(table), "--user", user, "--unit-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    unit = tmp_path / "kikimimi-table.service"
    assert f"systemctl enable --now {unit.name}" in proc.stdout
    text = unit.read_text()
    assert f"User={user}\n" in text and "Restart=on-failure\n" in text
    assert "After=sound.target" in text and f"serve {table.resolve()}\n" in text
    assert "SupplementaryGroups=" in text and "audio" in text.split("SupplementaryGroups=")[1].split("\n")[0]
    assert verify(unit) == []
    # the verifier is not a rubber stamp: a broken line in the same unit is reported
    unit.write_text(text.replace("Restart=on-failure", "Restart=sometimes"))
    assert any("restart" in line.lower() for line in verify(unit))


@pytest.mark.parametrize("user,said", [("root", "unprivileged user, not root"),
                                       ("no-such-user-kk", "no user 'no-such-user-kk'")])
def test_root_or_a_missing_user_is_refused_in_one_line(tmp_path, user, said):
    table = tmp_path / "t.toml"
    table.write_text(SIM_TABLE.read_text())
    proc = install(str(table), "--user", user, "--unit-dir", str(tmp_path))
    assert proc.returncode == 2 and said in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.service"))


def test_a_table_that_cannot_start_never_becomes_a_service(tmp_path):
    table = tmp_path / "t.toml"
    table.write_text(SIM_TABLE.read_text().replace("players = 3", "players = 99"))
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(tmp_path))
    assert proc.returncode == 2 and "table.players" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.glob("*.service"))
