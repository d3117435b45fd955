"""A game's options declared once: names, defaults, what each may be, a line of help.

One schema gives the three things every game used to write by hand:
`Declaration.check_options` (a table config or a script header with a bad option is
refused before anything starts, in one line naming the option), the values a
game plays with (`Options.parse`: the defaults filled in) and the help
`kikimimi sim GAME --options` prints.  What a schema cannot say (a deck that
must fit the player count, two options that must agree) the game checks after
`parse`, in its own one line.

    OPTIONS = Options(
        choice("scoring", ("normal", "competition"), "how a game is scored"),
        seat("first", 1, "the seat that plays first"),
    )
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Largest number a whole-number option takes unless the game says otherwise.
LARGEST = 10**6


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str
    kind: str = "any"  # choice | whole | number | seat | seats | each | any (the game checks it)
    choices: tuple[str, ...] = ()
    low: float = 0
    high: float = LARGEST
    #: None is a value of its own ("not set"), accepted as it is.
    optional: bool = False
    #: The value at a table of this many players when the option is not set (None): a deck
    #: that fits the count, given once instead of after every game's parse.
    by_players: Callable[[int], Any] | None = None

    def check(self, value: Any, players: int) -> Any:
        """The value, or a one-line ValueError naming the option."""
        if value is None and self.optional:
            return None
        if self.kind == "seats":
            return self._seats(value, players)
        if self.kind == "each":
            return self._each(value, players)
        if self.kind == "choice":
            if value not in self.choices:
                raise ValueError(f"{self.name} must be {_either(self.choices)}, not {_quote(value)}")
        elif self.kind in ("whole", "number", "seat"):
            high = players if self.kind == "seat" else self.high
            low = 1 if self.kind == "seat" else self.low
            if self.kind == "whole" and isinstance(value, float) and value.is_integer():
                value = int(value)  # 180.0 in a TOML file is 180
            kinds = (int,) if self.kind != "number" else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
                raise ValueError(f"{self.name} must be {self.describe(players)}, not {_quote(value)}")
        return value

    def _seats(self, value: Any, players: int) -> dict[int, str]:
        """A table {seat: word} as {int: word}; a seat named twice ("1" and 1) is refused."""
        if value is None:
            return {}
        out: dict[int, str] = {}
        if isinstance(value, Mapping) and len(value) <= players:
            for key, word in value.items():
                text = str(key) if isinstance(key, (str, int)) else ""
                seat = int(text) if text.isascii() and text.isdigit() and len(text) <= 3 else 0  # "²".isdigit()
                if not 1 <= seat <= players or seat in out or not isinstance(word, str) or word not in self.choices:
                    raise ValueError(f"{self.name} must be {self.describe(players)}, not "
                                     f"{_quote(key)} = {_quote(word)}")
                out[seat] = word
            return out
        raise ValueError(f"{self.name} must be {self.describe(players)}, not {_quote(value)}")

    def _each(self, value: Any, players: int) -> dict[int, str]:
        """Every seat's word: one word for all, a list of one per seat, or a table {seat: word}
        (the seats it leaves out take the first word)."""
        if isinstance(value, str) and value in self.choices:
            return {s: value for s in range(1, players + 1)}
        if isinstance(value, list) and len(value) == players and all(isinstance(w, str) and w in self.choices
                                                                     for w in value):
            return dict(enumerate(value, 1))
        if isinstance(value, Mapping):
            named = self._seats(value, players)
            return {s: named.get(s, self.choices[0]) for s in range(1, players + 1)}
        raise ValueError(f"{self.name} must be {self.describe(players)}, not {_quote(value)}")

    def describe(self, players: int | None = None) -> str:
        """What the option may be, in words (the refusal and the help say the same)."""
        if self.kind == "each":
            return f"{_either(self.choices)} for every seat, a list of one per seat, or a table {{seat: word}}"
        if self.kind == "seats":
            seats = f"seats 1 to {players}" if players else "seats"
            return f"a table from {seats} to {_either(self.choices)}"
        if self.kind == "choice":
            return _either(self.choices)
        if self.kind == "seat":
            return f"a seat from 1 to {players}" if players else "a seat number"
        what = "a whole number" if self.kind == "whole" else "a number"
        if self.high >= LARGEST:
            return f"{what} of at least {self.low:g}"
        return f"{what} from {self.low:g} to {self.high:g}"


def choice(name: str, choices: Sequence[str], help: str, default: str | None = None) -> Option:
    """One of a few words; the default is the first unless named."""
    return Option(name, choices[0] if default is None else default, help, "choice", tuple(choices))


def whole(name: str, default: int | None, help: str, low: int = 0, high: int = LARGEST,
          optional: bool = False) -> Option:
    return Option(name, default, help, "whole", low=low, high=high, optional=optional)


def number(name: str, default: float, help: str, low: float = 0, high: float = LARGEST) -> Option:
    return Option(name, default, help, "number", low=low, high=high)


def seat(name: str, default: int, help: str) -> Option:
    return Option(name, default, help, "seat")


def seat_table(name: str, words: Sequence[str], help: str) -> Option:
    """A table {seat: word}, e.g. {"1": "mirror"} (a TOML table's keys are strings); parsed
    as {1: "mirror"}.  Not set is an empty table."""
    return Option(name, None, help, "seats", tuple(words))


def each_seat(name: str, words: Sequence[str], default: str, help: str) -> Option:
    """A word for every seat (an assistant's mode, say): one word for all, a list of one per
    seat, or a table {"1": word} whose seats left out take the first word; parsed as
    {seat: word} for every seat, the default too, so a game reads one shape."""
    return Option(name, default, help, "each", tuple(words))


def anything(name: str, default: Any, help: str, by_players: Callable[[int], Any] | None = None) -> Option:
    """An option the game checks itself (a deck, a map of seats); `by_players` gives its value
    at a player count when it is not set (闇に笑う魔女's role deck)."""
    return Option(name, default, help, by_players=by_players)


class Options:
    """The schema of one game's options, in the order the help lists them."""

    def __init__(self, *options: Option, at_most: Mapping[str, str] | None = None):
        """`at_most`: {low: high}, two options where the first must not exceed the second
        (a shortest and a longest), refused in one line naming both."""
        self.options = options
        self.by_name = {o.name: o for o in options}
        self.at_most = dict(at_most or {})

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.by_name)

    @property
    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def refuse_unknown(self, options: Mapping[str, Any]) -> None:
        unknown = sorted(set(options) - set(self.by_name))
        if unknown:
            have = ", ".join(o.name for o in self.options) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} (have: {have})")

    def parse(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value at this table: the given ones checked, the rest their defaults."""
        self.refuse_unknown(options)
        out = self.defaults
        out.update({o.name: {} for o in self.options if o.kind == "seats"})  # not set: no seat named
        out.update({o.name: o.check(o.default, players) for o in self.options if o.kind == "each"})
        for name, value in options.items():
            out[name] = self.by_name[name].check(value, players)
        for low, high in self.at_most.items():
            if out[low] is not None and out[high] is not None and out[low] > out[high]:
                raise ValueError(f"{low} must not exceed {high}")
        out.update({o.name: o.by_players(players) for o in self.options if o.by_players and out[o.name] is None})
        return out

    def help_lines(self) -> list[str]:
        """One line per option: name, default, what it may be, what it does."""
        return [f"{o.name} (default {_quote(o.default)}; {o.describe() if o.kind != 'any' else 'see the rules'})"
                f": {o.help}" for o in self.options]


def _either(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
