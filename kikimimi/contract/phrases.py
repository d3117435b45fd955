"""Phrase catalogues: phrase key + parameters -> text in the table's language.

A game's catalogues are TOML files in its own package, `phrases/<lang>.toml`
(found through the game: `kikimimi.contract.game_files`); the runtime's own (core,
evening, records) are `voices/<catalogue>/<lang>.toml` (the `kikimimi_voices`
package):

    [phrases]
    hand-piece = "{piece}"
    score = "Seat {seat}: {points} points."
    [names]
    "trident:heart-3" = "ハートの3"
    [one]
    score = "points|Seat {seat}: {points} point."

`[one]` gives a phrase its singular: "PARAM|template", said when PARAM is 1
or -1 (so "1 points" is never heard; Japanese needs none).

A parameter whose value is a key of `[names]` is spoken by that name, so a
game says `say("seat:2", "hand-piece", piece="trident:heart-3")` and never
deals with language.  Japanese is written in the seeds' own words, with
kanji: Open JTalk reads it, and a catalogue's `[readings]` table fixes what
it misreads (kikimimi/voice/readings.py).
"""
from __future__ import annotations

import string
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from kikimimi.contract.game_files import phrases_file

LANGUAGES = ("ja", "en")
#: Most rendered texts a phrasebook remembers (a Trident table says a few hundred distinct ones).
RENDERED_MAX = 8192


class CatalogueError(ValueError):
    """A catalogue file that cannot be used (bad TOML, wrong shape)."""


def load_catalogue(catalogue: str, lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """(phrases, names) of one packaged catalogue; empty when it does not exist.

    Fresh dicts each call; the file is read and parsed once per process (a
    replay or a batch of simulated games builds a table per game, and parsing
    the catalogues was most of a short game's cost)."""
    phrases, names = _parsed_catalogue(catalogue, lang)
    return dict(phrases), dict(names)


def catalogue_file(catalogue: str, lang: str) -> tuple[Traversable | None, str]:
    """(the file, how to name it in an error): the runtime's own catalogue of that
    name, else the registered game's `phrases/<lang>.toml`."""
    ref = resources.files("kikimimi_voices").joinpath(catalogue, f"{lang}.toml")
    if ref.is_file():
        return ref, f"voices/{catalogue}/{lang}.toml"
    return phrases_file(catalogue, lang), f"{catalogue}: phrases/{lang}.toml"


@cache
def _parsed_catalogue(catalogue: str, lang: str) -> tuple[dict[str, str], dict[str, str]]:
    ref, where = catalogue_file(catalogue, lang)
    if ref is None:
        return {}, {}
    try:
        data = tomllib.loads(ref.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(f"{where}: {exc}") from None
    phrases, names = data.get("phrases", {}), data.get("names", {})
    for table, what in ((phrases, "phrases"), (names, "names")):
        bad = [k for k, v in table.items() if not isinstance(v, str)]
        if bad:
            raise CatalogueError(f"{where}: [{what}] {bad[0]} is not a string")
    return dict(phrases), dict(names)


@cache
def _singulars(catalogue: str, lang: str) -> dict[str, tuple[str, str]]:
    """The catalogue's `[one]` table: phrase key -> (the counting parameter, the singular template)."""
    ref, where = catalogue_file(catalogue, lang)
    if ref is None:
        return {}
    one = tomllib.loads(ref.read_text(encoding="utf-8")).get("one", {})
    out = {}
    for key, value in one.items():
        param, sep, template = value.partition("|") if isinstance(value, str) else ("", "", "")
        if not sep or not param.isidentifier():
            raise CatalogueError(f"{where}: [one] {key} must be \"PARAM|template\"")
        out[key] = (param, template)
    return out


class Phrasebook:
    """The merged catalogues of one table: the core's and its game's.

    A table says the same few hundred phrases over and over, and the engine
    keeps one phrasebook per language and game for the whole process, so
    `render` remembers its texts by (key, parameters).  Only parameters that
    are all exact `str` or `int` are remembered: as dict keys True == 1 == 1.0,
    which are spoken "true", "1" and "1.0".  `phrases` and `names` are read,
    never changed, once the book is made."""

    def __init__(self, lang: str, catalogues: Iterable[str] = ("core",)):
        if lang not in LANGUAGES:
            raise CatalogueError(f"unknown language {lang!r} (have: {', '.join(LANGUAGES)})")
        self.lang = lang
        self.phrases: dict[str, str] = {}
        self.names: dict[str, str] = {}
        #: phrase key -> (counting parameter, singular template), from the catalogues' `[one]`
        self.singulars: dict[str, tuple[str, str]] = {}
        for catalogue in catalogues:
            phrases, names = load_catalogue(catalogue, lang)
            self.phrases.update(phrases)
            self.names.update(names)
            self.singulars.update(_singulars(catalogue, lang))
        #: The memo `render` fills: phrase key -> text for a say without parameters,
        #: (key, name, value) for one parameter, (key, *items) for more.  The engine
        #: reads it directly for a say's text (`Table._log_events`); only `render` writes it.
        self.rendered: dict[Any, str] = {}

    def name(self, value: Any) -> str:
        """How a parameter value is spoken."""
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, (list, tuple)):
            sep = "、" if self.lang == "ja" else ", "
            return sep.join(self.name(v) for v in value)
        text = str(value)
        return self.names.get(text, text)

    def render(self, key: str, params: Mapping[str, Any] | None = None) -> str:
        """The text for a phrase.  An unknown key is spoken as the key itself
        (a catalogue test catches those before they reach a table)."""
        if not params:
            memo: Any = key
        elif len(params) == 1:  # most phrases: one piece, one seat, one count
            ((name, value),) = params.items()
            if type(value) is not str and type(value) is not int:
                return self.render_uncached(key, params)
            memo = (key, name, value)
        else:
            for value in params.values():
                if type(value) is not str and type(value) is not int:
                    return self.render_uncached(key, params)
            memo = (key, *params.items())
        text = self.rendered.get(memo)
        if text is None:
            text = self.render_uncached(key, params)
            if len(self.rendered) < RENDERED_MAX:
                self.rendered[memo] = text
        return text

    def render_uncached(self, key: str, params: Mapping[str, Any] | None = None) -> str:
        """`render` without the memo (the definition it must agree with)."""
        params = params or {}
        template = self.phrases.get(key)
        one = self.singulars.get(key)
        if one is not None and _one(params.get(one[0])):
            template = one[1]
        if template is None:
            extra = " ".join(self.name(v) for v in params.values())
            return f"{key} {extra}".strip()
        spoken = {k: self.name(v) for k, v in params.items()}
        try:
            return template.format_map(spoken)
        except (KeyError, IndexError, ValueError):
            return string.Formatter().vformat(template, (), _Lenient(spoken))

    def has(self, key: str) -> bool:
        return key in self.phrases


def _one(value: Any) -> bool:
    """A count of 1 (or -1), or a list of one ("Gone: seat 2", not "seats 2")."""
    if type(value) is int:
        return value in (1, -1)
    return isinstance(value, (list, tuple)) and len(value) == 1


class _Lenient(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
