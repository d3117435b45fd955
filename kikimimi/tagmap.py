"""Tag maps: which physical tag (uid) is which piece.

A tag map is a TOML file (`hardware/tagmaps/*.toml`) with one table:

    [tags]
    "04a1b2c3d4e5f6" = "trident:heart-3"

Pieces whose tags carry an NDEF text record name themselves and need no entry.

A script's header may name its tag map, and scripts are untrusted: only a
regular file of bounded size is read, never a device or a FIFO.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from kikimimi.tomlfile import TomlFileError, read_toml

NAME = re.compile(r"^[a-z0-9]+:[a-z0-9][a-z0-9-]*$")
UID = re.compile(r"^[0-9a-f]{8,20}$")
#: Largest tag map read (a full set of 1,000 pieces is about 50 KB).
MAX_TAGMAP_BYTES = 4 * 1024 * 1024


class TagMapError(ValueError):
    pass


def normalise_uid(uid: str) -> str:
    return uid.replace(":", "").replace(" ", "").lower()


def parse_tagmap(data: Mapping[str, object], where: str) -> dict[str, str]:
    tags = data.get("tags", {})
    if not isinstance(tags, Mapping):
        raise TagMapError(f"{where}: [tags] must be a table of uid = \"SET:NAME\"")
    out: dict[str, str] = {}
    for uid, name in tags.items():
        key = normalise_uid(str(uid))
        if not UID.match(key):
            raise TagMapError(f"{where}: tags.{uid}: not a hex uid")
        if not isinstance(name, str) or not NAME.match(name):
            raise TagMapError(f"{where}: tags.{uid}: {name!r} is not a piece name like \"trident:heart-3\"")
        out[key] = name
    return out


def load_tagmap(path: str | Path) -> dict[str, str]:
    p = Path(path)
    try:
        data = read_toml(p, MAX_TAGMAP_BYTES, "tag map")
    except TomlFileError as exc:
        raise TagMapError(str(exc)) from None
    return parse_tagmap(data, str(p))
