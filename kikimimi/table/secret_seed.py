"""The table's secret seed, drawn when a table is first served.

A game's lots (闇に笑う魔女's tie-breaking lot and silence hour, イントリーゲ's
hidden-bribe dial) hang on its `seed` option and on public facts (the time, the
cash).  Left at its default, every table shared one seed, and the lots were
recomputable by anyone who knows the defaults: 105 of 131 first bribe offers were
recovered exactly.  So a table that sets no seed gets a random one when it is
first served, written in the journal's header (a replay draws the same) and never
in a spectator's (`kikimimi.table.public` strips it).
"""
from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from kikimimi.contract.script import Header

SEED = "seed"
#: The seed drawn: below the schema's bound (`whole("seed", ..., high=2**62)`).
SEED_BOUND = 1 << 62


def takes_seed(game: str) -> bool:
    """Whether the game's lots hang on a `seed` option (its schema declares one)."""
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        decl = declaration(game)
    except UnknownGame:
        return False
    names = decl.options.names if decl.options is not None else decl.option_names
    return names is not None and SEED in names


def with_secret_seed(header: Header) -> Header:
    """`header` with a freshly drawn secret seed where the game takes one and none is set."""
    if SEED in header.options or not takes_seed(header.game):
        return header
    options: dict[str, Any] = {**header.options, SEED: secrets.randbelow(_bound(header.game))}
    return replace(header, options=options)


def _bound(game: str) -> int:
    """Above the largest seed the game's schema takes, at most `SEED_BOUND`."""
    from kikimimi.contract.registry import declaration

    schema = declaration(game).options
    option = schema.by_name.get(SEED) if schema is not None else None
    high = int(option.high) if option is not None else SEED_BOUND - 1
    return max(1, min(SEED_BOUND, high + 1))


def doctor_line(game: str, options: dict[str, Any]) -> str | None:
    """What `doctor` says of the table's seed (None: the game draws no lots)."""
    if not takes_seed(game):
        return None
    if SEED in options:
        return "seed: set in the table's config (kept from spectators; anyone who reads the config can recompute the lots)"
    return "seed: none set: a random secret one is drawn when the table is first served, kept in the journal's header"
