"""Speech rate and volume per output, changed from the referee console during a game.

    voice seat-2 rate 320      # words per minute, 40-600
    voice speaker volume 80    # percent, 0-400

Such a line is no game input: the engine turns it into a `voice` event
(journaled like any console line, so a resumed table re-applies it) and the
audio output applies it.  This module imports nothing heavy, since the engine
parses every console line.
"""
from __future__ import annotations

import re
from typing import Any

MIN_RATE, MAX_RATE = 40, 600
MAX_VOLUME_PCT = 400
_OUTPUT = re.compile(r"(?:seat-?)?([1-9][0-9]{0,2})$")
USAGE = "voice OUTPUT rate WPM | voice OUTPUT volume PCT (OUTPUT: speaker or seat-N)"


def is_voice_command(line: str) -> bool:
    return line.split(maxsplit=1)[:1] == ["voice"]


def parse_voice_command(line: str, players: int) -> dict[str, Any] | str:
    """The `voice` event's fields, or a one-line refusal naming what is wrong."""
    words = line.split()
    if len(words) != 4 or words[0] != "voice":
        return f"usage: {USAGE}"
    _, output, setting, value = words
    if output != "speaker":
        m = _OUTPUT.match(output)
        if not m or int(m.group(1)) > players:
            return f"voice: no output {output[:20]!r} (speaker or seat-1 .. seat-{players})"
        output = f"seat-{int(m.group(1))}"
    if not (value.isascii() and value.isdigit()) or len(value) > 4:  # "²".isdigit(), yet int("²") fails
        return f"voice: {setting[:20]} must be a whole number"
    number = int(value)
    if setting == "rate":
        if not MIN_RATE <= number <= MAX_RATE:
            return f"voice: rate must be {MIN_RATE}-{MAX_RATE} words per minute"
    elif setting == "volume":
        if number > MAX_VOLUME_PCT:
            return f"voice: volume must be 0-{MAX_VOLUME_PCT} percent"
    else:
        return f"usage: {USAGE}"
    return {"output": output, setting: number, "private": "referee"}
