"""Every text a table can speak, worked out before the first input.

A parametrised phrase ("{seat}番。", "{card}、あなたのカードです。") rendered on
first use made its answer wait 24-30 ms p95 for the engine (Open JTalk:
50-200 ms), against ~2 ms for a cached clip.  So at table start every phrase
is rendered with every value its parameters can take at that table: a game
declares its parameter domains (its declaration's `phrase_values`), and this module
expands each catalogue template over the domains of the parameters it
actually names.

A phrase whose expansion is larger than `MAX_VARIANTS` (the Trident's final
ranking by points: seat x place x every possible score) or names a
parameter without a domain is left to render when first said, and the
report lists it, so that choice is visible rather than silent.
"""
from __future__ import annotations

import itertools
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kikimimi.contract.phrases import Phrasebook

if TYPE_CHECKING:
    from kikimimi.contract.declaration import Declaration

#: Most texts one phrase may expand to (a Open JTalk clip takes ~0.1 s on a first start).
MAX_VARIANTS = 1500

Domains = dict[str, Sequence[Any]]


def seat_sets(seats: Sequence[int], largest: int | None = None) -> list[list[int]]:
    """Non-empty sets of seats (of at most `largest`), sorted as the games pass them:
    the domain of a `{seats}` parameter ("seats 2, 5 and 7")."""
    top = len(seats) if largest is None else min(largest, len(seats))
    return [list(c) for k in range(1, top + 1) for c in itertools.combinations(seats, k)]


def core_values(players: int) -> Domains:
    """What the runtime's own phrases take (reader names as engine.py builds them)."""
    seats = range(1, players + 1)
    return {"reader": ["field"] + [f"hand {n}" for n in seats], "seat": list(seats),
            "players": [players], "count": range(0, players + 1)}


def domains_for(decl: Declaration, players: int, options: Mapping[str, Any]) -> Domains:
    """Parameter name -> values ("seat" -> 1..players); a key "phrase.param" narrows one phrase."""
    return {**core_values(players), **decl.own_values(players, options)}


def placeholders(template: str) -> list[str]:
    """The parameter names a template uses, in order, each once."""
    names = []
    try:
        for _, name, _, _ in string.Formatter().parse(template):
            if name is not None and name not in names:
                names.append(name)
    except ValueError:  # a stray brace: the phrasebook speaks it leniently
        return []
    return names


def dimensions(key: str, names: Sequence[str], domains: Mapping[str, Sequence[Any]]
               ) -> list[tuple[tuple[str, ...], Sequence[tuple[Any, ...]]]]:
    """The axes one phrase expands over: (parameter names, their value tuples).

    A domain named "a,b" (or "phrase.a,b" for one phrase) lists values that go
    together, e.g. "section,income": [(1, 10000), (2, 20000)]: a section's
    income is fixed, and the cross product would render texts never said.
    A phrase's own domain comes before a shared one, a joint before a single."""
    dims: list[tuple[tuple[str, ...], Sequence[tuple[Any, ...]]]] = []
    left = list(names)
    for scope in (f"{key}.", ""):
        for spec, values in domains.items():
            if "," not in spec or not spec.startswith(scope) or (not scope and "." in spec):
                continue
            group = tuple(spec[len(scope):].split(","))
            if all(n in left for n in group) and not (scope == "" and any(f"{key}.{n}" in domains for n in group)):
                dims.append((group, [tuple(v) for v in values]))
                left = [n for n in left if n not in group]
    for n in left:
        single = domains.get(f"{key}.{n}", domains.get(n))
        if single is not None:
            dims.append(((n,), [(v,) for v in single]))
    return dims


@dataclass
class Expansion:
    """The texts of one table's catalogue, and what was left to render when said."""

    texts: list[str] = field(default_factory=list)
    per_key: dict[str, int] = field(default_factory=dict)
    on_demand: dict[str, str] = field(default_factory=dict)  # phrase key -> why


def expand(book: Phrasebook, domains: Mapping[str, Sequence[Any]],
           max_variants: int = MAX_VARIANTS) -> Expansion:
    """Every text the phrasebook renders for the given parameter domains, in catalogue order."""
    out = Expansion()
    seen: set[str] = set()

    def add(text: str) -> None:
        if text.strip() and text not in seen:
            seen.add(text)
            out.texts.append(text)

    for key, template in book.phrases.items():
        names = placeholders(template)
        dims = dimensions(key, names, domains)
        missing = [n for n in names if not any(n in group for group, _ in dims)]
        if missing:
            out.on_demand[key] = f"no domain for {', '.join(missing)}"
            continue
        size = 1
        for _, values in dims:
            size *= len(values)
        if size > max_variants:
            out.on_demand[key] = f"{size} variants (more than {max_variants})"
            continue
        before = len(out.texts)
        for combo in itertools.product(*(values for _, values in dims)):
            params: dict[str, Any] = {}
            for (group, _), value in zip(dims, combo):
                params.update(zip(group, value))
            add(book.render(key, params))
        out.per_key[key] = len(out.texts) - before
    for spoken in book.names.values():  # a name may be said alone ("{piece}")
        add(spoken)
    return out


def table_texts(game: str, players: int, options: Mapping[str, Any], lang: str,
                extra_names: Iterable[str] = ()) -> Expansion:
    """Everything a table of `game` in `lang` may say (players' names appended, spoken alone)."""
    from kikimimi.contract.registry import declaration

    decl = declaration(game)
    book = Phrasebook(lang, ("core", decl.name))
    got = expand(book, domains_for(decl, players, options))
    for name in extra_names:
        if name.strip() and name not in got.texts:
            got.texts.append(name)
    return got


#: A phrase with at most this many texts at a table is among those said first (seats, a
#: few counts); the larger ones (every score, every card pair) render in the background.
FIRST_VARIANTS = 12


def first_and_rest(game: str, players: int, options: Mapping[str, Any], lang: str,
                   first_variants: int = FIRST_VARIANTS) -> tuple[list[str], list[str]]:
    """A table's catalogue split for a first start: what it says first (the runtime's own
    lines, every fixed phrase, phrases over a few values such as seats, and every
    piece's name) and the rest, each in catalogue order.  Together they are
    `table_texts(...).texts`."""
    from kikimimi.contract.registry import declaration

    decl = declaration(game)
    book = Phrasebook(lang, ("core", decl.name))
    got = expand(book, domains_for(decl, players, options))
    first: list[str] = []
    rest: list[str] = []
    at = 0
    for key in book.phrases:
        count = got.per_key.get(key, 0)
        (first if count <= first_variants else rest).extend(got.texts[at:at + count])
        at += count
    first.extend(got.texts[at:])  # the names, spoken alone
    return first, rest
