"""A game's own files, found through the game itself.

A game is a package that carries what only it needs:

    phrases/en.toml, phrases/ja.toml   its phrase catalogues (kikimimi.contract.phrases)
    sim.toml                           a table with simulated readers (`kikimimi serve GAME`)
    tagmap.toml                        optional: the uids of its demo set (kikimimi.contract.tagmap)

The runtime reaches them through the package the game's declaration names
(`Declaration.package`: package resources), never through a fixed package name, so a game installed from
another distribution ships its own files and needs nothing changed here.  The
runtime's own catalogues (core, evening, records) stay in `kikimimi_voices`.
"""
from __future__ import annotations

import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from kikimimi.contract.declaration import Declaration
from kikimimi.contract.registry import UnknownGame, declaration, game_names

PHRASES = "phrases"
SIM_TABLE = "sim.toml"
TAGMAP = "tagmap.toml"


def game_folder(decl: Declaration) -> Traversable:
    """The game's package folder (a single-module plugin: the folder its module sits in)."""
    module = sys.modules.get(decl.package)
    if module is not None and getattr(module, "__path__", None) is None:
        # A top-level module is no package: importlib.resources refuses it, its folder is the answer.
        return Path(module.__file__ or ".").parent
    return resources.files(decl.package)


def game_file(game: str, *parts: str) -> Traversable | None:
    """One file of a registered game's package; None when the game or the file is not there."""
    try:
        decl = declaration(game)
    except UnknownGame:
        return None
    ref = game_folder(decl).joinpath(*parts)
    return ref if ref.is_file() else None


def phrases_file(game: str, lang: str) -> Traversable | None:
    return game_file(game, PHRASES, f"{lang}.toml")


def sim_table_file(game: str) -> Traversable | None:
    return game_file(game, SIM_TABLE)


def tagmap_file(game: str) -> Traversable | None:
    return game_file(game, TAGMAP)


def all_phrase_files(lang: str) -> list[Traversable]:
    """Every registered game's catalogue in `lang` (a plugin that fails to load is
    skipped here: `kikimimi doctor` reports it)."""
    out = []
    for name in game_names():
        try:
            ref = phrases_file(name, lang)
        except Exception:  # a broken third-party plugin must not silence the others
            continue
        if ref is not None:
            out.append(ref)
    return out
