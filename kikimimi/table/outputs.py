"""The one shape of everything a table speaks or prints through.

The text narration (`narrate.TextOutput`) and the sound devices
(`voice.output.AudioOutput`) are told the same events; the CLI holds them as
`Output`s, so a new kind (a braille line, a recorder) is checked against the
same three calls.  Structural: an output does not import this module."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Output(Protocol):
    def emit(self, events: Sequence[Mapping[str, Any]], cause_hand_seat: int | None = None) -> list[str]:
        """Say or show what `events` hold for this output's audiences; the problems met, one line each.

        `cause_hand_seat`: the seat whose hand scan caused them (its earphone answers first)."""
        ...

    def wait_idle(self, timeout: float | None = None) -> None:
        """Return once everything emitted so far has been said (or `timeout` passed)."""
        ...

    def close(self) -> None:
        ...
