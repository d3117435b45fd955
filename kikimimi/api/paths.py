"""Where a table's API lives: next to its journal, so one table = one set of files.

Deriving every path from the journal means `kikimimi console TABLE.toml`
finds the table that `kikimimi serve TABLE.toml` runs without any extra
setting, and two tables on one machine never collide.
"""
from __future__ import annotations

from pathlib import Path

#: Linux limit for a socket path (sun_path is 108 bytes, NUL included).
MAX_SOCKET_PATH = 107


def referee_socket(journal: Path) -> Path:
    """Mode 0600; every client must also present the secret."""
    return journal.with_name(journal.name + ".sock")


def public_socket(journal: Path) -> Path:
    """Mode 0666; spectators only: public events, whatever they send."""
    return journal.with_name(journal.name + ".public.sock")


def secret_file(journal: Path) -> Path:
    """Mode 0600; a fresh secret each time the table starts."""
    return journal.with_name(journal.name + ".secret")


def secret_for_socket(socket: Path) -> Path:
    """The secret next to a referee socket given on the command line."""
    name = socket.name
    stem = name[: -len(".sock")] if name.endswith(".sock") else name
    return socket.with_name(stem + ".secret")


def is_public_socket(socket: Path) -> bool:
    return socket.name.endswith(".public.sock")


def check_length(path: Path) -> str | None:
    """A one-line problem if the path cannot be a Unix socket address."""
    size = len(str(path).encode())
    if size > MAX_SOCKET_PATH:
        return (f"{path}: socket path is {size} bytes, longer than the {MAX_SOCKET_PATH} a Unix socket allows "
                "(put the table's journal in a shorter directory)")
    return None
