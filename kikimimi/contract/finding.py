"""One finding of `kikimimi doctor`: what is configured, found or missing, and the fix."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Check:
    name: str  # what was checked, e.g. "reader hand-1"
    ok: bool
    detail: str  # what was found
    fix: str = ""  # the command or step that mends it, when not ok

    def line(self) -> str:
        mark = "ok " if self.ok else "FIX"
        tail = f"  -> {self.fix}" if self.fix and not self.ok else ""
        return f"[{mark}] {self.name}: {self.detail}{tail}"
