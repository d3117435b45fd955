"""Holding a bot to what its seat may know, and to its seed: one helper for every game.

The test: play a seeded bot game; play the same seed again with the physical
table changed where the seat cannot see (another seat dealt other pieces, a
hidden basket in another order, another role in another seat: the game's
`vary`); then walk both games as the seat lived them — every event it may
know (`visible_to`), the public shape of every input (who acted on which
reader, and when: a scan is seen, what was scanned is not), and its own
inputs.  Until the first moment the seat could tell the two games apart, its
own inputs must be the same: a bot that reads another seat's secret decides
differently before it could have known.  After that moment (a public
consequence of the change) nothing is compared.

A decision that takes a look-alike piece the seat has never heard of (the
basket's top it draws) may take a different piece in the other game: that
difference is the table's, not the bot's.  Which tags are such pieces the
test says (`anonymous`); a token the seat owns (`seat:3`, `cmd:ok`, a
declaration token) is never excused.

Use `seat_blind` for a game whose simulation can be changed after it is built
(`prepare`); `compare_seat` for two games a test made itself; `replays` for
"its decisions replay identically from its seed".
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.table.engine import run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.design.sim import MAX_INPUTS, play

Played = tuple[Sequence[Mapping[str, Any]], Sequence[Mapping[str, Any]]]
#: Who made a script line, given the events it caused and whose turn the table last
#: announced: a seat, or None (the table, or nobody the line names).
Owner = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], int | None], int | None]

#: Console commands whose first argument is the acting seat (docs/contract.md).
SEAT_COMMANDS = frozenset({"act", "yes", "no", "ok", "hint", "scan"})
#: Event fields that count every event or input, the secret ones too.
COUNTERS = ("seq", "in")


class SeatLeak(AssertionError):
    """A seat decided differently in two games it could not tell apart."""


@dataclass(frozen=True)
class Walk:
    """How far two games were compared for one seat."""

    decisions: int  # the seat's own inputs compared (and found the same)
    decision_lines: tuple[int, ...]  # their line numbers in the first game (a test may skip the deal's)
    lines: int  # script lines of the first game walked before the seat could tell them apart
    diverged: bool  # False: the seat could never tell the two games apart
    script: Sequence[Mapping[str, Any]] = field(default=(), repr=False)  # the first game's

    def decided(self, keep: Callable[[Mapping[str, Any]], bool]) -> int:
        """How many of the compared decisions are lines `keep` accepts (a test's own, not the deal's)."""
        return sum(1 for n in self.decision_lines if keep(self.script[n - 1]))


def default_owner(line: Mapping[str, Any], events: Sequence[Mapping[str, Any]], turn: int | None) -> int | None:
    """The seat a line names (a hand reader's `seat`, a console command's first
    argument), else the seat of the first event it caused that names one (a
    piece played on the field is its player's), else, for a piece put on the
    field, the seat whose turn it is (a declaration token laid one by one)."""
    seat = line.get("seat")
    if isinstance(seat, int):
        return seat
    console = line.get("console")
    if isinstance(console, str):
        words = console.split()
        if len(words) > 1 and words[0] in SEAT_COMMANDS and words[1].isdigit():
            return int(words[1])
        return None
    for ev in events:
        s = ev.get("seat")
        if isinstance(s, int) and not ev.get("opening"):
            return s
    return turn if line.get("reader") == "field" else None


def reseed_others(sim: Any, seat: int, rng: random.Random) -> None:
    """A `vary` for any bot table whose bots (`sim.bots`, a dict or a list) keep
    their own `rng`: every other seat's bot chooses otherwise (its hidden offers,
    its night targets), the seat's own bot and the table stay as they were."""
    bots = sim.bots.values() if isinstance(sim.bots, Mapping) else sim.bots
    changed = 0
    for bot in bots:
        if getattr(bot, "seat", seat) != seat and hasattr(bot, "rng"):
            # salted: a bot table that seeds its bots the same way would otherwise get the same streams back
            bot.rng = random.Random(f"another mind {rng.random()!r}")
            changed += 1
    if not changed:
        raise AssertionError("reseed_others found no other bot with an rng to reseed")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


@dataclass(frozen=True)
class _Step:
    kind: str  # "know": something the seat learns; "mine": one of its own inputs
    what: Any
    heard: frozenset[str] = frozenset()  # every string the seat had heard before a "mine" step
    line: int = 0


def lived(played: Played, seat: int, owner: Owner = default_owner) -> list[_Step]:
    """The game as `seat` lived it, in order."""
    script, log = played
    by_line: dict[int, list[Mapping[str, Any]]] = {}
    number = 0
    for ev in log:
        if ev.get("in") is not None:  # a timer's events (`in` null) fire before the next line: keep the last
            number = int(ev["in"])
        by_line.setdefault(number, []).append(ev)
    steps: list[_Step] = []
    heard: set[str] = set()
    turn: int | None = None
    for number, line in enumerate(script, start=1):
        events = by_line.get(number, [])
        if number > 1:  # the header is the set-up both games share
            who = owner(line, events, turn)
            if who == seat:
                steps.append(_Step("mine", dict(line), frozenset(heard), number))
            elif who is None:
                steps.append(_Step("know", dict(line), line=number))
            else:
                shape = {k: line[k] for k in ("t", "reader", "seat") if k in line}
                steps.append(_Step("know", {"input by": who, **shape}, line=number))
        for ev in events:
            if ev.get("type") == "turn" and isinstance(ev.get("seat"), int) and visible_to(ev, None):
                turn = int(ev["seat"])
            if visible_to(ev, seat):
                seen = {k: v for k, v in ev.items() if k not in COUNTERS}
                heard.update(_strings(seen))
                steps.append(_Step("know", seen, line=number))
    return steps


#: Which tags are look-alike pieces a seat cannot tell apart unheard (default: none).
Anonymous = Callable[[str], bool]


def _same_decision(a: _Step, b: _Step, anonymous: Anonymous | None) -> bool:
    if a.what == b.what:
        return True
    if anonymous is None:
        return False
    x, y = dict(a.what), dict(b.what)
    tx, ty = x.pop("tag", None), y.pop("tag", None)
    # a piece neither game had let the seat hear of (the basket's top): the table's difference
    return (x == y and isinstance(tx, str) and isinstance(ty, str) and anonymous(tx) and anonymous(ty)
            and tx not in a.heard and ty not in b.heard)


def compare_seat(a: Played, b: Played, seat: int, owner: Owner = default_owner,
                 anonymous: Anonymous | None = None) -> Walk:
    """Walk two games as `seat` lived them; raise SeatLeak if its own inputs differ
    before anything it may know does."""
    sa, sb = lived(a, seat, owner), lived(b, seat, owner)
    mine: list[int] = []
    for x, y in zip(sa, sb):
        if x.kind == y.kind == "mine":
            if not _same_decision(x, y, anonymous):
                raise SeatLeak(f"seat {seat} knew the same in both games, yet decided differently: "
                               f"line {x.line} {x.what} against line {y.line} {y.what}")
            mine.append(x.line)
        elif x.kind != y.kind or x.what != y.what:
            return Walk(len(mine), tuple(mine), x.line, True, a[0])
    if len(sa) != len(sb):
        return Walk(len(mine), tuple(mine), sa[min(len(sa), len(sb)) - 1].line if sa else 0, True, a[0])
    return Walk(len(mine), tuple(mine), sa[-1].line if sa else 0, False, a[0])


def seat_blind(game: str, seed: int, players: int, options: Mapping[str, Any] | None, bot: str | None,
               seat: int, vary: Callable[[Any, int, random.Random], None], *, vary_seed: int = 0,
               owner: Owner = default_owner, anonymous: Anonymous | None = None,
               max_inputs: int = MAX_INPUTS) -> Walk:
    """Play `seed`, then `seed` again after `vary(simulation, seat, rng)` changed what
    `seat` cannot see; its decisions must match until it could tell (`compare_seat`).
    `max_inputs` stops both games early (the referee's stop), to keep a test cheap.
    A test should check that the change showed somewhere (`Walk.diverged` in some
    seeds): a `vary` that changes nothing proves nothing."""
    a = play(game, seed, players, dict(options or {}), bot, max_inputs=max_inputs)
    b = play(game, seed, players, dict(options or {}), bot, max_inputs=max_inputs,
             prepare=lambda sim: vary(sim, seat, random.Random(vary_seed)))
    return compare_seat(a, b, seat, owner, anonymous)


def replays(game: str, seed: int, players: int, options: Mapping[str, Any] | None = None,
            bot: str | None = None) -> Played:
    """Play a seed twice: the same script and log, and the log is the script's replay."""
    a = play(game, seed, players, dict(options or {}), bot)
    b = play(game, seed, players, dict(options or {}), bot)
    if a != b:
        raise AssertionError(f"{game} seed {seed} with {bot} bots played two different games")
    if run_script(a[0]) != a[1]:
        raise AssertionError(f"{game} seed {seed}: the recorded script does not replay to the same log")
    return a
