"""The referee's `game NAME key=value ...`: the next game's options typed on one line.

Why here and not in a game: every game's options are already declared once
(`kikimimi/contract/options.py`), so the words are only turned into values
(each value read as a TOML value, as the table file writes it: `180`,
`2.5`, `true`, `["witch","knight"]`; a bare word is a string) and the
game's own `Declaration.check_options` judges them, with the same one-line
refusal a table file's typo gets.  `players=N` is the seat count, bounded by
the game's declared range.
"""
from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

#: At most this many `key=value` words on one line (a game declares fewer options than this).
MAX_WORDS = 24
#: A key's and a value's longest text.
MAX_KEY, MAX_VALUE = 40, 120
#: The word that sets the seat count, not an option.
PLAYERS = "players"


class OptionWordsRefused(ValueError):
    """A `key=value` line that cannot be the next game's options (one line)."""


def parse_words(words: Sequence[str]) -> tuple[int | None, dict[str, Any]]:
    """`players=5 timer=60` -> (5, {"timer": 60}): the seat count (None: unchanged) and the options."""
    if len(words) > MAX_WORDS:
        raise OptionWordsRefused(f"at most {MAX_WORDS} options on one line")
    players: int | None = None
    options: dict[str, Any] = {}
    for word in words:
        key, sep, text = word.partition("=")
        if not sep or not key or not text:
            raise OptionWordsRefused(f"{word[:MAX_KEY]!r}: write each option as name=value")
        if len(key) > MAX_KEY or not key.isascii() or not key.replace("_", "").replace("-", "").isalnum():
            raise OptionWordsRefused(f"{key[:MAX_KEY]!r} is not an option name")
        if len(text) > MAX_VALUE:
            raise OptionWordsRefused(f"{key}: a value of at most {MAX_VALUE} characters")
        if key in options or (key == PLAYERS and players is not None):
            raise OptionWordsRefused(f"{key} is given twice")
        value = _value(text)
        if key == PLAYERS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionWordsRefused(f"players must be a whole number, not {text!r}")
            players = value
        else:
            options[key] = value
    return players, options


def _value(text: str) -> Any:
    """The TOML value `text` writes, else the text itself (a bare word: `mode=competition`)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError):
        return text


def next_options(game: str, players: int, base: Mapping[str, Any], words: Sequence[str]) -> tuple[int, dict[str, Any]]:
    """The seat count and options of the next `game`: `base` (the table file's) with the words
    over it, checked by the game's own schema; `OptionWordsRefused` in one line."""
    from kikimimi.contract.registry import declaration

    decl = declaration(game)
    count, given = parse_words(words)
    seats = players if count is None else count
    if not decl.min_players <= seats <= decl.max_players:
        raise OptionWordsRefused(f"{game} is played by {decl.min_players}-{decl.max_players} players, not {seats}")
    options = {**base, **given}
    try:
        decl.check_options(seats, options)
    except ValueError as exc:
        raise OptionWordsRefused(f"{game}: {str(exc).splitlines()[0] if str(exc) else 'options refused'}") from None
    return seats, options


def schema_of(game: str, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """What a form needs to offer `game`'s options: each name, kind, allowed values, default,
    the value the table file gives, one line of help (the referee's web page builds on it)."""
    from kikimimi.contract.registry import declaration

    decl = declaration(game)
    rows: list[dict[str, Any]] = []
    schema = decl.options
    for option in schema.options if schema is not None else ():
        row: dict[str, Any] = {"name": option.name, "kind": option.kind, "default": _plain(option.default),
                               "help": option.help, "describe": option.describe(players)}
        if option.choices:
            row["choices"] = list(option.choices)
        if option.kind in ("whole", "number"):
            row["low"], row["high"] = option.low, option.high
        if option.name in options:
            row["value"] = _plain(options[option.name])
        rows.append(row)
    return {"name": game, "players": players, "min_players": decl.min_players,
            "max_players": decl.max_players, "options": rows}


def _plain(value: Any) -> Any:
    """A value as JSON can carry it (an option's default may be a tuple or a callable's None)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)
