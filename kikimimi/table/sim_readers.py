"""Simulated readers: a keyboard or a table script stands in for the hardware.

Typed vocabulary (one input per line):

    2 heart-3        seat 2's hand reader sees trident:heart-3
    f heart-3        the field reader sees it
    -2 heart-3       lifted off seat 2's hand reader (-f: off the field)
    2 pass           a command tag (cmd:pass) on seat 2's hand reader
    2 uid 04a1b2c3   a raw tag id, resolved through the tag map
    > declare trident 2    a referee console command
    lost 2 / back 2 / lost f / back f    a reader unplugged / plugged back

Short names gain the game's tag-set prefix; a full `SET:NAME` always works.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Protocol, TextIO

from kikimimi.contract.protocol import COMMAND_TAGS
from kikimimi.contract.script import Garbled, is_clock_line, read_script

Submit = Callable[[dict[str, Any]], Any]


class TypedLineError(ValueError):
    pass


def vocabulary_help(tags: Collection[str], players: int, deck: Collection[str] | None = None) -> str:
    """The typing help: the seat-token syntax, a sample of the pieces (of `deck`, the
    pieces the game's kit lays out, when given: never a piece this table does not use)
    and the command tags the table takes (a game with a kit: only its own)."""
    pool = tags if deck is None else [t for t in deck if t in tags] or tags
    sets = sorted({t.split(":", 1)[0] for t in pool if ":" in t and not t.startswith(("cmd:", "seat:"))})
    names = sorted(t.split(":", 1)[1] for t in pool if t.split(":", 1)[0] in sets)
    sample = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    own = [t for t in tags if t.startswith("cmd:")]  # the table's: the game's kit, or the contract's
    commands = ", ".join(sorted(c.split(":", 1)[1] for c in (own or COMMAND_TAGS)))
    seats = sorted(int(t[5:]) for t in tags if t.startswith("seat:") and t[5:].isdigit())
    tokens = (f"\nSeat tokens: seat:N (N 1-{seats[-1]}), e.g. '2 seat:3' is seat 2 scanning seat 3's token"
              if seats else "")
    return (f"Type: SEAT PIECE (seats 1-{players}) or f PIECE for the field; -SEAT/-f PIECE lifts it; "
            f"SEAT uid HEX; > COMMAND for the console; lost/back SEAT|f.\n"
            f"Pieces ({', '.join(sets)}): {sample}\nCommand tags: {commands}{tokens}")


class _Header(Protocol):
    @property
    def players(self) -> int: ...


class _Table(Protocol):
    @property
    def header(self) -> _Header: ...
    @property
    def known_tags(self) -> Collection[str]: ...


def table_help(table: _Table) -> str:
    """The keyboard help for the game now at `table`.  Its seats are the game's own: a
    resumed evening plays the journal's count, which the table file need not say (docs/evening.md:
    a resumed 4-player イントリーゲ was helped with "seats 1-3").  Its pieces are sampled
    from the game's kit at this table (マフィア42 once sampled cards not in its deck)."""
    header = table.header
    deck: list[str] | None = None
    game, options = getattr(header, "game", None), getattr(header, "options", None)
    if isinstance(game, str):
        from kikimimi.contract.kit import kit_for

        try:
            kit = kit_for(game, header.players, options if isinstance(options, dict) else {})
            deck = [*kit.own, *kit.table]
        except Exception:  # a game whose kit cannot be listed: every known tag, as before
            deck = None
    return vocabulary_help(table.known_tags, header.players, deck)


def parse_typed(text: str, tags: Collection[str]) -> dict[str, Any] | None:
    """One typed line -> one script line (without `t`); None for a blank line."""
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith(">"):
        command = text[1:].strip()
        if not command:
            raise TypedLineError("'>' needs a console command after it")
        return {"console": command}
    words = text.split()
    if words[0] in ("lost", "back"):
        if len(words) != 2:
            raise TypedLineError(f"'{words[0]}' takes one reader: a seat number or f")
        return {**_reader(words[1]), words[0]: True}
    if len(words) < 2:
        raise TypedLineError(f"{text!r}: expected a reader and a piece, e.g. '2 heart-3' or 'f heart-3'")
    removed = words[0].startswith("-")
    line = _reader(words[0].lstrip("-"))
    if words[1] == "uid":
        if len(words) != 3:
            raise TypedLineError("'uid' takes one hex tag id")
        line["uid"] = words[2]
    else:
        if len(words) != 2:
            raise TypedLineError(f"{text!r}: one piece at a time")
        line["tag"] = resolve_name(words[1], tags)
    if removed:
        line["removed"] = True
    return line


def _reader(word: str) -> dict[str, Any]:
    if word in ("f", "field"):
        return {"reader": "field"}
    if word.isascii() and word.isdigit() and len(word) <= 3:
        return {"reader": "hand", "seat": int(word)}
    raise TypedLineError(f"{word!r} is not a reader: use a seat number or f")


def resolve_name(word: str, tags: Collection[str]) -> str:
    """'heart-3' -> 'trident:heart-3'; 'pass' -> 'cmd:pass'; full names pass through."""
    if ":" in word:
        return word
    matches = sorted(t for t in tags if t.split(":", 1)[1] == word)
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        return next((m for m in matches if not m.startswith("cmd:")), matches[0])
    return word  # the engine refuses it with its own message


#: Longest typed line read; the rest of a longer one is skipped.
MAX_TYPED = 4096


def _ends_line(raw: str | bytes) -> bool:
    return raw.endswith(b"\n") if isinstance(raw, bytes) else raw.endswith("\n")


def _typed(stream: BinaryIO | TextIO) -> Iterator[str | TypedLineError]:
    """Typed lines as text; a line too long or not UTF-8 becomes its one-line complaint.

    The keyboard is untrusted like every other input: one bad byte must
    cost one line, not the table."""
    while True:
        raw = stream.readline(MAX_TYPED + 1)
        if not raw:
            return
        complete = _ends_line(raw)
        if len(raw) > MAX_TYPED and not complete:
            while (rest := stream.readline(MAX_TYPED + 1)) and not _ends_line(rest):
                pass
            yield TypedLineError(f"a typed line longer than {MAX_TYPED} characters was skipped")
            continue
        if isinstance(raw, bytes):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                yield TypedLineError(f"not UTF-8 text, skipped: {raw.decode('utf-8', 'replace').strip()!r}")
        else:
            yield raw


def typed_lines(stream: BinaryIO | TextIO, tags: Collection[str], submit: Submit,
                complain: Callable[[str], None], stop: threading.Event) -> None:
    """Feed typed lines until end of input or `stop`."""
    for raw in _typed(stream):
        if stop.is_set():
            return
        if isinstance(raw, TypedLineError):
            complain(str(raw))
            continue
        try:
            line = parse_typed(raw, tags)
        except TypedLineError as exc:
            complain(str(exc))
            continue
        if line is not None:
            submit(line)


def scripted_lines(path: str | Path, submit: Submit, stop: threading.Event,
                   speed: float = 1.0) -> list[str]:
    """Play a table script's inputs at their times (divided by `speed`; 0 = at once).

    The lines are submitted as fresh inputs (the daemon stamps its own time),
    so a recorded game can be played into a live table.
    """
    parsed = read_script(path)
    start = time.monotonic()
    for _, item in parsed.lines:
        if stop.is_set():
            break
        if isinstance(item, Garbled) or is_clock_line(item):  # a recorded timer: this table's clock fires its own
            continue
        t = item.get("t", 0)
        if speed > 0 and isinstance(t, (int, float)):
            delay = start + t / speed - time.monotonic()
            if delay > 0 and stop.wait(delay):
                break
        submit({k: v for k, v in item.items() if k != "t"})
    return parsed.warnings
