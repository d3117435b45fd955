"""Shared by the hardening tests: a toy table, its replay, strict JSON."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from kikimimi.testkit.script import replay_journal as replay

TOY_CLI = [sys.executable, str(Path(__file__).parents[1] / "core" / "toy_kikimimi.py")]




def strict_json(text: str) -> Any:
    """Parse refusing NaN/Infinity: the log must be standard JSON."""
    def refuse(name: str) -> Any:
        raise ValueError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)
