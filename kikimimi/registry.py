"""Finding games: every game is a plugin in the `kikimimi.games` entry-point group,
so a third party adds a game by installing a package, without touching the runtime."""
from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from kikimimi.protocol import Game

GROUP = "kikimimi.games"


class UnknownGame(LookupError):
    pass


_registered: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> None:
    """Make a game known in this process only (tests, notebooks); installed
    plugins need no call."""
    _registered[cls.name] = cls
    game_names.cache_clear()


@cache
def game_names() -> tuple[str, ...]:
    return tuple(sorted({ep.name for ep in entry_points(group=GROUP)} | set(_registered)))


def game_class(name: str) -> type[Game]:
    if name in _registered:
        return _registered[name]
    return _entry_point_class(name)


@cache
def _entry_point_class(name: str) -> type[Game]:
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            cls = ep.load()
            if not (isinstance(cls, type) and issubclass(cls, Game)):
                raise UnknownGame(f"plugin {name!r} ({ep.value}) is not a kikimimi Game")
            return cls
    have = ", ".join(game_names()) or "none installed"
    raise UnknownGame(f"unknown game {name!r} (have: {have})")
