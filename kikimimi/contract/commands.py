"""The referee's console commands of a game, as a table: parsing and help written once.

A game lists its commands (its declaration's `commands`), each a syntax, a line of
help and the method that carries it out:

    Command("penalty SEAT", "give a seat the wrong-piece penalty", "console_penalty")

The syntax's first word is the command; then, word by word:

- `SEAT` or `TARGET`: a seat number of this table (ASCII digits, 1..players);
- `a|b|c`: exactly one of those words;
- `TEXT`: the rest of the line as typed (at least one word; last);
- any other upper-case word (`TAG`, `SUIT`, `SECTION`): the word as typed,
  for the method to judge.

`dispatch` finds the command, refuses a wrong line in one line of its own
(the console's refusals are the referee's: the engine keeps them private),
and calls the method with the input's time and the parsed words.  The
console's `help` is the same table (`Declaration.referee_commands`), so a referee is
never offered a command the table would refuse, and a game writes no parser.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kikimimi.contract.hints import hint, seat_number
# `Command` and `Run` live in the bottom layer, beside the play that names them; they are
# this module's too, as they always were.
from kikimimi.contract.protocol import TABLE, Command, Event, Run, error, say, seat_audience

__all__ = ["Command", "Run", "dispatch", "help_lines", "hint_command", "refusal", "stop_command"]

SEATS = ("SEAT", "TARGET")
TEXT = "TEXT"
#: Longest word quoted back in a refusal.
QUOTE = 20


def _hint(game: Any, t: float, seat: int) -> list[Event]:
    return hint(game, seat)


#: The two commands docs/contract.md gives every game; a game names its own `stop` method.
def hint_command() -> Command:
    return Command("hint SEAT", "tell that seat, in its earphone, what it may know", _hint)


def stop_command(run: Run) -> Command:
    return Command("stop", "end the game now (it counts as stopped)", run)


def dispatch(game: Any, table: Sequence[Command], line: str, t: float, players: int) -> list[Event]:
    """Carry out one console line on `game` by its table: the method's events, or one refusal."""
    words = line.split()
    if not words:
        return [error("an empty command (help lists the commands)")]
    name, args = words[0].lower(), words[1:]
    matching = [c for c in table if c.name == name]
    if not matching:
        have = ", ".join(c.syntax for c in table)
        return [error(f"unknown command {line[:80]!r} (have: {have})")]
    for command in matching:
        params = command.params
        takes_text = bool(params) and params[-1] == TEXT
        if len(args) == len(params) or (takes_text and len(args) >= len(params)):
            parsed = _parse(command, args, players)
            if isinstance(parsed, str):
                return [error(parsed)]
            if takes_text:
                parsed[-1] = line.split(None, len(params))[len(params)]
            run = command.run
            out = getattr(game, run)(t, *parsed) if isinstance(run, str) else run(game, t, *parsed)
            return list(out or [])
    return [error(f"{name}: write {' or '.join(c.syntax for c in matching)}")]


def _parse(command: Command, args: list[str], players: int) -> list[Any] | str:
    """The arguments as the method takes them, or the one-line refusal."""
    out: list[Any] = []
    for param, word in zip(command.params, args):
        if param in SEATS:
            seat = seat_number(word, players)
            if seat is None:
                return f"{command.name}: {word[:QUOTE]!r} is not a seat 1-{players}"
            out.append(seat)
        elif "|" in param:
            choices = param.split("|")
            if word.lower() not in choices:
                return f"{command.name}: {word[:QUOTE]!r} is not one of {', '.join(choices)}"
            out.append(word.lower())
        else:
            out.append(word)
    return out


def refusal(seat: int | None, message: str, key: str, /, **params: Any) -> list[Event]:
    """An input a game refuses, one rule for every game: a seat's refusal is heard in that
    seat's earphone and its error is seen by that seat and the referee only (why a piece was
    refused can tell what a hand holds); the field reader's (seat None) is said on the
    speaker, where the piece lies for all to see.  A console line's errors are the referee's
    alone: the engine keeps them private (`stand_in.referee_only`).  `key` is the phrase
    spoken, `params` its values; the game's state must be unchanged."""
    if seat is None:
        return [error(message), say(TABLE, key, **params)]
    me = seat_audience(seat)
    return [error(message, private=me), say(me, key, **params)]


def help_lines(table: Sequence[Command]) -> list[tuple[str, str]]:
    """(syntax, help) per command, as the console lists them."""
    return [(c.syntax, c.help) for c in table]
