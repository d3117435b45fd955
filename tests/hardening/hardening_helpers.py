"""Shared by the hardening tests: a toy table, its replay, strict JSON."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from kikimimi.engine import ScriptRun
from kikimimi.script import read_script

TOY_CLI = [sys.executable, str(Path(__file__).parents[1] / "core" / "toy_kikimimi.py")]


def replay(journal: Path) -> list[dict[str, Any]]:
    """What `kikimimi replay` makes of a journal (the same ScriptRun)."""
    parsed = read_script(journal)
    run = ScriptRun(parsed.header)
    for number, item in parsed.lines:
        run.feed(number, item)
    run.close()
    return run.log


def strict_json(text: str) -> Any:
    """Parse refusing NaN/Infinity: the log must be standard JSON."""
    def refuse(name: str) -> Any:
        raise ValueError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)
