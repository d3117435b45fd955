"""Reading table scripts (CONTRACT.md): a header line, then one input per line.

A script is what the readers and the console saw, so it must survive what
real tables do to files: a crash mid-write leaves a truncated last line
(skipped with a warning), and a hand-edited script may hold garbage (each
bad line becomes an `error` event; the rest still plays).  Only an unusable
header makes the whole script unreadable.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ScriptError(ValueError):
    """The script cannot be run at all (one line, ready to print)."""


@dataclass(frozen=True)
class Header:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "players": self.players}
        if self.options:
            out["options"] = self.options
        out["lang"] = self.lang
        out.update(self.extra)
        return out

    @classmethod
    def parse(cls, obj: Any, where: str = "line 1") -> "Header":
        if not isinstance(obj, Mapping):
            raise ScriptError(f"{where}: the header must be a JSON object like "
                              '{"game": "trident", "players": 3}')
        game, players = obj.get("game"), obj.get("players")
        if not isinstance(game, str) or not game:
            raise ScriptError(f'{where}: header needs "game" (a game name)')
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ScriptError(f'{where}: header needs "players" (a whole number of seats)')
        options = obj.get("options", {})
        if not isinstance(options, Mapping):
            raise ScriptError(f'{where}: header "options" must be an object')
        lang = obj.get("lang", "en")
        if lang not in ("ja", "en"):
            raise ScriptError(f'{where}: header "lang" must be "ja" or "en", not {lang!r}')
        extra = {k: v for k, v in obj.items() if k not in ("game", "players", "options", "lang")}
        return cls(game, players, dict(options), lang, extra)


@dataclass(frozen=True)
class Garbled:
    """A script line that is not a JSON object; it becomes an `error` event."""

    text: str
    problem: str


@dataclass(frozen=True)
class ParsedScript:
    header: Header
    lines: list[tuple[int, dict[str, Any] | Garbled]]  # (line number, content)
    warnings: list[str]


def parse_line(text: str) -> dict[str, Any] | Garbled:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return Garbled(text, f"not JSON ({exc.msg})")
    if not isinstance(obj, dict):
        return Garbled(text, "not a JSON object")
    return obj


def parse_text(text: str, name: str = "script") -> ParsedScript:
    """Parse a whole script.  `text` may end mid-line (a crash mid-write)."""
    raw_lines = text.split("\n")
    complete = text.endswith("\n")
    if complete:
        raw_lines.pop()  # the empty string after the final newline
    if not raw_lines or not raw_lines[0].strip():
        raise ScriptError(f"{name}: empty script (line 1 must be the header)")
    first = parse_line(raw_lines[0])
    if isinstance(first, Garbled):
        raise ScriptError(f"{name}: line 1: header is {first.problem}")
    header = Header.parse(first, f"{name}: line 1")
    lines: list[tuple[int, dict[str, Any] | Garbled]] = []
    warnings: list[str] = []
    for number, raw in enumerate(raw_lines[1:], start=2):
        if not raw.strip():
            continue
        parsed = parse_line(raw)
        last = number == len(raw_lines)
        if isinstance(parsed, Garbled) and last and not complete:
            warnings.append(f"{name}: line {number}: truncated last line skipped (a crash mid-write?)")
            continue
        lines.append((number, parsed))
    return ParsedScript(header, lines, warnings)


def read_script(path: str | Path) -> ParsedScript:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ScriptError(f"{p}: cannot read ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError(f"{p}: not UTF-8 text") from None
    return parse_text(text, str(p))


def dumps(obj: Mapping[str, Any]) -> str:
    """One script or log line, compact and stable (the byte-for-byte replay relies on it)."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def iter_dicts(lines: Iterable[str | Mapping[str, Any]]) -> Iterator[dict[str, Any] | Garbled]:
    for line in lines:
        if isinstance(line, str):
            yield parse_line(line)
        else:
            yield dict(line)


UNDO = "undo"
NEW_GAME = "new"  # the daemon's: the next game at the same table, in a fresh journal


def without_undone(lines: list[tuple[int, dict[str, Any] | Garbled]]) -> list[tuple[int, dict[str, Any] | Garbled]]:
    """The lines that still count once every `{"console": "undo"}` has taken back
    the latest input before it.  The journal keeps undo lines (it is append-only,
    so even an undo is logged before it acts); replays apply them this way."""
    kept: list[tuple[int, dict[str, Any] | Garbled]] = []
    for number, item in lines:
        if isinstance(item, dict) and str(item.get("console", "")).strip() == UNDO:
            if kept:
                kept.pop()
            continue
        kept.append((number, item))
    return kept
