"""Who a boot service runs as, and whether that user can reach what it needs.

`service install` runs as root (or as the owner of a test folder) while the
table runs as an unprivileged user: a virtual environment under /root (mode
0700) looks fine to the installer and is `Permission denied` to the service
at every boot.  So the installer asks, for the service's own user, every
folder on the way to the interpreter, the program, the table file and the
journal; and, when it is root, it also runs the interpreter as that user
(`setpriv`), which is the only answer that counts ACLs and mount options too.
"""
from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: Folders that `ProtectHome=yes` hides from the service (systemd.exec(5)).
HOMES = (Path("/home"), Path("/root"), Path("/run/user"))
#: The service's own folder (StateDirectory=kikimimi): its home, its club file and clip cache live there.
#: (KIKIMIMI_SERVICE_HOME: a test's stand-in, as KIKIMIMI_SYSFS is sysfs's.)
SERVICE_HOME = Path(os.environ.get("KIKIMIMI_SERVICE_HOME") or "/var/lib/kikimimi")
#: A name useradd accepts and a unit line cannot be broken by.
USER_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,30}\$?")


class AccessError(ValueError):
    """One line: what the service's user cannot reach, and the fix."""


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gid: int
    groups: frozenset[int]  # every group it is in, its own included


def account(name: str, extra_groups: tuple[str, ...] = ()) -> Account | None:
    """The user, with the groups the unit adds (SupplementaryGroups=); None when there is none."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return None
    gids = {entry.pw_gid} | {g.gr_gid for g in grp.getgrall() if name in g.gr_mem}
    for group in extra_groups:
        gids.add(grp.getgrnam(group).gr_gid)
    return Account(name, entry.pw_uid, entry.pw_gid, frozenset(gids))


def create_system_user(name: str, groups: tuple[str, ...]) -> None:
    """A system user with no login, no home of its own (the unit's StateDirectory is
    its home), in the groups that open sound cards and readers."""
    useradd = shutil.which("useradd") or shutil.which("useradd", path="/usr/sbin:/sbin")
    if useradd is None:
        raise AccessError(f"no user {name!r} and no useradd to create it: create a system user "
                          f"{name!r} in the groups {', '.join(groups)}, or name another with --user")
    argv = [useradd, "--system", "--user-group", "--no-create-home", "--home-dir", str(SERVICE_HOME),
            "--shell", "/usr/sbin/nologin", "--comment", "kikimimi table"]
    if groups:
        argv += ["--groups", ",".join(groups)]
    try:
        proc = subprocess.run(argv + [name], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AccessError(f"cannot create the user {name!r}: {exc}") from None
    if proc.returncode != 0:
        said = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        raise AccessError(f"cannot create the user {name!r}: {said}")


def in_a_home(path: Path) -> Path | None:
    """The home folder (hidden by ProtectHome=yes) this path lies in, if any."""
    for home in HOMES:
        if path == home or home in path.parents:
            return home
    return None


def blocked(path: Path, user: Account, want: int) -> str | None:
    """Why `user` cannot use `path` (`want`: os.R_OK, W_OK, X_OK on the path itself,
    search on every folder above it), or None.  Mode bits only; `run_as` counts the rest."""
    path = Path(os.path.abspath(path))
    for folder in reversed(path.parents):
        if not _allowed(folder, user, os.X_OK):
            return f"{folder} is closed to {user.name} ({_mode(folder)})"
    if not _allowed(path, user, want):
        return f"{path} is not {_verb(want)} by {user.name} ({_mode(path)})"
    return None


def _allowed(path: Path, user: Account, want: int) -> bool:
    try:
        st = path.stat()
    except OSError:
        return False
    if user.uid == 0:
        return True
    if st.st_uid == user.uid:
        bits = (st.st_mode >> 6) & 7
    elif st.st_gid in user.groups:
        bits = (st.st_mode >> 3) & 7
    else:
        bits = st.st_mode & 7
    return bits & want == want


def _mode(path: Path) -> str:
    try:
        st = path.stat()
    except OSError as exc:
        return exc.strerror or str(exc)
    owner = _name(pwd.getpwuid, st.st_uid)
    group = _name(grp.getgrgid, st.st_gid)
    return f"{stat.S_IMODE(st.st_mode):04o} {owner}:{group}"


def _name(lookup: object, number: int) -> str:
    try:
        return str(lookup(number)[0])  # type: ignore[operator]
    except KeyError:
        return str(number)


def _verb(want: int) -> str:
    if want & os.W_OK:
        return "writable"
    return "readable" if want & os.R_OK else "runnable"


def run_as(user: Account, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run argv as the user, with the unit's groups and no inherited environment (root only)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise AccessError("setpriv is missing (util-linux): cannot check the service user can run the program")
    groups = ",".join(str(g) for g in sorted(user.groups))
    try:
        return subprocess.run([setpriv, f"--reuid={user.uid}", f"--regid={user.gid}", f"--groups={groups}",
                               "--", *argv], capture_output=True, text=True, timeout=120, cwd="/",
                              env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(SERVICE_HOME),
                                   "LANG": "C.UTF-8"}, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AccessError(f"cannot run {argv[0]} as {user.name}: {exc}") from None
