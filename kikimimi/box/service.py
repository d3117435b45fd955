"""A table as a boot service: switch the box on and the table speaks.

`kikimimi service install TABLE.toml` writes a systemd unit that runs
`kikimimi serve TABLE.toml` as an unprivileged system user (created when the
install runs as root) in the groups that open sound cards and readers, after
the sound system, restarted when it fails (a pulled cable that kills the
process is a restart, not a dead table).  When the table is up it says so on
the speaker, and a missing earphone or reader is said too
(`kikimimi.table.readiness`), so no screen is needed to know.

The unit is locked down (docs/table.md says why each line is there): the
table needs its own device nodes, its journal's folder and nothing else, so a
flaw in a reader driver or a parser gives an attacker no more than that.
Every path goes into the unit quoted and escaped as systemd reads it back,
and a path systemd cannot carry (a newline would start a setting of its own)
is refused.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from kikimimi.readers import registry as reader_kinds
from kikimimi.box.access import (
    SERVICE_HOME, USER_NAME, Account, AccessError, account, blocked, create_system_user, in_a_home, run_as)
from kikimimi.table.config import TableConfig, load_table_config

UNIT_DIR = Path("/etc/systemd/system")
#: audio: /dev/snd; plugdev: readers named by udev/99-kikimimi.rules; dialout: /dev/ttyUSB* otherwise
GROUPS = ("audio", "plugdev", "dialout")
#: Where a program the service can run is installed (none of it in a home folder).
#: The checkout this program was installed from (an editable install), which pip can install again.
_SOURCE = Path(__file__).resolve().parents[1]
_PACKAGE = f"'{_SOURCE}[ja]'" if (_SOURCE / "pyproject.toml").is_file() else "kikimimi"
HOW_TO_INSTALL = ("install kikimimi where every user can run it (sudo python3 -m venv /opt/kikimimi && "
                  f"sudo /opt/kikimimi/bin/pip install {_PACKAGE}), then run sudo /opt/kikimimi/bin/kikimimi "
                  "service install, or name such an interpreter with --python")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: What PrivateTmp=yes replaces with the service's own (systemd.exec(5)).
PRIVATE_TMP = (Path("/tmp"), Path("/var/tmp"))
#: A test's checkout that sits under /tmp: its stand-in sandbox (tests/table/unit_sandbox.py)
#: binds that one folder back into the unit's private /tmp, so "the program" there is seen.
#: Unset on a real box, where nothing under /tmp is ever seen by the unit.
TEST_VISIBLE = "KIKIMIMI_TEST_VISIBLE_CHECKOUT"
#: The journal's folders an install makes: the service's own, set-group-ID (what tells the table
#: to share its referee's socket, 0660, and secret, 0640, with the group: kikimimi/api/server.py
#: `shared_with_group`), its group (the owner) passes, and anyone may reach a socket by its name
#: (the spectators' is 0666).
SHARED_DIR_MODE = 0o2751


class ServiceError(ValueError):
    """One line: what cannot be installed, and the fix."""


def unit_name(config: Path) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]", "-", config.stem) or "table"
    return f"kikimimi-{stem}.service"


def web_unit_name(config: Path) -> str:
    """The web console's unit beside the table's (written when the table file has `[web]`)."""
    return unit_name(config).removesuffix(".service") + "-web.service"


#: Who the web console may talk to: loopback, link-local and the private ranges of a
#: club's network (RFC 1918, unique local IPv6), never the internet.
WEB_PEERS = "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"


def checked(path: Path | str, what: str) -> str:
    """The path as text, or one line why a unit cannot carry it: a newline would end
    the setting and start another (`User=root`), any control character is refused."""
    text = str(path)
    if _CONTROL.search(text):
        raise ServiceError(f"{what} {text!r} has a control character (a newline, a tab) in its name, "
                           "which a systemd unit cannot carry: rename the folder or the file")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ServiceError(f"{what} {text!r} is not UTF-8, which a systemd unit cannot carry: rename it") from None
    return text


def exec_word(word: str, executable: bool = False) -> str:
    """One word of ExecStart= exactly as systemd.service(5) reads it back: quoted, C escapes
    for `\\` and `"`, `%%` for a specifier's `%`, `$$` for a variable's `$` (an argument's
    only: the executable's name is not expanded, and may hold no quote or backslash)."""
    if executable and any(c in word for c in "\\\"'"):
        raise ServiceError(f"the interpreter {word!r} has a quote or a backslash in its path, which systemd "
                           "refuses in a command's name: install it in another folder, or name another with --python")
    word = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    return f'"{word}"' if executable else '"' + word.replace("$", "$$") + '"'


def path_word(path: str) -> str:
    """A path in a list setting (ReadWritePaths=): quoted and C-escaped, `%%`; no `$` expansion there."""
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%") + '"'


def plain_value(text: str) -> str:
    """A whole-line value (Description=, WorkingDirectory=): only specifiers are expanded there."""
    return text.replace("%", "%%")


def devices(config: TableConfig) -> list[str]:
    """DeviceAllow= lines: the device classes of this table's readers and sound cards, and no others.

    Classes, not nodes: a replugged adapter comes back as another ttyUSB number and
    a sound card as another card number, and the table must go on hearing them.  Which
    classes a reader needs is its kind's to say (`ReaderKind.device_classes`)."""
    allowed: list[str] = []
    for kind, sections in reader_kinds.by_kind(config.readers):
        for section in sections.values():
            allowed += [c for c in kind.device_classes(section) if c not in allowed]
    if config.audio:
        allowed.append("char-alsa")  # /dev/snd/*
    return [f"DeviceAllow={name} rw" for name in allowed]


def _network(config: TableConfig) -> list[str]:
    """The API is two unix sockets beside the journal: no network at all, unless the
    club records are a PostgreSQL server reached over TCP.  A reader kind may need a socket
    family of its own (a USB reader: libusb's hotplug monitor, netlink)."""
    families = ["AF_UNIX"]
    for kind, _ in reader_kinds.by_kind(config.readers):
        families += [f for f in kind.address_families if f not in families]
    db = str(config.records.get("db") or "")
    if db.startswith(("postgresql:", "postgres:")):
        return ["RestrictAddressFamilies=" + " ".join(families + ["AF_INET", "AF_INET6"])]
    return ["RestrictAddressFamilies=" + " ".join(families), "PrivateNetwork=yes", "IPAddressDeny=any"]


def _writable(config: TableConfig) -> list[Path]:
    folders = [config.journal.parent]
    db = config.records.get("db")
    if isinstance(db, str) and db and ":" not in db.split("/")[0]:
        folders.append((config.path.parent / db).parent)
    return list(dict.fromkeys(folders))


def unit_text(config: TableConfig, user: str, groups: list[str], python: str = sys.executable,
              *, web: bool = False) -> str:
    """The unit (`web`: the web console's, kikimimi/web); every path in it is checked and
    escaped (see `checked`, `exec_word`).  The web console's unit has the same lockdown
    but no device, no sound, and the network only to the club's own addresses."""
    table = Path(checked(os.path.abspath(config.path), "the table file"))
    argv = [checked(python, "the interpreter"), "-m", "kikimimi.cli", "web" if web else "serve", str(table)]
    rw = " ".join(path_word(checked(p, "the folder")) for p in _writable(config))
    head = ([f"Description=kikimimi web console ({plain_value(table.name)})",
             f"After=network.target {unit_name(table)}", f"PartOf={unit_name(table)}"] if web else
            [f"Description=kikimimi table ({plain_value(table.name)})",
             # after the sound system: ALSA's cards, and a system-wide sound server where one runs
             "After=sound.target pulseaudio.service pipewire.service",
             "Wants=sound.target"])
    network = (["RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "IPAddressDeny=any",
                f"IPAddressAllow={WEB_PEERS}"] if web else _network(config))
    lines = [
        "[Unit]",
        *head,
        "StartLimitIntervalSec=120",
        "StartLimitBurst=10",
        "",
        "[Service]",
        "Type=simple",
        f"User={user}",
        f"SupplementaryGroups={' '.join(groups)}" if groups and not web else None,
        f"WorkingDirectory={plain_value(str(table.parent))}",
        "ExecStart=" + " ".join(exec_word(w, executable=i == 0) for i, w in enumerate(argv)),
        "Restart=on-failure",
        "RestartSec=3",
        # the service's own folders: its home (the club file), the rendered voice clips
        "StateDirectory=kikimimi",
        "CacheDirectory=kikimimi",
        f'Environment="PYTHONUNBUFFERED=1" "HOME={SERVICE_HOME}" "XDG_CACHE_HOME=%C"',
        # the file system: read-only but the journal's folder (and a club file's)
        "ProtectSystem=strict",
        f"ReadWritePaths={rw}",
        "ProtectHome=yes",
        "PrivateTmp=yes",
        "UMask=0077",
        # devices: these readers and sound cards, and the harmless pseudo devices
        "DevicePolicy=closed",
        *([] if web else devices(config)),
        # the kernel: nothing to tune, load, log or change
        "ProtectKernelTunables=yes",
        "ProtectKernelModules=yes",
        "ProtectKernelLogs=yes",
        "ProtectControlGroups=yes",
        "ProtectClock=yes",
        "ProtectHostname=yes",
        "ProtectProc=invisible",
        "PrivateMounts=yes",
        # privileges: none to have, none to gain
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=",
        "AmbientCapabilities=",
        "RestrictSUIDSGID=yes",
        "RemoveIPC=yes",
        "KeyringMode=private",
        # the network
        *network,
        # system calls
        "SystemCallArchitectures=native",
        "SystemCallFilter=@system-service",
        "SystemCallFilter=~@privileged @resources",
        "SystemCallErrorNumber=EPERM",
        "RestrictNamespaces=yes",
        "RestrictRealtime=yes",
        "LockPersonality=yes",
        # sounddevice's stream callback is a cffi closure, which needs write+execute memory:
        # refused, no card plays (tests/table/test_service_hardening.py shows it)
        None if config.audio and not web else "MemoryDenyWriteExecute=yes",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
    ]
    return "\n".join(line for line in lines if line is not None)


def install(config_path: str, user: str, unit_dir: Path = UNIT_DIR, python: str | None = None,
            say: Callable[[str], None] = lambda _: None, owner: str | None = None) -> Path:
    """Check the table, the user and what it can reach, then write the unit.

    `owner` (the user who ran `sudo`, SUDO_USER, by default in the CLI) keeps the referee's
    console on the served table: it joins the service's group, which the journal's folder
    lets in (`kikimimi.console.served`).
    `say` hears each thing done on the way (a user created, a folder made), when it
    is done; ServiceError says in one line what is wrong and the fix."""
    if not USER_NAME.fullmatch(user):
        raise ServiceError(f"--user {user!r}: not a user name (lower-case letters, digits, '-' and '_')")
    config_file = Path(config_path)
    if not config_file.is_file():
        raise ServiceError(f"{config_path}: no such table file (kikimimi table setup writes one)")
    config_file = Path(os.path.abspath(config_file))
    checked(config_file, "the table file")
    config = _as_the_service_reads_it(config_file)  # a table that cannot start must not become a service
    python = os.path.abspath(python or sys.executable)
    exec_word(checked(python, "the interpreter"), executable=True)
    for folder in _writable(config):
        checked(folder, "the folder")
    _outside_homes(config, python)
    existing = account(user)
    if existing is not None and existing.uid == 0:
        raise ServiceError("a table runs as an unprivileged user, not root: --user kikimimi")
    _outside_tmp(config, python)  # before a user is created: a table that cannot start leaves nothing
    _read_alike(config)
    groups = [g for g in GROUPS if _group_exists(g)]
    root = os.geteuid() == 0
    if account(user) is None:
        if not root:
            raise ServiceError(f"no user {user!r}: run this as root (sudo) to create it as a system user in the "
                               f"groups {', '.join(GROUPS)}, or name another with --user")
        try:
            create_system_user(user, tuple(groups))
        except AccessError as exc:
            raise ServiceError(str(exc)) from None
        say(f"created the system user {user} (groups: {', '.join(groups) or 'none'})")
    who = account(user, tuple(groups))
    assert who is not None
    if who.uid == 0:
        raise ServiceError("a table runs as an unprivileged user, not root: --user kikimimi")
    _reachable(config, python, who, root, say)
    _readable(config, who)
    if owner:
        _let_the_owner_in(config, who, owner, root, say)
    unit = unit_dir / unit_name(config_file)
    text = unit_text(config, user, groups, python)
    try:
        unit.write_text(text, encoding="utf-8")
        if config.web:  # the web console beside the table, as the same user (docs/web.md)
            web = unit_dir / web_unit_name(config_file)
            web.write_text(unit_text(config, user, groups, python, web=True), encoding="utf-8")
            say(f"wrote {web}: the web console (start it with the table: systemctl enable --now {web.name})")
    except OSError as exc:
        raise ServiceError(f"cannot write {unit}: {exc.strerror or exc} (run with sudo, or --unit-dir)") from None
    return unit


def _as_the_service_reads_it(config_file: Path) -> TableConfig:
    """The table file read as the service will read it: `~` in it is the service's home
    (HOME= in the unit), not the home of whoever runs the install."""
    return load_table_config(config_file, home=SERVICE_HOME)


def _outside_homes(config: TableConfig, python: str) -> None:
    """ProtectHome=yes hides /home, /root and /run/user from the service: nothing it needs may be there."""
    import kikimimi

    needed = [("the interpreter", Path(python)), ("the interpreter", Path(os.path.realpath(python))),
              ("the program", Path(kikimimi.__file__).resolve().parent), ("the table file", config.path),
              ("the table file", Path(os.path.realpath(config.path))),
              *(("the folder", p) for p in _writable(config))]
    for what, path in needed:
        home = in_a_home(Path(os.path.abspath(path)))
        if home is None:
            continue
        if what == "the interpreter" or what == "the program":
            raise ServiceError(f"{what} {path} is in {home}, which the service's user can never reach: {HOW_TO_INSTALL}")
        if what == "the table file":
            raise ServiceError(f"{what} {path} is in {home}, which the service cannot see (ProtectHome=yes): "
                               "move it to /etc/kikimimi (and its tag maps beside it)")
        raise ServiceError(f"{what} {path} (the journal's, or the club file's) is in {home}, which the service "
                           f"cannot see (ProtectHome=yes): name one under {SERVICE_HOME} in the table file")


def _reachable(config: TableConfig, python: str, who: Account, root: bool, say: Callable[[str], None]) -> None:
    """The user can run the interpreter and the program, read the table and write its journal."""
    import kikimimi

    program = Path(kikimimi.__file__).resolve().parent
    for path, want, what in ((Path(python), os.X_OK, "the interpreter"),
                             (Path(os.path.realpath(python)), os.X_OK, "the interpreter"),
                             (program, os.R_OK | os.X_OK, "the program"),
                             (config.path, os.R_OK, "the table file")):
        why = blocked(path, who, want)
        if why:
            fix = HOW_TO_INSTALL if what != "the table file" else f"sudo chown {who.name} {config.path}"
            raise ServiceError(f"{what} cannot be used by the service's user: {why}: {fix}")
    if root:  # the definitive answer: the user runs the interpreter and imports the program
        proc = run_as(who, [python, "-c", "import kikimimi.cli"])
        if proc.returncode != 0:
            said = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
            raise ServiceError(f"{who.name} cannot run {python} -m kikimimi.cli ({said}): {HOW_TO_INSTALL}")
    for folder in _writable(config):
        if not folder.exists():
            if not root:
                raise ServiceError(f"{folder} (the journal's folder) is missing: "
                                   f"sudo install -d -o {who.name} -m 0700 {folder}")
            for made in _missing(folder):
                made.mkdir(mode=SHARED_DIR_MODE)
                os.chown(made, who.uid, who.gid)
                os.chmod(made, SHARED_DIR_MODE)  # the owner's console passes (the service's group), see console/served.py
            say(f"made {folder} for {who.name} (mode {SHARED_DIR_MODE:04o}: its group {_group_name(who.gid)} "
                "may referee)")
        why = blocked(folder, who, os.W_OK | os.X_OK)
        if why:
            raise ServiceError(f"the service's user cannot write the journal: {why}: sudo chown {who.name} {folder}")


def _missing(folder: Path) -> list[Path]:
    """The folders to make, outermost first, for `folder` to exist."""
    out = []
    while not folder.exists():
        out.append(folder)
        folder = folder.parent
    return out[::-1]


def _outside_tmp(config: TableConfig, python: str) -> None:
    """PrivateTmp=yes gives the service a /tmp and /var/tmp of its own (and /tmp is emptied at
    boot): nothing the table needs may be there."""
    import kikimimi

    for what, path in _needed(config, python) + [("the program", Path(kikimimi.__file__).resolve().parent)]:
        real = Path(os.path.realpath(path))
        kept = os.environ.get(TEST_VISIBLE)
        if kept and Path(kept) in (real, *real.parents):
            continue
        for tmp in PRIVATE_TMP:
            if any(p == tmp or tmp in p.parents for p in (Path(os.path.abspath(path)), real)):
                if what in ("the interpreter", "the program"):
                    raise ServiceError(f"{what} {path} is under {tmp}, which the service never sees (PrivateTmp=yes): "
                                       f"{HOW_TO_INSTALL}")
                raise ServiceError(f"{what} {path} is under {tmp}, which the service never sees (PrivateTmp=yes: a "
                                   f"{tmp} of its own, and {tmp} is emptied at boot): move it to /etc/kikimimi "
                                   "(the table file with its tag maps and voice pack) or /var/lib/kikimimi")


def _read_alike(config: TableConfig) -> None:
    """A whole-line setting (WorkingDirectory=) ending in a backslash goes on at the next line, and
    one ending in spaces loses them: systemd would read another folder than the table's."""
    folder = str(Path(os.path.abspath(config.path)).parent)
    for what, text in (("the table's folder", folder), ("the table file", str(config.path))):
        if text.endswith("\\") or text != text.rstrip():
            end = "a backslash" if text.endswith("\\") else "a space"
            raise ServiceError(f"{what} {text!r} ends in {end}, which systemd reads as another name "
                               "(WorkingDirectory=): rename the folder, or move the table to /etc/kikimimi")


def _needed(config: TableConfig, python: str) -> list[tuple[str, Path]]:
    """What the service reads or writes, named as the refusals name it."""
    from kikimimi.table.config import tagmap_paths

    out = [("the interpreter", Path(python)), ("the table file", config.path),
           *(("the tag map", p) for p in tagmap_paths(config)),
           *(("the folder", p) for p in _writable(config))]
    pack = _pack(config)
    if pack is not None:
        out.append(("the voice pack", pack))
    return out


def _pack(config: TableConfig) -> Path | None:
    """`[audio] pack`, as the service finds it (relative to WorkingDirectory=, the table's folder)."""
    pack = (config.audio or {}).get("pack")
    if not isinstance(pack, str):
        return None
    return Path(os.path.abspath(config.path.parent / pack))


def _readable(config: TableConfig, who: Account) -> None:
    """Every tag map and the voice pack, readable by the service's user (mode bits on the way)."""
    for what, path in _needed(config, "/"):
        if what not in ("the tag map", "the voice pack"):
            continue
        want = os.R_OK | os.X_OK if what == "the voice pack" else os.R_OK
        why = blocked(path, who, want)
        if why:
            fix = (f"sudo chmod -R a+rX {path}" if what == "the voice pack" else f"sudo chmod a+r {path}")
            raise ServiceError(f"{what} cannot be read by the service's user: {why}: {fix}")


def _let_the_owner_in(config: TableConfig, who: Account, owner: str, root: bool, say: Callable[[str], None]) -> None:
    """The owner joins the service's group, and its console can reach the journal's folder."""
    if not USER_NAME.fullmatch(owner) or account(owner) is None:
        raise ServiceError(f"--owner {owner!r}: no such user (the one who keeps the referee's console)")
    group = _group_name(who.gid)
    me = account(owner)
    assert me is not None
    if me.uid == 0:
        return  # root reaches every folder already
    if who.gid not in me.groups:
        if not root:
            raise ServiceError(f"{owner} is not in the group {group}: sudo usermod -aG {group} {owner}")
        usermod = shutil.which("usermod") or shutil.which("usermod", path="/usr/sbin:/sbin")
        done = subprocess.run([usermod or "usermod", "-aG", group, owner], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            raise ServiceError(f"cannot add {owner} to the group {group}: {said}")
        say(f"added {owner} to the group {group}: its console reaches the table (log in again for it to count)")
        me = account(owner)
        assert me is not None
    for folder in _writable(config)[:1]:  # the journal's: its sockets and secret
        why = blocked(folder, me, os.X_OK)
        if why:
            raise ServiceError(f"the owner's console cannot reach the table: {why}: "
                               f"sudo chgrp {group} {folder} && sudo chmod g+rx {folder}")


def _group_name(gid: int) -> str:
    import grp

    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def _group_exists(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False
