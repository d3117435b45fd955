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

from kikimimi.contract.protocol import Answer as Answer
from kikimimi.contract.protocol import Event, new_event, seat_audience

SEAT, PIECE, YES_NO, AMOUNT = "seat", "piece", "yes-no", "amount"
KINDS = (SEAT, PIECE, YES_NO, AMOUNT)
ASK, CANCEL, CHOSEN, TAP = "choice", "choice-cancel", "chosen", "choice-tap"
#: A question to several seats at once: the first accepted answer settles it (`ask_window`).
WINDOW = "choice-window"
#: A window's one time limit, named for the window.
WINDOW_TIMER_PREFIX = "window:"
YES, NO = "cmd:yes", "cmd:no"
#: A choice's time limit is named for its seat, so a seat has one timer at most.
TIMER_PREFIX = "choice:"
#: Most answers one choice may list (a game's bug must not make every scan a search).
MAX_AMONG = 512


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
    #: The window this seat's part belongs to (`ask_window`); "" for a question to one seat.
    window: str = ""
    #: A window's tag by which this seat lets it go (declines); "" for none.
    decline: str = ""
    #: The time limit counts from the moment the prompt has been heard, not asked (docs/choices.md).
    heard: bool = False

    def value_of(self, tag: str) -> int | str | bool:
        """What a scanned answer means to the game."""
        if self.kind == SEAT:
            return int(tag[5:])
        if self.kind == YES_NO:
            return tag == YES
        return tag


def ask_seat(seat: int, name: str, prompt: str, /, *, among: Iterable[int], timeout: float | None = None,
             heard: bool = False, **params: Any) -> Event:
    """Ask `seat` to choose one of the seats `among` (a seat token on its own reader).
    `heard`: the time limit counts from the moment the prompt has been heard (every ask_*)."""
    return _heard(_ask(seat, name, SEAT, [f"seat:{k}" for k in among], prompt, timeout, params), heard)


def ask_piece(seat: int, name: str, prompt: str, /, *, among: Iterable[str], timeout: float | None = None,
              heard: bool = False, **params: Any) -> Event:
    """Ask `seat` to name one piece of `among` by scanning it (a card named with a
    labelled token, a piece from its hand)."""
    return _heard(_ask(seat, name, PIECE, list(among), prompt, timeout, params), heard)


def ask_yes_no(seat: int, name: str, prompt: str, /, *, timeout: float | None = None, heard: bool = False,
               **params: Any) -> Event:
    """Ask `seat` yes or no (YES or NO on its own reader; the answer is a bool)."""
    return _heard(_ask(seat, name, YES_NO, [YES, NO], prompt, timeout, params), heard)


def ask_amount(seat: int, name: str, prompt: str, /, *, tap: str, most: int, counted: str, least: int = 0,
               confirm: str = "cmd:ok", timeout: float | None = None, **params: Any) -> Event:
    """Ask `seat` for an amount from `least` to `most`: each scan of `tap` counts one more,
    said back in its earphone with the game's phrase `counted` (its `{amount}`: the count,
    whose values the game declares, as it knows their range); `confirm` settles it and
    the answer is the count."""
    ev = _ask(seat, name, AMOUNT, [tap, confirm], prompt, timeout, params)
    ev.fields.update(tap=tap, least=least, most=most, counted=counted)
    return ev


@dataclass(frozen=True, slots=True)
class Window:
    """One question to several seats at once, as the engine keeps it (each seat's part is
    also a `Choice` in the engine's pending questions, with `window` set)."""

    name: str
    seats: tuple[int, ...]
    #: What the game gets when nobody answered (time up, or every seat declined).
    default: int | str | bool | None
    timeout: float | None
    #: The phrase said once, on the speaker, when the time is up.
    closed: str
    #: The seeded order in which bots answer (fair: not always the lowest seat first).
    order: tuple[int, ...]
    heard: bool = False


def ask_window(seats: Iterable[int], name: str, prompt: str, /, *, among: Iterable[str],
               default: int | str | bool | None = None, decline: str = "", timeout: float | None = None,
               closed: str = "choice-window-closed", heard: bool = False, **params: Any) -> Event:
    """Ask every seat of `seats` at once (a claim any other seat may challenge): the prompt in
    each of their earphones, one scan of `among` on any of their hand readers settles it for
    all (the first accepted answer wins, the others are taken back), a scan of `decline`
    lets it go for that seat, and when the time is up (or every seat declined) the game gets
    the `default`, with one line on the speaker (`closed`), never one in every earphone.  The
    answer's `seat` is who answered (0: nobody, `answer.silent`)."""
    fields: dict[str, Any] = {"seats": list(seats), "name": name, "kind": PIECE, "among": list(among),
                              "prompt": prompt, "params": params, "default": default, "decline": decline,
                              "closed": closed}
    fields["private"] = [seat_audience(k) for k in fields["seats"]]
    if timeout is not None:
        fields["timeout"] = timeout
    if heard:
        fields["heard"] = True
    return new_event(WINDOW, fields)


def cancel_window(name: str, seats: Iterable[int]) -> Event:
    """Take back the window `name` (its phase ended): a `choice-cancel` for each of its seats."""
    asked = list(seats)
    return new_event(CANCEL, {"window": name, "seats": asked, "private": [seat_audience(k) for k in asked]})


def parse_window(fields: Mapping[str, Any], players: int) -> tuple[Window, list[Choice]] | str:
    """A game's `choice-window` event as the engine keeps it, or why it is not one (one line)."""
    seats = fields.get("seats")
    if not isinstance(seats, (list, tuple)) or not seats or len(set(seats)) != len(seats) \
            or not all(type(k) is int and 1 <= k <= players for k in seats):
        return f"a window for no seats of this table: {seats!r}"
    decline = fields.get("decline", "")
    one = parse({**fields, "seat": seats[0], "kind": PIECE}, players)
    if isinstance(one, str):
        return one
    if not isinstance(decline, str) or decline in one.among:
        return f"window {one.name!r}: the declining tag must be a tag that does not answer it"
    default, closed = fields.get("default"), fields.get("closed", "choice-window-closed")
    if default is not None and not isinstance(default, (int, str, bool)):
        return f"window {one.name!r}: the default is a seat, a tag, yes/no or None"
    if not isinstance(closed, str) or not closed:
        return f"window {one.name!r}: the closing line is a phrase key"
    heard = fields.get("heard") is True
    among = one.among | ({decline} if decline else set())
    parts = [Choice(k, one.name, PIECE, frozenset(among), one.prompt, one.params, one.timeout,
                    window=one.name, decline=decline, heard=heard) for k in seats]
    return Window(one.name, tuple(seats), default, one.timeout, closed, tuple(seats), heard), parts


def window_timer(name: str) -> str:
    return f"{WINDOW_TIMER_PREFIX}{name}"


def cancel(seat: int) -> Event:
    """Take back the question pending for `seat`, if any (its phase ended)."""
    return new_event(CANCEL, {"seat": seat, "private": seat_audience(seat)})


def _heard(ev: Event, heard: bool) -> Event:
    if heard:
        ev.fields["heard"] = True
    return ev


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
                  float(timeout) if timeout is not None else None, str(tap), int(least), int(most), str(counted),
                  heard=fields.get("heard") is True)


def timer_name(seat: int) -> str:
    return f"{TIMER_PREFIX}{seat}"


def seat_of_timer(name: str) -> int | None:
    """The seat whose choice timed out, for a timer of this module's (None: the game's own)."""
    if name.startswith(TIMER_PREFIX) and name[len(TIMER_PREFIX):].isdigit():
        return int(name[len(TIMER_PREFIX):])
    return None
