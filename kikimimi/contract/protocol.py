"""The contract between the runtime and every game: one play, and what it returns.

What a game *is* is declared once in `kikimimi.contract.declaration.Declaration`; this
module is the other half, `Play` (one game being played), with the inputs it
receives and the events it returns.  `Game` remains for games written before
the two were split.

A game is pure: it receives `Input`s (each with its time) and returns
`Event`s.  It never touches a reader, a thread, a clock or a sound device, so
the same game code runs at a real table, in the simulator and in a replay,
and always decides the same way for the same inputs.

Everything a game says is a phrase key with parameters; the runtime turns it
into text in the table's language and routes it to the speaker or one
earphone.  Secrets ride on the events themselves: a `say` to `seat:N`, or any
event carrying `private="seat:N"` (or a list of such audiences, for a team's
secret), reaches only those seats and the referee.
"""
from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from kikimimi.contract.options import Options

TABLE = "table"
REFEREE = "referee"
#: One phrase heard in several seats' earphones (`reveal`).
REVEAL = "reveal"
#: Event types the runtime reads and acts on (a phrase said, a question asked, a timer set):
#: a game makes them only with their helpers (`say`, `reveal`, `set_timer`, `cancel_timer`,
#: `kikimimi.contract.choices`); a game's own event by one of these names is refused in one line.
RESERVED_EVENTS = ("say", REVEAL, "choice", "choice-cancel", "choice-window", "timer-set", "timer-cancel")
#: What the runtime logs of its own: a game never returns these.
RUNTIME_EVENTS = ("chosen", "choice-tap", "heard", "undo", "clock", "reader", "voice")


def well_formed(type_: str, fields: Mapping[str, Any]) -> bool:
    """A reserved event (other than a say) as its helper makes it: what the runtime reads is there."""
    if type_ == REVEAL:
        return isinstance(fields.get("key"), str) and bool(audiences_of(fields.get("private")))
    if type_ in ("choice", "choice-cancel", "choice-window"):
        seat = fields.get("seat")
        return "private" in fields and (type_ == "choice-window" or "window" in fields or (
            type(seat) is int and fields.get("private") == seat_audience(seat)))
    if type_ == "timer-set":
        at = fields.get("at", fields.get("after_heard"))
        on = fields.get("heard_on", [])
        return isinstance(fields.get("name"), str) and isinstance(at, (int, float)) and not isinstance(at, bool) \
            and math.isfinite(at) and ("at" in fields or at > 0) \
            and isinstance(on, list) and all(isinstance(o, str) for o in on)
    if type_ == "timer-cancel":
        return isinstance(fields.get("name"), str)
    return True


def reserved_refusal(type_: object) -> str:
    """The one line that refuses a game's malformed event of a reserved type (or a runtime one)."""
    return (f"internal error: a game event named {type_!r} is the runtime's: the types "
            f"{', '.join(RESERVED_EVENTS + RUNTIME_EVENTS)} are reserved; make a say, a reveal, a "
            "question or a timer with its helper (kikimimi.contract.protocol, kikimimi.contract.choices), or give "
            "the game's own event another name")

#: The command tags of the contract, every game's to use (docs/contract.md): HINT, the
#: evening's AGREE, and a phase's yes, no and confirm.  A game's own (the Trident's
#: TRIDENT, 鬼探し's RAISE) are its declaration's `command_tags`.
COMMAND_TAGS = frozenset(f"cmd:{name}" for name in ("hint", "agree", "yes", "no", "ok"))


#: What docs/contract.md gives every game's referee when a game lists no commands of its own.
CONTRACT_COMMANDS = (("hint SEAT", "tell that seat, in its earphone, what it may know"),
                     ("stop", "end the game now (it counts as stopped)"))


def seat_audience(seat: int) -> str:
    """The audience name of one seat's earphone."""
    return f"seat:{seat}"


@dataclass(frozen=True, slots=True, init=False)
class Input:
    """One entry of the table's input stream, already validated by the runtime.

    Exactly one of `tag` (a reader saw a piece), `console` (a referee command
    line) or `timer` (a timer the game asked for has fired) is set.
    """

    t: float
    line: int | None = None
    reader: str | None = None  # "hand" or "field"
    seat: int | None = None  # the hand reader's seat; None for the field
    tag: str | None = None  # "SET:NAME", resolved from a uid if need be
    removed: bool = False
    console: str | None = None
    timer: str | None = None

    def __init__(self, t: float, line: int | None = None, reader: str | None = None,
                 seat: int | None = None, tag: str | None = None, removed: bool = False,
                 console: str | None = None, timer: str | None = None) -> None:
        # The dataclass's frozen __init__ goes through object.__setattr__ per
        # field, ~3x slower (an input is made per script line); the slots'
        # own setters do the same and the instance stays frozen.
        _set_t(self, t)
        _set_line(self, line)
        _set_reader(self, reader)
        _set_seat(self, seat)
        _set_tag(self, tag)
        _set_removed(self, removed)
        _set_console(self, console)
        _set_timer(self, timer)

    @property
    def placed(self) -> bool:
        """A tag put on a reader (the event nearly every rule is about)."""
        return self.tag is not None and not self.removed


#: Input's fields in order, as its __init__ sets them (a test holds them to the dataclass's).
INPUT_FIELDS = ("t", "line", "reader", "seat", "tag", "removed", "console", "timer")
(_set_t, _set_line, _set_reader, _set_seat, _set_tag, _set_removed, _set_console,
 _set_timer) = (Input.__dict__[name].__set__ for name in INPUT_FIELDS)


class _UnfrozenInput:
    """Input's slots, in Input's order, without the frozen guard: `reader_input`
    fills one with plain stores and then makes it an Input (the layouts are the
    same, so Python allows the class change)."""

    __slots__ = INPUT_FIELDS


def reader_input(t: float, line: int | None, reader: str, seat: int | None, tag: str,
                 removed: bool) -> Input:
    """`Input(t, line, reader, seat, tag, removed)`, built for the engine's hot path:
    one per script line, and each of `__init__`'s slot setters is a wrapper call
    (~0.2 us apiece), four times the whole of these stores.  Equal, hashed and
    frozen as the dataclass's own (tests/speed/test_engine_same_logs.py)."""
    inp: Any = _UnfrozenInput()
    inp.t = t
    inp.line = line
    inp.reader = reader
    inp.seat = seat
    inp.tag = tag
    inp.removed = removed
    inp.console = None
    inp.timer = None
    inp.__class__ = Input
    return inp


@dataclass(slots=True)
class Event:
    """Something the game decided or said.

    `fields` are the event's own keys of docs/contract.md (for a `say`: `to`,
    `key` and the phrase parameters under `params`).  The runtime adds
    `seq`, `t`, `in` and, for a `say`, the spoken `text`.
    """

    type: str
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def audiences(self) -> tuple[str, ...]:
        """Who may learn this event: ("table",), ("seat:N", ...) or ("referee",).

        A group secret (the witches' target, a team's chat) lists every seat
        that may know it; the referee always may."""
        if self.type == "say":
            return (str(self.fields["to"]),)
        return audiences_of(self.fields.get("private", TABLE))


_new_object = object.__new__


def new_event(type_: str, fields: dict[str, Any]) -> Event:
    """`Event(type_, fields)` for a game's hot path.  Calling the class runs the
    dataclass's Python `__init__` through `type.__call__` and its init slot (a
    class call is the dearest call there is, ~4x a function's); this makes the
    object and fills its two slots, the same Event (a test holds it equal)."""
    ev = _new_object(Event)
    ev.type = type_
    ev.fields = fields
    return ev


#: An event as a play hands it to the table: an `Event`, or the same event as
#: one dict (`log_shaped`), which the table completes into its log entry.
GameEvent = Event | dict[str, Any]
#: What the table adds to a log-shaped event, besides a say's `text`.
LOG_STAMPS = ("seq", "t", "type", "in")


def log_shaped(type_: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """`Event(type_, fields)` as one dict, `{"type": type_, **fields}` (a say
    without parameters carries no `params`), which the table stamps in place
    (seq, t, in; a say's text) and keeps as the log entry itself, instead of
    copying the event's fields into a new dict: a Trident input makes ~3
    events, and the Event, its fields and the log dict were three objects for
    each.  The entry's keys are then in the order they were added, not the
    log's (`in_log_order`: every writer of log lines restores it).  A game
    builds a fresh dict per event and keeps none (one the table numbered
    already is copied, never renumbered: `Table._log_events`).  A game's hot
    path may write the literal itself, in exactly this shape."""
    if type_ == "say" and not fields.get("params"):
        return {"type": type_, "to": fields["to"], "key": fields["key"]}
    return {"type": type_, **fields}


def in_log_order(ev: Mapping[str, Any]) -> Mapping[str, Any]:
    """A log entry with its keys in docs/contract.md's order (seq, t, type, in, then
    the event's fields; a say's to, key, text, params): itself when it is (an
    `Event`'s entry, the table's own), else a copy (a log-shaped event, stamped
    after its fields).  What a log line is written from, so every line written,
    sent or compared is byte for byte as before events were logged in place.
    Only such an entry is touched (its first key `type`, all four stamps
    present): a script line, or any odd dict a writer is handed, is as it is."""
    if next(iter(ev), None) != "type" or "seq" not in ev or "t" not in ev or "in" not in ev:
        return ev
    if ev.get("type") == "say":
        out = {"seq": ev["seq"], "t": ev["t"], "type": "say", "in": ev["in"]}
        out.update((k, v) for k, v in ev.items() if k not in LOG_STAMPS and k != "text" and k != "params")
        out.update((k, ev[k]) for k in ("text", "params") if k in ev)
        return out
    return {"seq": ev["seq"], "t": ev["t"], "type": ev["type"], "in": ev["in"],
            **{k: v for k, v in ev.items() if k not in LOG_STAMPS}}


def as_event(ev: GameEvent) -> Event:
    """The `Event` of a log-shaped one (an `Event` as it is): for the few readers
    of a play's events other than the table's log (a console line's refusals)."""
    if isinstance(ev, Event):
        return ev
    say = ev["type"] == "say"
    fields = {k: v for k, v in ev.items() if k not in LOG_STAMPS and not (say and k == "text")}
    if say:
        fields.setdefault("params", {})
    return new_event(ev["type"], fields)


def say(to: str, key: str, **params: Any) -> Event:
    """A phrase for the speaker (`to="table"`) or one earphone (`"seat:N"`).

    Parameter values that name a piece, suit or other catalogue entry
    (for example "trident:heart-3") are spoken by their catalogue name.
    """
    return new_event("say", {"to": to, "key": key, "params": params})


def reveal(seats: Iterable[int], key: str, /, **params: Any) -> Event:
    """One phrase for several seats' earphones (partners shown to each other, a card shown
    to two players): one `reveal` event, `private` to those seats as any group secret
    (docs/contract.md), with the phrase's `key`, `params` and (logged) `text`.  Each listed
    seat hears it in its own earphone; the speaker and the public view never do.  To one
    seat it is that seat's plain `say`."""
    to = [seat_audience(s) for s in sorted(set(seats))]
    if not to:
        raise ValueError("a reveal needs at least one seat")
    if len(to) == 1:
        return new_event("say", {"to": to[0], "key": key, "params": params})
    return new_event(REVEAL, {"private": to, "key": key, "params": params})


def each_audience(ev: Mapping[str, Any]) -> list[Any]:
    """A logged `reveal` as the `say` each listed earphone hears (for what plays or prints
    one audience at a time); any other event as it is."""
    if ev.get("type") != REVEAL:
        return [ev]
    fields = {k: v for k, v in ev.items() if k not in ("type", "private")}
    return [{**fields, "type": "say", "to": a} for a in audiences_of(ev.get("private"))]


def event(type_: str, **fields: Any) -> Event:
    """Any other event of docs/contract.md, e.g. `event("play", seat=2, tag=...)`."""
    return new_event(type_, fields)


def error(message: str, **fields: Any) -> Event:
    """An input the game refused; the game's state must be unchanged."""
    return new_event("error", {"message": message, **fields})


def set_timer(name: str, at: float) -> Event:
    """Ask the runtime to feed `Input(timer=name, t=at)` when its clock reaches `at`.

    Setting a timer of the same name again moves it; `cancel_timer` drops it.
    """
    return new_event("timer-set", {"name": name, "at": at})


def set_timer_after_heard(name: str, seconds: float, on: Iterable[str] | None = None) -> Event:
    """Ask for `Input(timer=name)` `seconds` after everything said so far (this batch's
    announcement included) has been heard on every output: a timed phase that starts when
    the table has heard it start (kikimimi.contract.heard).

    `on` (audiences, e.g. `[TABLE]`): count from those outputs and the speaker only.  A
    phase announced on the speaker whose end everyone hears must not wait for a private
    line in one earphone: the moment would tell the table that earphone was busy, and for
    how long (鬼探し's settle after an own card's refusal, docs/rules/onisagashi.md)."""
    if on is None:
        return new_event("timer-set", {"name": name, "after_heard": seconds})
    return new_event("timer-set", {"name": name, "after_heard": seconds, "heard_on": list(on)})


def cancel_timer(name: str) -> Event:
    return new_event("timer-cancel", {"name": name})


#: A console command's method: its name on the play (called (t, *arguments)), or a function
#: (play, t, *arguments).
Run = str | Callable[..., "list[Event] | None"]


@dataclass(frozen=True)
class Command:
    """One referee console command: its syntax, a line of help and what carries it out.

    Defined here, at the bottom layer, because a play's class (`Game.console_commands`)
    names it; `kikimimi.contract.commands` parses and dispatches lines by a table of these."""

    syntax: str
    help: str
    run: Run

    @property
    def name(self) -> str:
        return self.syntax.split()[0]

    @property
    def params(self) -> list[str]:
        return self.syntax.split()[1:]


def check_table_options(schema: Options | None, names: frozenset[str] | None,
                        new_play: Callable[[int, Mapping[str, Any]], Play],
                        players: int, options: Mapping[str, Any]) -> None:
    """Refuse bad options with a one-line `ValueError` naming the option: the schema (or the
    declared names) first, then one play is set up with them, which runs the play's own
    checks.  Written once here for `Declaration.check_options` and the old-style `Game`."""
    if schema is not None:
        schema.parse(players, options)
    elif names is not None:
        unknown = sorted(set(options) - names)
        if unknown:
            known = ", ".join(sorted(names)) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} (known: {known})")
    try:
        play = new_play(players, options)
    except ValueError:
        raise
    except Exception as exc:  # a play that checks with another exception type
        raise ValueError(f"{type(exc).__name__}: {exc}") from None
    play.close()


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's answer to the choice it was asked, as the game gets it (`Play.answered`)."""

    t: float
    line: int | None
    seat: int
    #: The game's name for the question (`ask_*`'s `name`).
    name: str
    #: The seat number, the piece's tag, True for yes, the amount; None: the time limit ran out
    #: (or, for a window of several seats, silence: then `seat` is 0 and `value` the default).
    value: int | str | bool | None
    #: A window of several seats that nobody answered: `value` is the window's default.
    silent: bool = False

    @property
    def timed_out(self) -> bool:
        return self.value is None or self.silent


class Play(ABC):
    """One play of one game: its state and the hooks the runtime calls while it lasts.

    What the game *is* (name, players, pieces, options, commands, bots...) is
    declared once, beside it, in a `kikimimi.contract.declaration.Declaration`, which
    makes plays (`new_play`).  The runtime validates inputs before they
    arrive here (known tag, a reader that exists, a seat in range); the play
    decides everything else.
    """

    def __init__(self, players: int, options: Mapping[str, Any] | None = None):
        self.players = players
        self.options = dict(options or {})

    @abstractmethod
    def start(self, t: float) -> Sequence[GameEvent]:
        """The game begins (after the header): its opening announcements."""

    @abstractmethod
    def handle(self, inp: Input) -> Sequence[GameEvent]:
        """Apply one input; return what happened (`Event`s, or log-shaped dicts:
        `log_shaped`).  Refusals are `error` events."""

    @property
    @abstractmethod
    def over(self) -> bool:
        """True once a `game-over` event has been returned."""

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, for the referee console (secrets included)."""
        return {}

    def close(self) -> None:
        """The runtime discards this play (an undo rebuilt it, a resume, the next
        game, the table stops): release anything shared, e.g. a registration
        on a class-wide state machine.  Called once; the play is not used after."""

    def answered(self, answer: Answer) -> Sequence[GameEvent]:
        """A seat answered a question the game asked (`kikimimi.contract.choices`), or its time ran out
        (`answer.timed_out`).  A play that asks questions overrides this; the runtime refuses
        a question from a play that does not (nothing would take its answer)."""
        return [error(f"{answer.name}: this game takes no answers")]

    def clock_started(self, name: str, t: float) -> Sequence[GameEvent]:
        """A timer the play asked for after heard (`set_timer_after_heard(name, seconds)`) starts
        counting at `t` (the game's clock): its prompt has been heard, so it fires at `t + seconds`.
        A play that says "N seconds left" or sets warnings before its limit learns its deadline
        here; until then it knows only the whole length.  Called in a modelled table and in one
        whose outputs report the moment alike (the moment is journaled), so a replay is exact.
        Its events are logged at the moment; the default has none."""
        return []

    def situation(self) -> list[Event]:
        """Where the table stands (whose turn, what is pending), on the speaker:
        the runtime asks after an undo, a resume or a reader coming back, when
        the last call heard may no longer be true.  Public facts only
        (`kikimimi.contract.hints.situation` builds the events)."""
        return []


class Game(Play):
    """A game written before the declaration was split from the play: one class
    whose attributes declare the game and whose instances are its plays.

    Still loaded as it is (`Declaration.of_game` reads these attributes), so an
    outside package written for it keeps working; a new game writes a
    `Declaration` and a `Play` instead (docs/authoring.md).
    """

    name: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    official_players: ClassVar[int | None] = None
    tag_sets: ClassVar[tuple[str, ...]] = ()
    options_schema: ClassVar[Options | None] = None
    option_names: ClassVar[frozenset[str] | None] = None
    bots: ClassVar[tuple[str, ...]] = ()
    bot_table: ClassVar[str | None] = None
    ear_table: ClassVar[str | None] = None
    report: ClassVar[str | None] = None
    diagram_of: ClassVar[str | None] = None
    console_commands: ClassVar[Sequence[Command]] = ()

    @classmethod
    @abstractmethod
    def known_tags(cls, players: int) -> frozenset[str]:
        """Every piece tag of this game (command tags and seat tokens are added by the runtime)."""

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> None:
        """The declaration's check (`Declaration.check_options`), for callers written before it."""
        check_table_options(cls.options_schema, cls.option_names, cls, players, options)

    @classmethod
    def phrase_values(cls, players: int, options: Mapping[str, Any]) -> Mapping[str, Sequence[Any]]:
        """Every value each phrase parameter can take at such a table (`Declaration.phrase_values`)."""
        return {}

    @classmethod
    def referee_commands(cls) -> list[tuple[str, str]]:
        """The declaration's command list (`Declaration.referee_commands`)."""
        return [(c.syntax, c.help) for c in cls.console_commands] or list(CONTRACT_COMMANDS)


class Simulation(Protocol):
    """The physical table of one bot game: the basket, the hands, the bots.

    The sim driver alternates: `next_input()` gives the next script line that
    a bot or the table produces (a dict in docs/contract.md form, without `t`; an
    optional `"dt"` says how many seconds after the previous line it happens),
    the runtime applies it, and `observe()` receives every resulting event as
    a log dict.  Bots must act only on what their seat may know
    (`kikimimi.contract.protocol.visible_to`).
    """

    def next_input(self) -> dict[str, Any] | None: ...

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None: ...


def audiences_of(private: Any) -> tuple[str, ...]:
    """The audiences named by an event's `private` field: one name or a list.

    Anything else (a number, an empty list) is read as the referee only, so a
    malformed secret is never widened to the table."""
    if isinstance(private, str):
        return (private,)
    if isinstance(private, (list, tuple)) and private and all(isinstance(a, str) for a in private):
        return tuple(private)
    return (REFEREE,)


def visible_to(log_event: Mapping[str, Any], seat: int | None) -> bool:
    """May seat `seat` (None: a spectator) learn this logged event?

    Every bot asks this of every event, so the usual one-audience cases (a
    `say`'s `to`, a `private` that is one plain string) are answered by
    comparing names, without building the audience tuple."""
    if log_event.get("type") == "say":
        to = log_event.get("to")
        audience = to if type(to) is str else str(to)
    else:
        private = log_event.get("private", TABLE)
        if type(private) is not str:
            audiences = audiences_of(private)
            if TABLE in audiences:
                return True
            return seat is not None and seat_audience(seat) in audiences
        audience = private
    if audience == TABLE:
        return True
    return seat is not None and audience == seat_audience(seat)
