"""A bot game's length in table minutes: what a designer asks first.

A bot answers the instant it is asked, one script line a second, so neither
the inputs nor the script's own clock is the time a game takes at a table.
The model here, per input, takes the longer of

- the game's own clock between the two inputs (a timer the bots waited out:
  a night's 25 s, a speech's seconds), and
- the table's speech the previous input caused, at the default speech rate
  (espeak-ng's 175 words a minute, `kikimimi.voice.engines.NORMAL_WPM`), plus
  a person's act: ACT_SECONDS, the middle of the 3–8 s the seat bots wait to
  pass for a person (docs/seat-bots.md: "find a token among their own
  look-alike set and scan"; a judgement, not a measurement), or REPEAT_SECONDS
  for the same tag tapped again on the same reader (イントリーゲ's bribe taps:
  the hand is already there).

So a game's minutes are its timers where timers rule and its talk and scans
where people rule.  The figures are a model and the report says so beside them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: espeak-ng's default rate, the table's default (kikimimi/voice/engines.py NORMAL_WPM).
SPEECH_WPM = 175
#: Seconds a person takes to act after a call (middle of docs/seat-bots.md's 3–8 s).
ACT_SECONDS = 5.5
#: Seconds for the same tag tapped again on the same reader.
REPEAT_SECONDS = 1.0


def speech_seconds(text: str) -> float:
    """How long the speaker takes to say `text` at SPEECH_WPM (words; a Japanese
    line without spaces counts a word per two characters)."""
    words = len(text.split())
    if words <= 1 and len(text) > 12:  # no spaces: Japanese
        words = max(1, len(text) // 2)
    return 60.0 * words / SPEECH_WPM


def _same_act(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    keys = ("reader", "seat", "tag", "uid", "console")
    return all(a.get(k) == b.get(k) for k in keys) and "removed" not in b


def table_seconds(script: Sequence[Mapping[str, Any]], log: Sequence[Mapping[str, Any]]) -> float:
    """The modelled seconds of one game at a table (see the module's docstring)."""
    heard: dict[int, float] = {}
    for e in log:
        if e.get("type") == "say" and e.get("to") == "table" and isinstance(e.get("in"), int):
            heard[e["in"]] = heard.get(e["in"], 0.0) + speech_seconds(str(e.get("text", "")))
    total = heard.get(1, 0.0)  # the header's own lines (the welcome, the deal's call)
    previous: Mapping[str, Any] = {}
    t_before = 0.0
    for index, line in enumerate(script[1:], start=2):  # line numbers: the header is 1
        t = float(line.get("t", t_before))
        person = REPEAT_SECONDS if previous and _same_act(previous, line) else ACT_SECONDS
        total += max(t - t_before, heard.get(index - 1, 0.0) + person) if index > 2 else person
        t_before, previous = t, line
    total += heard.get(len(script), 0.0)  # the last input's lines: the end, the reveal
    return total
