"""Which journal (and so which sockets) a table file names, for whoever asks: the owner's console
reaching a table the boot service serves.

The service reads its table file with HOME= its own home (`kikimimi.box.access.SERVICE_HOME`),
so a shipped `journal = "~/.local/share/…"` is a folder under /var/lib/kikimimi there, while the
owner's shell would expand it under /home/owner (and root's under /root): the console tries the
file as its own user reads it, then as the service reads it, and takes the one a table is served
at.  The service's folders let in its group (`service install` adds the owner to it); anyone else
meets a closed folder or an unreadable secret, and is told so in one line with the fix.
"""
from __future__ import annotations

import errno
import grp
import os
import pwd
from pathlib import Path

from kikimimi.api import paths
from kikimimi.box.access import SERVICE_HOME


class NotReachable(ValueError):
    """One line: no table is served at this file's journal, or the caller may not reach it."""


def journals(config_path: str | Path) -> list[Path]:
    """The journals the table file names: as this user reads it, then as the service does."""
    from kikimimi.table.config import load_table_config

    found = [load_table_config(config_path, served=True).journal]
    served = load_table_config(config_path, home=SERVICE_HOME, served=True).journal
    return list(dict.fromkeys([*found, served]))


def served_socket(config_path: str | Path, spectator: bool = False) -> Path:
    """The socket of the table served at one of the file's journals (the first one where a
    table is served; the caller's own when none is, for the caller's "not served" line)."""
    closed: list[Path] = []
    candidates = journals(config_path)
    for journal in candidates:
        socket = paths.public_socket(journal) if spectator else paths.referee_socket(journal)
        if present(socket, closed):
            return socket
    if closed:
        raise NotReachable(closed_line(closed[0]))
    return paths.public_socket(candidates[0]) if spectator else paths.referee_socket(candidates[0])


def present(path: Path, closed: list[Path] | None = None) -> bool:
    """Whether `path` exists; a folder on the way closed to this user is noted in `closed`."""
    try:
        os.lstat(path)
        return True
    except PermissionError:
        if closed is not None:
            closed.append(path)
        return False
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG):
            return False
        raise NotReachable(f"{path}: {exc.strerror or exc}") from None


def closed_line(path: Path) -> str:
    """Why this user cannot reach the table at `path`, and who can: the closed folder's group."""
    folder = next((f for f in reversed(path.parents) if not os.access(f, os.X_OK)), path.parent)
    group = _group_of(folder)
    me = _me()
    if group is None or group == me:
        return f"{path}: closed to {me} (the table's folder {folder} is its user's own)"
    return (f"{path}: closed to {me}: the table's referees are the group {group} "
            f"(sudo usermod -aG {group} {me}, then log in again)")


def _group_of(path: Path) -> str | None:
    try:
        gid = os.stat(path).st_gid
    except OSError:
        return None
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


def _me() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())
