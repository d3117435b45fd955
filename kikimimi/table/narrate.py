"""Text output: what the speaker and each earphone would say, as lines.

This is the fallback when there is no sound device, and the referee's view
in a terminal.  Like audio, it can be limited to what some listeners may
hear (`listen`), so a demo never prints a secret to the wrong person.
"""
from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from typing import Any, TextIO

from kikimimi.contract.protocol import TABLE, each_audience


class TextOutput:
    def __init__(self, stream: TextIO | None = None, listen: Collection[str] | None = None) -> None:
        """`listen`: the audiences printed ("table", "seat:1", ...); None = all (the referee)."""
        self.stream = stream or sys.stdout
        self.listen = set(listen) if listen is not None else None

    def emit(self, events: Sequence[Mapping[str, Any]], cause_hand_seat: int | None = None) -> list[str]:
        for ev in events:
            for one in each_audience(ev):  # a reveal: a line per earphone, as each hears it
                line = self.format(one)
                if line is not None:
                    print(line, file=self.stream, flush=True)
        return []

    def format(self, ev: Mapping[str, Any]) -> str | None:
        kind = ev.get("type")
        if kind == "say":
            to = str(ev["to"])
            if self.listen is not None and to not in self.listen:
                return None
            who = "speaker" if to == TABLE else to.replace("seat:", "seat ") + " ear"
            return f"[{who:>11}] {ev['text']}"
        if self.listen is not None:
            return None
        if kind == "error":
            return f"{'':13} ! {ev['message']}"
        if kind == "game-over":
            places = ", ".join(f"{r['place']}. seat {r['seat']}" for r in ev.get("ranking", []))
            return f"{'':13} = game over ({ev.get('reason', '')}): {places}"
        return None

    def wait_idle(self, timeout: float | None = None) -> None:
        pass

    def close(self) -> None:
        pass
