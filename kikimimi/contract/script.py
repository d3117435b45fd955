"""Reading table scripts (docs/contract.md): a header line, then one input per line.

A script is what the readers and the console saw, so it must survive what
real tables do to files: a crash mid-write leaves a truncated last line
(skipped with a warning), and a hand-edited script may hold garbage (each
bad line becomes an `error` event; the rest still plays).  Only an unusable
header makes the whole script unreadable.

A script is also untrusted input (`kikimimi replay` reads whatever it is
given), so every line is bounded before Python's `json` sees it: its length,
its nesting and the digits of its numbers; `NaN`, infinities and lone
surrogates are refused, so whatever the runtime writes back is standard
JSON in UTF-8.
"""
from __future__ import annotations

import json
import math
import os
import stat
# typeshed leaves out json's private speedups used here (c_make_encoder, scan_once, WHITESPACE): CPython has them
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.contract.protocol import in_log_order

#: Longest script line accepted, in bytes (a real input is under 200).
MAX_LINE_BYTES = 64 * 1024
#: Deepest nesting of objects and lists in one line (a real input has 2).
MAX_DEPTH = 32
#: Most digits in one number (Python refuses to convert beyond 4,300, with a traceback).
MAX_DIGITS = 40
#: Largest script file `read_script` reads.
MAX_SCRIPT_BYTES = 256 * 1024 * 1024
#: How much of a bad line an error message quotes.
QUOTE = 60


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
    """A script line that is not a usable JSON object; it becomes an `error` event.

    `text` is a bounded, printable quote of the line (never a lone surrogate),
    so echoing it anywhere is safe."""

    text: str
    problem: str

    @classmethod
    def of(cls, text: str, problem: str) -> "Garbled":
        quoted = text if len(text) <= 4 * QUOTE else text[: 4 * QUOTE] + "…"
        return cls(quoted.encode("utf-8", "replace").decode("utf-8"), problem)


@dataclass(frozen=True)
class ParsedScript:
    header: Header
    lines: list[tuple[int, dict[str, Any] | Garbled]]  # (line number, content)
    warnings: list[str]


def _bounded_int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number with more than {MAX_DIGITS} digits")
    return int(text)


def _finite_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise ValueError(f"a number with more than {MAX_DIGITS} digits")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number out of range")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not standard JSON")


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False  # the common case: no scan needed
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


#: What `json.loads(text, parse_int=..., ...)` builds anew for every call (a
#: third of a short line's parse); a decoder holds no state between calls.
_LINE_DECODER = json.JSONDecoder(parse_int=_bounded_int, parse_float=_finite_float,
                                 parse_constant=_no_constant)
_scan_once = _LINE_DECODER.scan_once  # type: ignore[attr-defined]
_whitespace = json.decoder.WHITESPACE.match  # type: ignore[attr-defined]


def parse_line(text: str) -> dict[str, Any] | Garbled:
    """One script line -> its object, or a `Garbled` saying why not (never an exception)."""
    if len(text) > MAX_LINE_BYTES:
        return Garbled.of(text, f"longer than {MAX_LINE_BYTES} characters")
    if not text.isascii():  # ASCII holds no surrogate: the common case is not copied to check
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return Garbled.of(text, "not Unicode text (a lone surrogate)")
    if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(text):
        return Garbled.of(text, f"nested deeper than {MAX_DEPTH} levels")
    try:
        if text.startswith("\ufeff"):  # what json.loads says before it decodes anything
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        # `_LINE_DECODER.decode(text)`, its two Python layers inline, and the
        # leading-whitespace match skipped when there is none (a third of a decode)
        try:
            obj, end = _scan_once(text, 0 if text[:1] not in " \t\n\r" else _whitespace(text, 0).end())
        except StopIteration as err:
            raise json.JSONDecodeError("Expecting value", text, err.value) from None
        if end != len(text):
            end = _whitespace(text, end).end()
            if end != len(text):
                raise json.JSONDecodeError("Extra data", text, end)
    except json.JSONDecodeError as exc:
        return Garbled.of(text, f"not JSON ({exc.msg})")
    except (ValueError, RecursionError) as exc:
        return Garbled.of(text, f"not usable JSON ({exc})")
    if not isinstance(obj, dict):
        return Garbled.of(text, "not a JSON object")
    if "\\u" in text:  # an escape may have made a lone surrogate
        try:
            dumps(obj).encode("utf-8")
        except UnicodeEncodeError:
            return Garbled.of(text, "not Unicode text (a lone surrogate)")
    return obj


def clean_line(obj: Mapping[str, Any]) -> dict[str, Any] | Garbled:
    """A line that arrived as an object (API, readers, tests) under the same
    bounds as a line read from a file: what the journal can hold and replay."""
    try:
        text = dumps(obj)
    except (TypeError, ValueError, RecursionError) as exc:
        return Garbled.of(repr(obj)[: 4 * QUOTE], f"not usable JSON ({exc})")
    return parse_line(text)


def _blank(piece: str | bytes) -> bool:
    return not (piece.strip(_ASCII_BLANK) if isinstance(piece, str) else piece.strip())


def _decode(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


#: What `bytes.strip()` strips (str.strip() would strip more: U+3000, U+0085...).
_ASCII_BLANK = " \t\n\r\x0b\x0c"


def parse_bytes(data: bytes, name: str = "script") -> ParsedScript:
    """Parse a whole script.  `data` may end mid-line, even mid-character (a crash mid-write)."""
    pieces: list[str] | list[bytes]
    try:  # nearly always all UTF-8: decoded at once, not line by line
        pieces = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:  # then line by line: only the lines that are not UTF-8 are garbled
        pieces = data.split(b"\n")
    complete = data.endswith(b"\n")
    if complete:
        pieces.pop()  # the empty piece after the final newline
    if not pieces or _blank(pieces[0]):
        raise ScriptError(f"{name}: empty script (line 1 must be the header)")
    head = pieces[0] if isinstance(pieces[0], str) else _decode(pieces[0])
    if head is None:
        raise ScriptError(f"{name}: line 1: header is not UTF-8 text")
    first = parse_line(head)
    if isinstance(first, Garbled):
        raise ScriptError(f"{name}: line 1: header is {first.problem}")
    header = Header.parse(first, f"{name}: line 1")
    lines: list[tuple[int, dict[str, Any] | Garbled]] = []
    warnings: list[str] = []
    rest: Iterable[str | bytes] = pieces[1:]
    for number, piece in enumerate(rest, start=2):
        if _blank(piece):
            continue
        if isinstance(piece, str):
            parsed = parse_line(piece)
        else:
            text = _decode(piece)
            parsed = parse_line(text) if text is not None else Garbled.of(
                piece.decode("utf-8", "replace"), "not UTF-8 text")
        last = number == len(pieces)
        if isinstance(parsed, Garbled) and last and not complete:
            raw = piece.encode("utf-8") if isinstance(piece, str) else piece
            warnings.append(f"{name}: line {number}: truncated last line skipped (a crash mid-write?): "
                            f"{describe_bytes(raw)}")
            continue
        lines.append((number, parsed))
    return ParsedScript(header, lines, warnings)


def describe_bytes(raw: bytes) -> str:
    """A short printable quote of dropped bytes, for a warning."""
    text = raw.decode("utf-8", "replace")
    quoted = text if len(text) <= QUOTE else text[:QUOTE] + "…"
    return f"{len(raw)} bytes {quoted!r}"


def open_regular(path: Path, flags: int, error: type[Exception], must: str = "", mode: int = 0o666
                 ) -> tuple[int, os.stat_result]:
    """A regular file opened with `flags`, and its stat; a NUL byte in the name, a device or a
    FIFO is one line of `error` (`must`: why it must be a regular file).  An `OSError` of the
    open itself is the caller's to word."""
    try:
        fd = os.open(path, flags | os.O_CLOEXEC, mode)
    except ValueError:  # a NUL byte in the name
        raise error(f"{str(path)!r}: not a usable file name (it holds a NUL byte)") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path}: not a regular file{must}")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_regular_file(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or one-line `ScriptError`.

    A name from an untrusted header or command line could point at a device
    (`/dev/zero` never ends) or a FIFO (opening it blocks): both are refused
    before a byte is read."""
    p = Path(path)
    try:
        fd, info = open_regular(p, os.O_RDONLY | os.O_NONBLOCK, ScriptError, f" (a {what} must be one)")
    except OSError as exc:
        raise ScriptError(f"{p}: cannot read ({exc.strerror or exc})") from None
    try:
        if info.st_size > limit:
            raise ScriptError(f"{p}: {info.st_size} bytes, more than the {limit} a {what} may have")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise ScriptError(f"{p}: more than the {limit} bytes a {what} may have")
        return b"".join(chunks)
    except OSError as exc:
        raise ScriptError(f"{p}: cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def read_script(path: str | Path) -> ParsedScript:
    p = Path(path)
    return parse_bytes(read_regular_file(p, MAX_SCRIPT_BYTES, "table script"), str(p))


_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), allow_nan=False)

#: The C encoder `_LINE_ENCODER.encode` builds on every call, built once, and
#: without circular-reference markers (None): ~10 % of a log line, and with no
#: markers it holds no state, so one serves every thread and a failed call
#: leaves nothing behind.  A cycle can only come from a bug; it is then a
#: `RecursionError` instead of a `ValueError` (`clean_line` and the daemon
#: catch both; a line parsed from JSON holds no cycle).
_encode = None if c_make_encoder is None else c_make_encoder(
    None, _LINE_ENCODER.default, encode_basestring, None,
    _LINE_ENCODER.key_separator, _LINE_ENCODER.item_separator,
    _LINE_ENCODER.sort_keys, _LINE_ENCODER.skipkeys, _LINE_ENCODER.allow_nan)


def dumps(obj: Mapping[str, Any]) -> str:
    """One script or log line, compact and stable (the byte-for-byte replay relies
    on it), and standard JSON: `NaN` or an infinity is a `ValueError`.

    `json.dumps` with any option builds a new JSONEncoder per call, and
    `JSONEncoder.encode` a new C encoder: the C encoder is kept instead
    (`_encode`), exactly what `_LINE_ENCODER.encode` runs bar the cycle check.
    A log entry is written in the log's order (`protocol.in_log_order`)."""
    if "seq" in obj:
        obj = in_log_order(obj)
    if _encode is None:  # a Python without the json C speedups
        return _LINE_ENCODER.encode(obj)
    return "".join(_encode(obj, 0))


def iter_dicts(lines: Iterable[str | Mapping[str, Any]]) -> Iterator[dict[str, Any] | Garbled]:
    for line in lines:
        if isinstance(line, str):
            yield parse_line(line)
        else:
            yield clean_line(line)


UNDO = "undo"
NEW_GAME = "new"  # the daemon's: the next game at the same table, in a fresh journal


def is_undo(item: Mapping[str, Any] | Garbled) -> bool:
    if type(item) is not dict and not isinstance(item, Mapping):
        return False
    return "console" in item and str(item["console"]).strip() == UNDO


def is_clock_line(item: Mapping[str, Any] | Garbled) -> bool:
    """`{"t": AT, "timer": NAME}`: a line the live table's clock wrote (a timer it
    fired, docs/durability.md), not an input of a player or the referee."""
    return type(item) is dict and "timer" in item and "reader" not in item and "console" not in item


def without_undone(lines: list[tuple[int, dict[str, Any] | Garbled]]) -> list[tuple[int, dict[str, Any] | Garbled]]:
    """The lines left once each undo has taken back the latest line before it,
    *counting refused lines as inputs*.  Only right for a script whose every
    line was accepted; the definition the table uses (undo skips refused
    lines) is `kikimimi.table.engine.ScriptRun`.  Kept for older callers."""
    kept: list[tuple[int, dict[str, Any] | Garbled]] = []
    for number, item in lines:
        if is_undo(item):
            if kept:
                kept.pop()
            continue
        kept.append((number, item))
    return kept
