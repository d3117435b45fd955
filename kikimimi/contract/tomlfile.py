"""Reading a TOML file that a user wrote: bounded, and every failure one line.

A table config and a tag map are both hand-edited TOML next to a table; a
typo in either must be answered with the file, the line and the column, never
a traceback, and a path to /dev/zero or a 10 GB file must not be read.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from kikimimi.contract.script import ScriptError, read_regular_file


class TomlFileError(ValueError):
    """One line: the file and what is wrong with it."""


def read_toml(path: Path, limit: int, what: str) -> dict[str, Any]:
    """The parsed file; `what` ("table config", "tag map") names it in messages."""
    try:
        text = read_regular_file(path, limit, what).decode("utf-8")
    except ScriptError as exc:
        raise TomlFileError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise TomlFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlFileError(f"{path}: not valid TOML: {toml_problem(exc, text)}") from None
    except RecursionError:
        raise TomlFileError(f"{path}: not a usable {what} (nested too deep)") from None
    except ValueError as exc:  # e.g. a number of thousands of digits
        raise TomlFileError(f"{path}: not a usable {what} ({exc})") from None


def toml_problem(exc: tomllib.TOMLDecodeError, text: str) -> str:
    """'line L, column C: why' (Python 3.14 gives them as attributes; earlier, in the message)."""
    line, col = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    message = str(getattr(exc, "msg", None) or exc)
    if line is None and "(at line " in message:
        message, _, where = message.rpartition(" (at line ")
        parts = where.rstrip(")").split(", column ")
        if len(parts) == 2 and parts[0].isascii() and parts[0].isdigit() and parts[1].isdigit():
            line, col = int(parts[0]), int(parts[1])
    elif line is None and "(at end of document)" in message:
        message = message.replace(" (at end of document)", "")
        line = text.count("\n") + 1
        col = len(text.rsplit("\n", 1)[-1]) + 1
    return f"line {line}, column {col}: {message}" if line is not None else message
