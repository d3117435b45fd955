"""After `service install` the owner keeps the referee's console on the served table
(the service's group lets it in, the console finds the service's journal from the table file
alone), anyone else is refused in one line; and the install refuses, in one line with the fix,
what the unit could never use: a path under /tmp (PrivateTmp=yes), a folder systemd reads as
another, a tag map or voice pack its user cannot read."""
import os
import pwd
import shutil
import stat
import subprocess
import sys
import uuid

import pytest

from test_service import ROOT, Place, exec_argv, install, unprivileged_user

pytestmark = pytest.mark.skipif(not ROOT, reason="users are created and switched to as root")


@pytest.fixture
def place():
    p = Place("kk-owner-")
    yield p
    shutil.rmtree(p.dir, ignore_errors=True)


@pytest.fixture
def users():
    made: list[str] = []

    def make(system: bool = False) -> str:
        name = "kk-o" + uuid.uuid4().hex[:8]
        subprocess.run(["useradd", *(["--system"] if system else []), "--user-group", "--no-create-home",
                        "--shell", "/usr/sbin/nologin", name], check=True, capture_output=True, timeout=60)
        made.append(name)
        return name
    yield make
    for name in made:
        subprocess.run(["userdel", name], capture_output=True, timeout=60)
        subprocess.run(["groupdel", name], capture_output=True, timeout=60)


def refused(proc: subprocess.CompletedProcess, *said: str) -> None:
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and all(s in proc.stderr for s in said), proc.stderr


def test_a_table_under_tmp_is_refused_with_the_fix(place, tmp_path):
    table = tmp_path / "t.toml"
    shutil.copy(place.table(), table)
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    refused(proc, "is under /tmp", "PrivateTmp=yes", "/etc/kikimimi")
    assert not list(place.dir.glob("*.service"))


@pytest.mark.parametrize("folder,end", [("ends-in\\", "a backslash"), ("ends in ", "a space")])
def test_a_folder_systemd_would_read_as_another_is_refused(place, folder, end):
    table = place.table(folder=folder)
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    refused(proc, f"ends in {end}", "rename the folder")
    assert not list(place.dir.glob("*.service"))


def test_a_tag_map_or_voice_pack_the_service_cannot_read_is_refused(place):
    table = place.table()
    (table.parent / "maps").mkdir()
    tagmap = table.parent / "maps" / "t.toml"
    tagmap.write_text('[tags]\n04a1b2c3d4e5f6 = "trident:heart-3"\n')
    tagmap.chmod(0o600)  # root's alone: the unit would fail at every start
    table.write_text(table.read_text().replace("[table]\n", '[table]\ntagmap = "maps/t.toml"\n', 1))
    args = ["--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python]
    refused(install(str(table), *args), "the tag map cannot be read", str(tagmap), f"sudo chmod a+r {tagmap}")
    tagmap.chmod(0o644)
    pack = table.parent / "pack"
    pack.mkdir(mode=0o700)
    # relative to the table file (the install runs from "/"), as the service's WorkingDirectory= finds it
    table.write_text(table.read_text() + '\n[audio]\npack = "pack"\n[audio.outputs.speaker]\ndevice = "x"\n')
    refused(install(str(table), *args), "the voice pack cannot be read", "chmod -R a+rX")
    assert not list(place.dir.glob("*.service"))


def as_user(name: str, argv: list[str], home=None, **kw) -> subprocess.Popen:
    entry = pwd.getpwnam(name)
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C.UTF-8"}
    if home is not None:
        env["KIKIMIMI_SERVICE_HOME"] = str(home)
    return subprocess.Popen(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--",
                             *argv], env=env,
                            text=True, **kw)


def test_the_owner_referees_the_served_table_from_the_file_alone_and_others_are_refused(place, users, monkeypatch):
    from kikimimi.box import service
    from kikimimi.testkit.script import wait_until

    home = place.dir / "service-home"  # stands in for /var/lib/kikimimi, the unit's HOME=
    monkeypatch.setattr(service, "SERVICE_HOME", home)
    import kikimimi.console.served as served
    monkeypatch.setattr(served, "SERVICE_HOME", home)
    table = place.table()
    table.write_text(table.read_text().replace('journal = "var/trident-sim.jsonl"',
                                               'journal = "~/.local/share/kikimimi/sim.jsonl"'))
    user, owner, other = users(system=True), users(), users()
    said: list[str] = []
    unit = service.install(str(table), user, place.dir, python=place.python, say=said.append, owner=owner)
    folder = home / ".local" / "share" / "kikimimi"
    st = folder.stat()
    assert stat.S_IMODE(st.st_mode) == 0o2751 and st.st_uid == pwd.getpwnam(user).pw_uid
    assert pwd.getpwnam(user).pw_gid in os.getgrouplist(owner, pwd.getpwnam(owner).pw_gid)
    assert any(f"added {owner} to the group {user}" in line for line in said), said
    # the unit's command as its user, HOME= as the unit says (its keyboard: the test's pipe)
    argv = exec_argv(unit.read_text())
    entry = pwd.getpwnam(user)
    serve = subprocess.Popen(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--",
                              *argv, "--voice", "text", "--quiet"], cwd=str(table.parent), text=True,
                             env={"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"},
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        sock = folder / "sim.jsonl.sock"
        wait_until(lambda: sock.exists() or serve.poll() is not None, "the table serving", timeout=60)
        assert serve.poll() is None, serve.stderr.read() if serve.stderr else ""
        assert stat.S_IMODE(sock.stat().st_mode) == 0o660
        assert stat.S_IMODE((folder / "sim.jsonl.secret").stat().st_mode) == 0o640
        assert stat.S_IMODE((folder / "sim.jsonl").stat().st_mode) == 0o600  # the journal stays the table's
        # the owner: the console from the table file alone (its ~ is not the service's), a referee's command
        console = as_user(owner, [place.python, "-m", "kikimimi.cli", "console", str(table), "--plain"], home=home,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
        out, err = console.communicate("stop\nquit\n", timeout=60)
        assert console.returncode == 0 and "Traceback" not in err, out + err
        wait_until(lambda: '"console"' in (folder / "sim.jsonl").read_text(errors="replace"), "the stop journaled")
        # anyone else: one line, the group to join
        nosy = as_user(other, [place.python, "-m", "kikimimi.cli", "console", str(table), "--plain"], home=home,
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
        out, err = nosy.communicate("quit\n", timeout=60)
        assert nosy.returncode != 0 and "Traceback" not in err and len(err.strip().splitlines()) == 1, out + err
        assert f"closed to {other}" in err and f"usermod -aG {user} {other}" in err, err
    finally:
        serve.stdin.close()  # type: ignore[union-attr]
        serve.terminate()
        serve.wait(timeout=20)


def test_only_a_set_group_id_folder_shares_the_referees_socket_and_secret(tmp_path):
    """A folder a user made that lets its group in (umask 022, and a group that may be everyone's
    "users") must not hand the table's secret to that group: only the install's 2751 does."""
    from kikimimi.api.server import shared_with_group

    for mode, shared in ((0o700, False), (0o755, False), (0o751, False), (0o2751, True), (0o2700, False)):
        folder = tmp_path / f"m{mode:o}"
        folder.mkdir()
        os.chown(folder, -1, os.getegid())
        folder.chmod(mode)
        assert shared_with_group(folder) is shared, oct(mode)


def test_the_shipped_hardware_tables_journal_is_found_where_the_service_keeps_it(monkeypatch):
    """With the shipped `journal = "~/…"` even root's console looked under /root and said
    "no table is being served here" while the service served it under its own home."""
    from pathlib import Path

    from kikimimi.box.access import SERVICE_HOME
    from kikimimi.console.served import journals

    shipped = Path(__file__).resolve().parents[2] / "hardware" / "trident-pn532.toml"
    monkeypatch.setenv("HOME", "/root")
    found = journals(shipped)
    assert found == [Path("/root/.local/share/kikimimi/trident-table.jsonl"),
                     SERVICE_HOME / ".local" / "share" / "kikimimi" / "trident-table.jsonl"]
