"""Tag maps: which physical tag (uid) is which piece.

A tag map is a TOML file (`hardware/tagmaps/*.toml`) with one table:

    [tags]
    "04a1b2c3d4e5f6" = "trident:heart-3"

Pieces whose tags carry an NDEF text record name themselves and need no entry.

A script's header may name its tag map, and scripts are untrusted: only a
regular file of bounded size is read, never a device or a FIFO.

Enrolling a piece (`enrol_piece`) is here, below the command line, because two
front ends share it: `kikimimi tags enroll` (one person, one reader, printed or
spoken prompts) and the spoken table set-up (each player on their own reader).
"""
from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from kikimimi.contract.tomlfile import TomlFileError, read_toml

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
        if key in out:  # "04A1…" and "04a1…" (or "04:a1…") are one tag: the last would silently win
            first = next(u for u in tags if normalise_uid(str(u)) == key)
            raise TagMapError(f"{where}: tags.{uid}: the same tag as tags.{first} (uids are hex: case, ':' "
                              "and spaces do not count): keep one of the two lines")
        out[key] = name
    return out


def load_tagmap(path: str | Path) -> dict[str, str]:
    p = Path(path)
    try:
        data = read_toml(p, MAX_TAGMAP_BYTES, "tag map")
    except TomlFileError as exc:
        raise TagMapError(str(exc)) from None
    return parse_tagmap(data, str(p))


def _natural(name: str) -> list[object]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def write_tagmap(path: Path, tags: Mapping[str, str]) -> None:
    """Write the map whole, to a temp file then renamed, so a crash leaves the old one."""
    lines = ["# uid (lowercase hex) = piece; written by `kikimimi tags enroll`", "[tags]"]
    for uid, piece in sorted(tags.items(), key=lambda kv: (_natural(kv[1]), kv[0])):
        lines.append(f"{json.dumps(uid)} = {json.dumps(piece, ensure_ascii=False)}")
    tmp = path.with_name(path.name + ".tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)


def say_name(piece: str, names: Mapping[str, str]) -> str:
    """The catalogue's name, else the piece name read out ("seat 2", "heart 3")."""
    if piece in names:
        return names[piece]
    set_name, _, rest = piece.partition(":")
    words = rest.replace("-", " ")
    return words if any(c.isalpha() for c in words) else f"{set_name} {words}"


# -- enrolling one piece (kikimimi tags enroll and the spoken table set-up) ----------------
#: One scan while enrolling: (uid, the name written on the tag or None).
Scan = tuple[str, "str | None", str]
NextScan = Callable[[float], "Scan | None"]


def enrol_piece(piece: str, next_scan: NextScan, tagmap: dict[str, str],
                save: Callable[[Mapping[str, str]], None], tell: Callable[..., None],
                names: Mapping[str, str], timeout_s: float) -> bool:
    """Wait for one tag for `piece` and record it (saved at once, so an interrupted enrolment
    resumes after it); a tag already enrolled, or naming another piece, is refused aloud
    (`tell(key, **params)` with the keys of MESSAGES).  False when no tag came in time."""
    deadline = time.monotonic() + timeout_s
    while (left := deadline - time.monotonic()) > 0:
        got = next_scan(left)
        if got is None:
            return False
        uid, tag, detail = got
        other = tagmap.get(uid)
        if other is not None:  # one tag is one copy: the same tag twice is not a second copy
            tell("taken" if other != piece else "again", other=say_name(other, names))
            continue
        if tag is not None and tag != piece:
            tell("names-other", other=say_name(tag, names))
            continue
        tagmap[uid] = piece
        save(tagmap)
        if tag == piece:
            tell("done", name=say_name(piece, names))
        else:
            why = detail.replace(": uid only", "") or "not an NFC tag"
            tell("done-uid", name=say_name(piece, names), why=why)
        return True
    return False
