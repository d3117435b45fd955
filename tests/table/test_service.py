"""`kikimimi service install`: a unit systemd's own tools accept and rate locked down,
whose user really runs it, whose paths systemd reads back exactly, refused in one line
when it cannot run."""
import os
import pwd
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import uuid
from pathlib import Path

import pytest

from kikimimi.contract.game_files import game_file
from kikimimi.contract.pairing import folder_for
from kikimimi.box.access import in_a_home

SIM_TABLE = Path(str(game_file("trident", "sim.toml")))
HARDWARE_TABLE = Path(__file__).resolve().parents[2] / "hardware" / "trident-pn532.toml"
ROOT = os.geteuid() == 0


def analyze(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze missing (apt-get install systemd; scripts/setup does)")
    return subprocess.run(["systemd-analyze", *args], capture_output=True, text=True, timeout=60, cwd=cwd)


def verify(unit: Path) -> list[str]:
    """systemd-analyze verify's complaints about this unit (it exits 0 on many of them)."""
    proc = analyze("verify", str(unit), cwd=unit.parent)
    return [line for line in (proc.stdout + proc.stderr).splitlines()
            if (unit.name in line or proc.returncode) and "Special user nobody" not in line]


def exposure(unit: Path) -> float:
    """systemd-analyze security's overall exposure for this unit file (0 safe .. 10 unsafe)."""
    proc = analyze("security", "--offline=true", str(unit), cwd=unit.parent)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", proc.stdout)
    assert found, proc.stdout[-2000:] + proc.stderr
    return float(found.group(1))


def exec_argv(unit_text: str) -> list[str]:
    """ExecStart= read back as systemd.service(5) says: quoted words, C escapes, %% and $$."""
    line = next(l for l in unit_text.splitlines() if l.startswith("ExecStart="))
    words = re.findall(r'"((?:[^"\\]|\\.)*)"', line.removeprefix("ExecStart="))
    words = [re.sub(r"\\(.)", r"\1", w).replace("%%", "%") for w in words]
    return words[:1] + [w.replace("$$", "$") for w in words[1:]]  # the command's name is not expanded


def install(*args, user=None):
    """`kikimimi service install ...`, as root (or whoever runs the tests), or as `user` (setpriv)."""
    argv = [sys.executable, "-m", "kikimimi.cli", "service", "install", *args]
    if user is not None:
        python, rest = args[-1], argv[1:]
        argv = ["setpriv", f"--reuid={user}", f"--regid={pwd.getpwnam(user).pw_gid}", "--clear-groups", "--",
                python, *rest]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd="/")


def outside_tmp() -> str:
    """Where a test's table lives: not under /tmp, which the unit's PrivateTmp=yes hides (the
    install refuses it), nor in a home (ProtectHome=yes)."""
    for base in ("/srv", "/var/local", "/opt"):
        if os.path.isdir(base) and os.access(base, os.W_OK | os.X_OK):
            return base
    pytest.skip("no folder outside /tmp and the homes to put a service's table in (/srv, /var/local, /opt)")


class Place:
    """A folder every user can read, outside the home folders, with a Python the service
    user can run: a venv of the system's interpreter that sees this checkout's packages."""

    def __init__(self, name: str = "kk-service-"):
        base = Path(sysconfig.get_paths()["purelib"])
        program = Path(__file__).resolve().parents[2]
        if in_a_home(program) or in_a_home(base):
            pytest.skip(f"this checkout ({program}) is in a home folder, which a service user cannot reach")
        system = shutil.which(f"python{sys.version_info[0]}.{sys.version_info[1]}", path="/usr/bin:/usr/local/bin")
        if system is None or in_a_home(Path(os.path.realpath(system))):
            pytest.skip("no system Python of this version outside home folders to build the service's venv from")
        self.dir = Path(tempfile.mkdtemp(prefix=name, dir=outside_tmp()))
        self.dir.chmod(0o755)
        venv = self.dir / "venv"
        subprocess.run([system, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
        site = next(venv.glob("lib/python*/site-packages"))
        (site / "kikimimi-checkout.pth").write_text(f"import site; site.addsitedir({str(base)!r})\n")
        self.python = str(venv / "bin" / "python")

    def table(self, source: Path = SIM_TABLE, name: str = "table.toml", folder: str = "") -> Path:
        where = self.dir / folder
        where.mkdir(exist_ok=True)
        where.chmod(0o755)
        text = source.read_text().replace("~/.local/share/kikimimi", "var")
        path = where / name
        path.write_text(text)
        path.chmod(0o644)
        maps = source.parent / "tagmaps"
        if source.parent != SIM_TABLE.parent and maps.is_dir():  # a real table's tag maps go with it
            (where / "tagmaps").mkdir(exist_ok=True)
            (where / "tagmaps").chmod(0o755)
            for tagmap in maps.glob("*.toml"):
                (where / "tagmaps" / tagmap.name).write_bytes(tagmap.read_bytes())
                (where / "tagmaps" / tagmap.name).chmod(0o644)
        return path


@pytest.fixture
def place():
    p = Place()
    yield p
    shutil.rmtree(p.dir, ignore_errors=True)


@pytest.fixture
def new_user():
    """A user name nobody has; removed again (with its group) after the test."""
    name = "kk-t" + uuid.uuid4().hex[:8]
    yield name
    if ROOT:
        subprocess.run(["userdel", name], capture_output=True, timeout=60)
        subprocess.run(["groupdel", name], capture_output=True, timeout=60)


def unprivileged_user() -> str:
    for entry in pwd.getpwall():
        if 100 <= entry.pw_uid < 65534 and not entry.pw_name.startswith("kk-t"):
            return entry.pw_name
    pytest.skip("no unprivileged user on this machine to run the unit as")


def test_the_unit_passes_systemds_verifier_and_is_rated_locked_down(place):
    table = place.table()
    user = unprivileged_user()
    proc = install(str(table), "--user", user, "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 0, proc.stderr
    unit = place.dir / "kikimimi-table.service"
    assert f"systemctl enable --now {unit.name}" in proc.stdout
    text = unit.read_text()
    assert f"User={user}\n" in text and "Restart=on-failure\n" in text and "After=sound.target" in text
    assert exec_argv(text) == [place.python, "-m", "kikimimi.cli", "serve", str(table)]
    assert "SupplementaryGroups=" in text and "audio" in text.split("SupplementaryGroups=")[1].split("\n")[0]
    assert verify(unit) == []
    assert exposure(unit) <= 2.5
    # a table with no reader or card of its own opens no device, and has no network
    assert "DevicePolicy=closed\n" in text and "DeviceAllow" not in text and "PrivateNetwork=yes" in text
    # the verifier is not a rubber stamp: a broken line in the same unit is reported
    unit.write_text(text.replace("Restart=on-failure", "Restart=sometimes"))
    assert any("restart" in line.lower() for line in verify(unit))
    # nor is the rating: the unit as it was before the lockdown is rated far above 2.5
    unit.write_text("[Service]\nUser=x\nExecStart=/bin/true\nNoNewPrivileges=yes\nPrivateTmp=yes\n"
                    "ProtectSystem=full\n")
    assert exposure(unit) > 5


def test_a_table_with_a_web_console_gets_its_unit_locked_down_too(place):
    """`[web]` in the table file: a second unit runs `kikimimi web` as the same user, with no
    device, no sound, and the network only to the club's own addresses (docs/web.md)."""
    table = place.table()
    table.write_text(table.read_text() + '\n[web]\nbind = ["192.168.1.20:8443"]\n')
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 0, proc.stderr
    unit, web = place.dir / "kikimimi-table.service", place.dir / "kikimimi-table-web.service"
    assert f"systemctl enable --now {web.name}" in proc.stdout
    text = web.read_text()
    assert exec_argv(text) == [place.python, "-m", "kikimimi.cli", "web", str(table)]
    assert f"PartOf={unit.name}\n" in text and f"After=network.target {unit.name}\n" in text
    assert "DeviceAllow" not in text and "SupplementaryGroups" not in text and "MemoryDenyWriteExecute=yes" in text
    assert "IPAddressDeny=any\n" in text and "IPAddressAllow=localhost link-local 10.0.0.0/8" in text
    assert "PrivateNetwork=yes" in unit.read_text()  # the table itself keeps no network
    assert verify(web) == []
    assert exposure(web) <= 2.5
    assert exposure(unit) <= 2.5


def test_a_real_tables_unit_opens_its_readers_and_cards_only(place):
    table = place.table(HARDWARE_TABLE, "box.toml")
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 0, proc.stderr
    unit = place.dir / "kikimimi-box.service"
    text = unit.read_text()
    allowed = [l for l in text.splitlines() if l.startswith("Device")]
    assert allowed == ["DevicePolicy=closed", "DeviceAllow=char-ttyUSB rw", "DeviceAllow=char-ttyACM rw",
                       "DeviceAllow=char-alsa rw"]
    assert f'ReadWritePaths="{place.dir}/var"\n' in text  # the journal's folder, nothing else
    # the PAIR card's codes go beside the journal (kikimimi/table/pair_card.py): in that folder, writable
    journal = re.search(r'^journal = "(.*)"', table.read_text(), re.M)
    assert journal and folder_for(table.parent / journal[1]).parent == place.dir / "var"
    assert "MemoryDenyWriteExecute" not in text  # sounddevice's callback needs it (test_service_hardening)
    assert verify(unit) == []
    assert exposure(unit) <= 2.5


def test_a_table_with_usb_readers_opens_usb_devices_and_netlink(place):
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "usb"\npath = "usb:1-1.{s}"\n'
                      for s in (1, 2, 3))
    source = place.dir / "usb-source.toml"
    source.write_text('[table]\ngame = "trident"\nplayers = 3\n' + readers
                      + '[readers.field]\nrole = "field"\ndriver = "usb"\npath = "usb:1-1.4"\n')
    table = place.table(source, "usb.toml")
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 0, proc.stderr
    unit = place.dir / "kikimimi-usb.service"
    text = unit.read_text()
    assert [l for l in text.splitlines() if l.startswith("DeviceAllow")] == ["DeviceAllow=char-usb_device rw"]
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK\n" in text and "PrivateNetwork=yes" in text
    assert verify(unit) == []
    assert exposure(unit) <= 2.5


def test_club_records_on_a_postgresql_server_open_the_network_and_nothing_more(place):
    table = place.table(HARDWARE_TABLE, "club.toml")
    table.write_text(table.read_text() + '\n[records]\ndb = "postgresql://club@localhost/club"\n')
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 0, proc.stderr
    unit = place.dir / "kikimimi-club.service"
    text = unit.read_text()
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n" in text and "PrivateNetwork" not in text
    assert verify(unit) == []
    assert exposure(unit) <= 2.5


@pytest.mark.skipif(not ROOT, reason="creating a user and running as it needs root")
def test_the_user_is_created_and_really_runs_the_table(place, new_user):
    table = place.table()
    proc = install(str(table), "--user", new_user, "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 0, proc.stderr
    assert f"created the system user {new_user}" in proc.stdout
    entry = pwd.getpwnam(new_user)
    assert entry.pw_uid < 1000 and entry.pw_shell.endswith("nologin")
    groups = subprocess.run(["id", "-nG", new_user], capture_output=True, text=True).stdout.split()
    assert {"audio", "dialout"} <= set(groups)
    # the unit's own command, as its user: the table serves (its keyboard at end of input) and stops
    argv = exec_argv((place.dir / "kikimimi-table.service").read_text())
    run = subprocess.run(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--",
                          *argv], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                         cwd=str(table.parent), env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent",
                                                     "LANG": "C.UTF-8"})
    assert run.returncode == 0, run.stderr
    journal = place.dir / "var" / "trident-sim.jsonl"
    assert journal.stat().st_uid == entry.pw_uid


@pytest.mark.skipif(not ROOT, reason="the install makes the journal's folder for the user as root")
def test_a_tilde_in_the_table_file_is_the_services_home_not_the_installers(place, monkeypatch):
    from kikimimi.box import service

    home = place.dir / "service-home"  # stands in for /var/lib/kikimimi, the unit's HOME=
    monkeypatch.setattr(service, "SERVICE_HOME", home)
    monkeypatch.setenv("HOME", "/root")
    table = place.table()
    table.write_text(table.read_text().replace('journal = "var/trident-sim.jsonl"', 'journal = "~/tables/sim.jsonl"'))
    unit = service.install(str(table), unprivileged_user(), place.dir, python=place.python)
    text = unit.read_text()
    assert f'ReadWritePaths="{home}/tables"\n' in text and f'"HOME={home}"' in text
    assert (home / "tables").stat().st_uid == pwd.getpwnam(unprivileged_user()).pw_uid


def test_an_interpreter_the_user_cannot_reach_is_refused_in_one_line(place):
    closed = place.dir / "closed"
    closed.mkdir(mode=0o700)  # like /root: the venv inside works for its owner only
    shutil.copytree(Path(place.python).parents[1], closed / "venv", symlinks=True)
    table = place.table()
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir),
                   "--python", str(closed / "venv" / "bin" / "python"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert f"{closed} is closed to" in proc.stderr and "--python" in proc.stderr
    assert not list(place.dir.glob("*.service"))


def test_an_interpreter_in_a_home_folder_is_refused():
    real = Path(os.path.realpath(sys.executable))
    if in_a_home(real) is None:
        pytest.skip(f"this interpreter ({real}) is not in a home folder")
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "t.toml"
        table.write_text(SIM_TABLE.read_text())
        proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", tmp)
        assert proc.returncode == 2 and "which the service's user can never reach" in proc.stderr, proc.stderr
        assert not list(Path(tmp).glob("*.service"))


def test_percent_dollar_quote_and_backslash_in_paths_reach_systemd_exactly(place):
    table = place.table(folder='a %i $HOME "q" \\n b')
    venv = place.dir / "py %i $HOME"  # a command's name may hold no quote or backslash (systemd refuses it)
    subprocess.run([os.path.realpath(place.python), "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    shutil.copy(next(Path(place.python).parents[1].glob("lib/python*/site-packages/kikimimi-checkout.pth")),
                next(venv.glob("lib/python*/site-packages")))
    python = str(venv / "bin" / "python")
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", python)
    assert proc.returncode == 0, proc.stderr
    unit = place.dir / "kikimimi-table.service"
    text = unit.read_text()
    assert exec_argv(text) == [python, "-m", "kikimimi.cli", "serve", str(table)]
    # systemd's own reading: the verifier finds the interpreter at the path it unescaped
    assert verify(unit) == []
    assert exposure(unit) <= 2.5
    # and it would say so: the same unit with the path written as it is
    line = next(l for l in text.splitlines() if l.startswith("ExecStart="))
    unit.write_text(text.replace(line, f"ExecStart={python} -m kikimimi.cli serve {table}"))
    assert any("not executable" in line for line in verify(unit))


def test_an_interpreter_systemd_cannot_name_is_refused_in_one_line(place):
    table = place.table()
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir),
                   "--python", str(place.dir / 'say "hi"' / "python"))
    assert proc.returncode == 2 and "quote or a backslash" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not list(place.dir.glob("*.service"))


@pytest.mark.parametrize("folder", ["x\nUser=root", "x\rExecStartPre=true", "tab\there"])
def test_a_control_character_in_a_path_is_refused_before_any_unit(place, folder):
    table = place.table(folder=folder)
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python)
    assert proc.returncode == 2 and "control character" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert not list(place.dir.glob("*.service"))


@pytest.mark.parametrize("user,said", [("root", "unprivileged user, not root"),
                                       ("nobody\nExecStartPre=/bin/sh", "not a user name")])
def test_root_or_a_broken_user_name_is_refused_in_one_line(tmp_path, user, said):
    table = tmp_path / "t.toml"
    table.write_text(SIM_TABLE.read_text())
    proc = install(str(table), "--user", user, "--unit-dir", str(tmp_path), "--python", "/usr/bin/python3")
    assert proc.returncode == 2 and said in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert not list(tmp_path.glob("*.service"))


@pytest.mark.skipif(not ROOT, reason="runs the install as another user")
def test_a_missing_user_is_refused_when_not_root(place, new_user):
    table = place.table()
    (place.dir / "var").mkdir()
    os.chown(place.dir / "var", pwd.getpwnam("nobody").pw_uid, -1)  # its journal's folder is its own
    proc = install(str(table), "--user", new_user, "--unit-dir", str(place.dir), "--python", place.python,
                   user="nobody")
    assert proc.returncode == 2, proc.stderr
    assert f"no user {new_user!r}: run this as root (sudo) to create it" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    with pytest.raises(KeyError):
        pwd.getpwnam(new_user)


def test_a_table_that_cannot_start_never_becomes_a_service(tmp_path):
    table = tmp_path / "t.toml"
    table.write_text(SIM_TABLE.read_text().replace("players = 3", "players = 99"))
    proc = install(str(table), "--user", unprivileged_user(), "--unit-dir", str(tmp_path))
    assert proc.returncode == 2 and "table.players" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.glob("*.service"))
