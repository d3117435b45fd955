"""Finding games: every game is a plugin in the `kikimimi.games` entry-point group,
so a third party adds a game by installing a package, without touching the runtime.

An entry point names the game's `Declaration`; one naming an old-style
`protocol.Game` subclass still loads, its declaration read from its class
attributes (`Declaration.of_game`).
"""
from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import Game, Play

GROUP = "kikimimi.games"


class UnknownGame(LookupError):
    pass


_registered: dict[str, Declaration] = {}


def register(game: Declaration | type[Game]) -> Declaration:
    """Make a game known in this process only (tests, notebooks); installed
    plugins need no call."""
    decl = _as_declaration(game, repr(game))
    _registered[decl.name] = decl
    game_names.cache_clear()
    return decl


@cache
def game_names() -> tuple[str, ...]:
    return tuple(sorted({ep.name for ep in entry_points(group=GROUP)} | set(_registered)))


def declaration(name: str) -> Declaration:
    """The declaration of the game called `name` (`UnknownGame`, in one line, if none is)."""
    if name in _registered:
        return _registered[name]
    return _entry_point_declaration(name)


def game_class(name: str) -> type[Play]:
    """The class of one play of `name` (for a caller that checks what a play is)."""
    return declaration(name).play


def _as_declaration(obj: object, where: str) -> Declaration:
    if isinstance(obj, Declaration):
        return obj
    if isinstance(obj, type) and issubclass(obj, Game):
        return Declaration.of_game(obj)
    raise UnknownGame(f"plugin {where} is not a kikimimi game declaration")


@cache
def _entry_point_declaration(name: str) -> Declaration:
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            decl = _as_declaration(ep.load(), f"{name!r} ({ep.value})")
            if decl.name != name:  # a header naming one game must never play another's rules
                raise UnknownGame(f"plugin {name!r} ({ep.value}) declares the game {decl.name!r}")
            return decl
    have = ", ".join(game_names()) or "none installed"
    raise UnknownGame(f"unknown game {name!r} (have: {have})")
