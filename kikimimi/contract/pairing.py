"""The pairing codes and paired devices of a table's web console, on disk: both layers' one store.

Why in the bottom layer: two processes make pairing codes, and they sit on
layers that may not import each other.  `kikimimi web pair` (and the web
console that redeems the codes, `kikimimi/web/`) is above the table; the
table daemon itself makes one when the owner scans the PAIR card on a
seat's hand reader and says it into that earphone (`kikimimi/table/pair_card.py`,
docs/web.md), and the daemon may not import the web console.  So the store
lives here, below both, and both read and write the same files.

Everything lives in one folder beside the table's journal
(`<journal>.web/`, mode 0700, every file 0600), so one table is one set of
files and only the table's user can read them.  Nothing secret is stored as
given: a pairing code and a device's session token are kept only as an HMAC
under the folder's own key, so a copy of the devices file pairs nobody.

Codes are made by other processes than the server, so every change is a
whole-file rewrite under an `flock`, renamed into place.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROLES = ("referee", "owner")
#: How long a pairing code may be used, seconds.
CODE_LIFETIME = 300.0
#: Digits in a pairing code: short enough to type from a screen or an earphone.
CODE_DIGITS = 6
#: Codes waiting at once; an older one is dropped when more are asked for.
MAX_CODES = 8
#: Paired devices at once.
MAX_DEVICES = 32
#: Largest store file read (a bigger one is not ours).
MAX_FILE = 1 << 20


class StoreError(ValueError):
    """The web console's folder cannot be used (one line)."""


def folder_for(journal: Path) -> Path:
    return journal.with_name(journal.name + ".web")


@dataclass(frozen=True)
class Device:
    id: str
    role: str
    name: str
    paired: float


class Store:
    """The folder's files; every method reads the disk afresh (the CLI may have changed it)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._key: bytes | None = None

    # -- files ------------------------------------------------------------------
    def ensure(self) -> "Store":
        try:
            self.folder.mkdir(mode=0o700, exist_ok=True)
            os.chmod(self.folder, 0o700)
        except OSError as exc:
            raise StoreError(f"{self.folder}: cannot make the web console's folder ({exc.strerror or exc})") from None
        if self.folder.is_symlink() or not self.folder.is_dir():
            raise StoreError(f"{self.folder}: not a folder")
        return self

    @property
    def key(self) -> bytes:
        """Read (or made) under the lock: never ask for it while holding the lock (flock is per open file)."""
        if self._key is None:
            path = self.folder / "key"
            with self._locked():
                if not path.exists():
                    _write_private(path, secrets.token_hex(32))
                self._key = bytes.fromhex(_read(path).strip())
        return self._key

    def digest(self, kind: str, value: str) -> str:
        return hmac.new(self.key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.ensure()
        fd = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _load(self, name: str) -> dict[str, Any]:
        path = self.folder / name
        try:
            data = json.loads(_read(path))
        except FileNotFoundError:
            return {}
        except (ValueError, OSError) as exc:
            raise StoreError(f"{path}: unreadable ({exc})") from None
        return data if isinstance(data, dict) else {}

    def _save(self, name: str, data: dict[str, Any]) -> None:
        path = self.folder / name
        temp = path.with_name(f".{name}.{os.getpid()}.tmp")
        try:
            temp.unlink()
        except FileNotFoundError:
            pass
        _write_private(temp, json.dumps(data, indent=1, sort_keys=True))
        os.replace(temp, path)

    # -- pairing codes ------------------------------------------------------------
    def new_code(self, role: str, now: float | None = None) -> str:
        """A fresh one-time code for `role`, valid `CODE_LIFETIME` seconds."""
        if role not in ROLES:
            raise StoreError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        now = time.time() if now is None else now
        code = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
        wanted = self.digest("code", code)  # the key is read (or made) before the lock is taken
        with self._locked():
            codes = self._live_codes(now)
            codes[wanted] = {"role": role, "expires": now + CODE_LIFETIME}
            while len(codes) > MAX_CODES:
                codes.pop(min(codes, key=lambda k: codes[k]["expires"]))
            self._save("codes.json", codes)
        return code

    def _live_codes(self, now: float) -> dict[str, dict[str, Any]]:
        codes = self._load("codes.json")
        return {k: v for k, v in codes.items()
                if isinstance(v, dict) and isinstance(v.get("expires"), (int, float)) and v["expires"] > now
                and v.get("role") in ROLES}

    def redeem(self, code: str, device_name: str, now: float | None = None) -> tuple[Device, str] | None:
        """Use a code once: the new device and its session token, or None (wrong, used or expired)."""
        now = time.time() if now is None else now
        code = "".join(code.split()).replace("-", "")
        if not (code.isdecimal() and len(code) == CODE_DIGITS and code.isascii()):
            return None
        wanted = self.digest("code", code)
        with self._locked():
            codes = self._live_codes(now)
            found = next((v for k, v in codes.items() if hmac.compare_digest(k, wanted)), None)
            if found is None:
                self._save("codes.json", codes)
                return None
            codes.pop(wanted)
            self._save("codes.json", codes)
            devices = self._load("devices.json")
            while len(devices) >= MAX_DEVICES:
                devices.pop(min(devices, key=lambda k: devices[k].get("paired", 0)))
            token = secrets.token_urlsafe(32)
            name = "".join(ch for ch in device_name if ch.isprintable())[:60]  # printed by `web devices`
            device = Device(secrets.token_hex(4), str(found["role"]), name, now)
            devices[self.digest("session", token)] = {"id": device.id, "role": device.role,
                                                      "name": device.name, "paired": device.paired}
            self._save("devices.json", devices)
        return device, token

    # -- devices --------------------------------------------------------------------
    def device_for(self, token: str) -> Device | None:
        """The paired device holding this session token, None if none (revoked, never paired)."""
        if not token or len(token) > 100:
            return None
        wanted = self.digest("session", token)
        for k, v in self._load("devices.json").items():
            if hmac.compare_digest(k, wanted) and isinstance(v, dict):
                return Device(str(v.get("id")), str(v.get("role")), str(v.get("name", "")), float(v.get("paired", 0)))
        return None

    def devices(self) -> list[Device]:
        out = [Device(str(v.get("id")), str(v.get("role")), str(v.get("name", "")), float(v.get("paired", 0)))
               for v in self._load("devices.json").values() if isinstance(v, dict)]
        return sorted(out, key=lambda d: d.paired)

    def revoke(self, device_id: str) -> bool:
        with self._locked():
            devices = self._load("devices.json")
            kept = {k: v for k, v in devices.items() if not (isinstance(v, dict) and v.get("id") == device_id)}
            if len(kept) == len(devices):
                return False
            self._save("devices.json", kept)
        return True

    def csrf_for(self, token: str) -> str:
        """The CSRF token that goes with a session: derived, so nothing more is stored."""
        return self.digest("csrf", token)[:43]


def _read(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise ValueError(f"larger than {MAX_FILE} bytes")
    return data.decode()


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, text.encode())
    finally:
        os.close(fd)
