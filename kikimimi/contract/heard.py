"""When a question has been heard: each output's queue of clips, on the table's clock.

A time limit that starts when a question is *asked* can close before a player has heard
it (at espeak-ng's 175 words a minute a claim and its window line take 6 s on
the speaker).  A game asks instead for N seconds *after heard* (`choices.ask_*(...,
heard=True)`, `protocol.set_timer_after_heard`), and the runtime starts the clock when
the prompt has finished playing: on each output (the speaker, each earphone) clips play
one after another, so a clip said at `t` ends at `max(t, the output's last end) +
its length`.  A timed phase waits for every output unless it names its own (`heard_on`,
e.g. the speaker alone): a public moment must not wait on a private line in one earphone.

The lengths come from one of two places, and the moment is journaled either way as the
timer line `{"t": AT, "timer": "heard:NAME"}` (docs/durability.md), so a replay and a
resume are exact:

- the **model** (`modelled_seconds`: words, or characters where a language writes no
  spaces, at a speech rate): the engine keeps this clock itself and fires the `heard:`
  timer like any of its timers; `--voice text`, the simulator and every replay of a
  table that played with it use it;
- the **outputs**: a table that plays real clips (kikimimi.voice) knows each clip's
  length; its daemon keeps this clock with those lengths and writes the `heard:` line
  when the moment comes (the journal's header says `"heard": "outputs"`, and the engine
  then waits for the line instead of modelling it).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kikimimi.contract import choices
from kikimimi.contract.protocol import REVEAL, TABLE, audiences_of

#: A timer that starts another when a prompt has been heard: `heard:` + the timer's name.
PREFIX = "heard:"
#: espeak-ng's default rate (words a minute), the model's unless a table says otherwise.
WORDS_PER_MINUTE = 175
#: The rates a table may set (`[audio] rate`; a journal header's `wpm`): the voice settings' bounds.
MIN_WPM, MAX_WPM = 40, 600
#: Characters that make one word's time where a language writes no spaces (Japanese).
CHARS_PER_WORD = 3.0
#: Silence around a clip (the engine's lead-in and tail), seconds.
PAD = 0.2
#: A timed phase's outputs: every one (its announcement may play anywhere).
EVERY = "*"
#: The header key of a table whose outputs report the moments (`"heard": "outputs"`).
HEADER_KEY, OUTPUTS = "heard", "outputs"

Length = Callable[[str, Mapping[str, Any]], float]


def modelled_seconds(text: str, wpm: int = WORDS_PER_MINUTE) -> float:
    """How long a line takes said at `wpm`: words, or characters where there are few spaces."""
    words = len(text.split())
    units = max(words, len(text.replace(" ", "")) / CHARS_PER_WORD if words <= 1 else words)
    return round(units * 60.0 / max(wpm, 1) + PAD, 3)


def timer_of(name: str) -> str:
    return PREFIX + name


def started_by(name: str) -> str | None:
    """The timer a `heard:` timer starts, or None for any other timer."""
    return name[len(PREFIX):] if name.startswith(PREFIX) else None


def outputs_of(ev: Mapping[str, Any]) -> tuple[str, ...]:
    """The outputs that play a logged phrase: a say's `to`, a reveal's seats."""
    if ev.get("type") == "say":
        return (str(ev.get("to")),)
    if ev.get("type") == REVEAL:
        return audiences_of(ev.get("private"))
    return ()


class SpeechClock:
    """Each output's end of play, fed the log's phrases in order; `length(output, event)` is
    a clip's seconds there."""

    def __init__(self, length: Length | None = None, wpm: int = WORDS_PER_MINUTE) -> None:
        self.length: Length = length or (lambda _out, ev: modelled_seconds(str(ev.get("text", "")), wpm))
        self.busy: dict[str, float] = {}

    def said(self, ev: Mapping[str, Any]) -> None:
        t = float(ev.get("t", 0.0))
        for out in outputs_of(ev):
            self.busy[out] = max(self.busy.get(out, 0.0), t) + self.length(out, ev)

    def feed(self, events: Iterable[Mapping[str, Any]]) -> None:
        for ev in events:
            if ev.get("type") in ("say", REVEAL):
                self.said(ev)

    def heard_at(self, audiences: Iterable[str], t: float) -> float:
        """When everything queued so far on those outputs, and on the speaker, has played."""
        names = list(audiences)
        if EVERY in names:
            names = list(self.busy)
        return max([t, self.busy.get(TABLE, 0.0), *(self.busy.get(a, 0.0) for a in names)])


def waiting_in(events: Iterable[Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    """The timers a batch of logged events asks to start when heard, with the outputs their
    prompts play on: a question's seat, a window's seats, a phase's every output."""
    out: dict[str, tuple[str, ...]] = {}
    for ev in events:
        if ev.get("heard") is not True or "timeout" not in ev:
            if not (ev.get("type") == "timer-set" and "after_heard" in ev):
                continue
        kind = ev.get("type")
        if kind == choices.ASK and type(ev.get("seat")) is int:
            out[choices.timer_name(ev["seat"])] = audiences_of(ev.get("private"))
        elif kind == choices.WINDOW:
            out[choices.window_timer(str(ev.get("name")))] = audiences_of(ev.get("private"))
        elif kind == "timer-set":
            out[str(ev.get("name"))] = phase_outputs(ev)
    return out


def phase_outputs(ev: Mapping[str, Any]) -> tuple[str, ...]:
    """The outputs a timed phase waits for (`set_timer_after_heard`): those its `heard_on`
    names (the speaker always counts), else every output."""
    on = ev.get("heard_on")
    if isinstance(on, list) and on and all(isinstance(o, str) for o in on):
        return tuple(on)
    return (EVERY,)
