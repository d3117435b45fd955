"""Pending choices: a game asks one seat a question, the runtime takes the answer.

Every game asks its players to choose: a seat to target, a piece from a set, yes or
no.  At a table the answer is a scan on the asking seat's own hand reader (a seat
token, a labelled piece, YES or NO), so the same work recurs in every game: say the
question into that earphone, take the one scan that answers it, refuse any other
in one line and ask again, answer HINT and then ask again, let the referee answer
for the seat (`scan SEAT TAG`), and give up when a time limit runs out.  This
module is that work, written once; the engine (`kikimimi.table.engine.Table`) carries
it out, so a game stays pure.

A game asks by returning an event:

    return [choices.ask_seat(2, "target", "pick-target", among=[1, 3])]

(the seat, the question's name and the prompt's phrase key are positional, so the
prompt's own parameters may be called `seat` or `name`) and gets the answer as one typed call on its play, `answered(answer)`, with
`answer.value` the seat number (int), the piece's tag (str) or yes (bool); `None`
when the time limit ran out (`answer.timed_out`).  While a seat's choice is
pending, every scan on that seat's hand reader is about it: the answer, HINT, or
refused.  An amount (`ask_amount`) is taps of one tag, each counted back into the
earphone, then a confirming tag: its answer is the count (int).  A game takes a question back with `cancel(seat)` (its phase ended).

The question and its choices are the seat's business (which cards it may name
can tell its hand): the `choice` event is private to that seat, the prompt is
said in its earphone, and the answer is logged as a private `chosen` event.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kikimimi.contract.protocol import Event, new_event, seat_audience

SEAT, PIECE, YES_NO, AMOUNT = "seat", "piece", "yes-no", "amount"
KINDS = (SEAT, PIECE, YES_NO, AMOUNT)
ASK, CANCEL, CHOSEN, TAP = "choice", "choice-cancel", "chosen", "choice-tap"
YES, NO = "cmd:yes", "cmd:no"
#: A choice's time limit is named for its seat, so a seat has one timer at most.
TIMER_PREFIX = "choice:"
#: Most answers one choice may list (a game's bug must not make every scan a search).
MAX_AMONG = 512


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's answer to the choice it was asked, as the game gets it."""

    t: float
    line: int | None
    seat: int
    #: The game's name for the question (`ask_*`'s `name`).
    name: str
    #: The seat number, the piece's tag, True for yes, the amount; None: the time limit ran out.
    value: int | str | bool | None

    @property
    def timed_out(self) -> bool:
        return self.value is None


@dataclass(frozen=True, slots=True)
class Choice:
    """One pending question, as the engine keeps it."""

    seat: int
    name: str
    kind: str
    #: The tags that answer it.
    among: frozenset[str]
    prompt: str
    params: Mapping[str, Any]
    timeout: float | None = None
    #: An amount's tag that counts one more (its `among` also holds the confirming tag).
    tap: str = ""
    least: int = 0
    most: int = 0
    #: An amount's phrase saying the count back (the game's key, its parameter `amount`).
    counted: str = ""

    def value_of(self, tag: str) -> int | str | bool:
        """What a scanned answer means to the game."""
        if self.kind == SEAT:
            return int(tag[5:])
        if self.kind == YES_NO:
            return tag == YES
        return tag


def ask_seat(seat: int, name: str, prompt: str, /, *, among: Iterable[int], timeout: float | None = None,
             **params: Any) -> Event:
    """Ask `seat` to choose one of the seats `among` (a seat token on its own reader)."""
    return _ask(seat, name, SEAT, [f"seat:{k}" for k in among], prompt, timeout, params)


def ask_piece(seat: int, name: str, prompt: str, /, *, among: Iterable[str], timeout: float | None = None,
              **params: Any) -> Event:
    """Ask `seat` to name one piece of `among` by scanning it (a card named with a
    labelled token, a piece from its hand)."""
    return _ask(seat, name, PIECE, list(among), prompt, timeout, params)


def ask_yes_no(seat: int, name: str, prompt: str, /, *, timeout: float | None = None, **params: Any) -> Event:
    """Ask `seat` yes or no (YES or NO on its own reader; the answer is a bool)."""
    return _ask(seat, name, YES_NO, [YES, NO], prompt, timeout, params)


def ask_amount(seat: int, name: str, prompt: str, /, *, tap: str, most: int, counted: str, least: int = 0,
               confirm: str = "cmd:ok", timeout: float | None = None, **params: Any) -> Event:
    """Ask `seat` for an amount from `least` to `most`: each scan of `tap` counts one more,
    said back in its earphone with the game's phrase `counted` (its `{amount}`: the count,
    whose values the game declares, as it knows their range); `confirm` settles it and
    the answer is the count."""
    ev = _ask(seat, name, AMOUNT, [tap, confirm], prompt, timeout, params)
    ev.fields.update(tap=tap, least=least, most=most, counted=counted)
    return ev


def cancel(seat: int) -> Event:
    """Take back the question pending for `seat`, if any (its phase ended)."""
    return new_event(CANCEL, {"seat": seat, "private": seat_audience(seat)})


def _ask(seat: int, name: str, kind: str, among: list[str], prompt: str, timeout: float | None,
         params: dict[str, Any]) -> Event:
    fields: dict[str, Any] = {"seat": seat, "name": name, "kind": kind, "among": among, "prompt": prompt,
                              "params": params, "private": seat_audience(seat)}
    if timeout is not None:
        fields["timeout"] = timeout
    return new_event(ASK, fields)


def parse(fields: Mapping[str, Any], players: int) -> Choice | str:
    """A game's `choice` event as the engine keeps it, or why it is not one (a game's bug:
    said in one line, never a traceback)."""
    seat, name, kind = fields.get("seat"), fields.get("name"), fields.get("kind")
    among, prompt, params = fields.get("among"), fields.get("prompt"), fields.get("params") or {}
    timeout = fields.get("timeout")
    if type(seat) is not int or not 1 <= seat <= players:
        return f"a choice for no seat of this table: {seat!r}"
    if not isinstance(name, str) or not name or kind not in KINDS or not isinstance(prompt, str) or not prompt:
        return f"a choice needs a name, a kind ({', '.join(KINDS)}) and a prompt: {name!r} {kind!r} {prompt!r}"
    if not isinstance(among, (list, tuple)) or not among or len(among) > MAX_AMONG \
            or not all(isinstance(a, str) for a in among):
        return f"choice {name!r}: 1-{MAX_AMONG} tags answer it"
    if not isinstance(params, Mapping):
        return f"choice {name!r}: params must be a mapping"
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not math.isfinite(timeout) or timeout <= 0):
        return f"choice {name!r}: a time limit is a number of seconds above 0, not {timeout!r}"
    tap, least, most = fields.get("tap", ""), fields.get("least", 0), fields.get("most", 0)
    counted = fields.get("counted", "")
    if kind == AMOUNT and (len(among) != 2 or tap != among[0] or tap == among[1] or type(least) is not int
                           or type(most) is not int or not 0 <= least <= most
                           or not isinstance(counted, str) or not counted):
        return (f"choice {name!r}: an amount needs a tap tag, another to confirm, 0 <= least <= most "
                "and a phrase to count with")
    return Choice(seat, name, kind, frozenset(among), prompt, dict(params),
                  float(timeout) if timeout is not None else None, str(tap), int(least), int(most), str(counted))


def timer_name(seat: int) -> str:
    return f"{TIMER_PREFIX}{seat}"


def seat_of_timer(name: str) -> int | None:
    """The seat whose choice timed out, for a timer of this module's (None: the game's own)."""
    if name.startswith(TIMER_PREFIX) and name[len(TIMER_PREFIX):].isdigit():
        return int(name[len(TIMER_PREFIX):])
    return None
