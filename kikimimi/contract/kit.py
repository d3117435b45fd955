"""The kit: which look-alike pieces a table needs for a game and a player count.

What is a private click online is a visible act at a table: everyone sees
whose seat token a player picks up, or that the one who just picked up
EXORCISE must be the priest.  So every player holds a set of their own:
look-alike seat tokens and command tags, one copy of each, scanned on their
own hand reader.  Nobody can tell by sight which of them was scanned, and
everyone holds the same pieces whatever their role, so holding one tells
nothing either.  The table holds the rest once: the pieces that are dealt,
drawn or laid out in the open.

A game says which of its pieces are each player's own with the classmethod
`kit(players, options) -> (own, table)`; a game without one gets seat tokens
and HINT for each player and its own pieces on the table.  The tag map holds
every copy: several uids resolve to one piece name (`kikimimi tags enroll
kit:GAME`), so the game never knows whose copy it was.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.contract.declaration import Declaration
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import COMMAND_TAGS

#: The evening's tag between games (`kikimimi.table.evening.AGREE`): in every kit, by the runtime.
AGREE_TAG = "cmd:agree"
#: The owner's PAIR card: one copy among the table's pieces, in every kit, by the runtime.  Scanned
#: on a seat's hand reader between games (or paused), it says a web console pairing code into
#: that seat's earphone (`kikimimi.table.pair_card`; docs/web.md), so a box with no screen
#: pairs its first phone.  No game ever sees it.
PAIR_TAG = "cmd:pair"


@dataclass(frozen=True)
class Kit:
    game: str
    players: int
    #: Pieces every player holds one look-alike copy of, in their own set.
    own: tuple[str, ...]
    #: Pieces the table holds once (dealt, drawn or laid out).
    table: tuple[str, ...]

    def copies(self) -> dict[str, int]:
        """How many tagged copies of each piece the tag map must hold."""
        out = {piece: 1 for piece in self.table}
        for piece in self.own:
            out[piece] = out.get(piece, 0) + self.players
        return out

    def tags(self) -> int:
        return len(self.table) + self.players * len(self.own)

    def lines(self) -> list[str]:
        """The kit as a person reads it out, one line a group."""
        out = [f"{self.game} for {self.players}: {self.tags()} tags"]
        out.append(f"each player's own set ({len(self.own)} look-alike tags, scanned on their own hand reader): "
                   + describe(self.own))
        if self.table:
            out.append(f"the table's pieces ({len(self.table)}, one of each): " + describe(self.table))
        return out


def _natural(name: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def describe(pieces: Iterable[str]) -> str:
    """`seat:1`…`seat:5`, `cmd:ok`, … grouped by set, so a list of 90 reads as a few words."""
    groups: dict[str, list[str]] = {}
    for piece in pieces:
        set_name, _, name = piece.partition(":")
        groups.setdefault(set_name, []).append(name)
    parts = []
    for set_name, names in groups.items():
        names.sort(key=_natural)
        if set_name == "seat":
            parts.append(f"seat tokens {names[0]}-{names[-1]}" if len(names) > 1 else f"seat token {names[0]}")
        elif set_name == "cmd":
            parts.append("command tags " + " ".join(n.upper() for n in names))
        elif len(names) > 4:
            parts.append(f"{len(names)} {set_name} pieces ({set_name}:{names[0]} … {set_name}:{names[-1]})")
        else:
            parts.append(", ".join(f"{set_name}:{n}" for n in names))
    return "; ".join(parts)


def kit_for(game: str, players: int, options: Mapping[str, Any] | None = None) -> Kit:
    """The kit of `game` at a table of `players`."""
    from kikimimi.contract.registry import declaration

    decl = declaration(game)
    if decl.kit is not None:
        own, table = decl.kit(players, dict(options or {}))
    else:
        own = [f"seat:{k}" for k in range(1, players + 1)] + ["cmd:hint", *(f"cmd:{c}" for c in decl.command_tags)]
        table = sorted(t for t in decl.known_tags(players) if not t.startswith(("seat:", "cmd:")))
    # The table asks every seat for AGREE between games (kikimimi.table.evening), whatever the game:
    # the runtime adds it to each player's own set, so no game's kit can leave it out.
    # The owner's PAIR card is the table's, once, whatever the game (never a game's piece).
    return Kit(decl.name, players, _ordered([*own, AGREE_TAG]), _ordered([*table, PAIR_TAG]))


def table_tags(decl: Declaration, players: int, options: Mapping[str, Any] | None = None) -> frozenset[str]:
    """Every tag a table of this game accepts from a reader.

    Without a kit: the game's pieces, every seat token, every contract command tag and
    the game's own (the game refuses what it does not use).  With a kit: the game's pieces and the
    kit's, at these options, and no other seat token or command tag, so a tag the game
    has no use for is refused by the runtime (one line, in the scanning seat's earphone)
    and never reaches the game as a piece.  The owner's PAIR card is in no game's tags: the
    daemon answers it before the game (`kikimimi.table.pair_card`), and where nothing does
    (a referee's stand-in `scan 2 cmd:pair`, a bot game) it is refused as any unknown tag."""
    tags = decl.tags(players) if callable(decl.tags) else decl.tags
    if decl.kit is None:
        own_commands = {f"cmd:{c}" for c in decl.command_tags}
        return tags | COMMAND_TAGS | own_commands | {f"seat:{k}" for k in range(1, players + 1)}
    own, table = decl.kit(players, dict(options or {}))
    return tags | frozenset(own) | frozenset(table)


def _ordered(pieces: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(pieces), key=lambda p: (not p.startswith("seat:"), not p.startswith("cmd:"),
                                                    _natural(p))))


def own_set(seats: int, commands: Sequence[str]) -> list[str]:
    """Seat tokens 1..seats (0: none) and these command tags (a game's `kit` hook builds on it)."""
    return [f"seat:{k}" for k in range(1, seats + 1)] + [f"cmd:{c}" for c in commands]


def missing_copies(kit: Kit, tagmap: Mapping[str, str]) -> dict[str, tuple[int, int]]:
    """piece -> (enrolled, wanted) for every piece with fewer copies than the kit needs."""
    have: dict[str, int] = {}
    for piece in tagmap.values():
        have[piece] = have.get(piece, 0) + 1
    return {p: (have.get(p, 0), n) for p, n in kit.copies().items() if have.get(p, 0) < n}


def tags_checked(config: Any) -> bool:
    """A table of real readers needs its pieces tagged; a simulated one scans by name."""
    return not config.simulated  # a table is all simulated or all real (the table file says so)


#: At most this many lacking pieces are read out one by one; the rest are counted.
SPOKEN_LACKING = 6


def spoken_lines(kit: Kit, lacking: Mapping[str, tuple[int, int]] | None, book: Phrasebook,
                 names: Mapping[str, str] | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The kit as the speaker reads it (`doctor --listen`): (phrase key, params) of the catalogue
    `setup`, so an organiser with no screen can check the box by ear.  `lacking` (from
    `missing_copies`) is None where tags are not checked (a simulated table).  `names`: how
    each piece is said in the book's language (`kikimimi.box.setup.enrol.piece_names`, the
    enrolment's own words); a piece it lacks is read from its id."""
    said = dict(names or {})

    def spoken(pieces: Iterable[str]) -> str:
        return _spoken(pieces, lambda first, last: book.render("kit-range", {"first": first, "last": last}),
                       said, "、" if book.lang == "ja" else ", ")

    out: list[tuple[str, dict[str, Any]]] = [("kit-intro", {"game": kit.game, "players": kit.players,
                                                              "tags": kit.tags()})]
    out.append(("kit-own", {"count": len(kit.own), "pieces": spoken(kit.own)}))
    if kit.table:
        out.append(("kit-table", {"count": len(kit.table), "pieces": spoken(kit.table)}))
    if lacking is None:
        return out
    if not lacking:
        return out + [("kit-complete", {"tags": kit.tags()})]
    out.append(("kit-lacking", {"count": len(lacking)}))
    order = {piece: k for k, piece in enumerate(kit.own + kit.table)}  # a player's own set first
    for piece, (have, want) in sorted(lacking.items(), key=lambda kv: order.get(kv[0], len(order)))[:SPOKEN_LACKING]:
        out.append(("kit-piece-lacking", {"piece": spoken([piece]), "have": have, "want": want}))
    if len(lacking) > SPOKEN_LACKING:
        out.append(("kit-more-lacking", {"count": len(lacking) - SPOKEN_LACKING}))
    return out


def _spoken(pieces: Iterable[str], span: Callable[[Any, Any], str], names: Mapping[str, str] | None = None,
            sep: str = ", ") -> str:
    """Piece names as a voice reads them, numbered runs said once: `trident:spade-1`…`-8` as
    "spade 1 to 8", `cmd:ok` as "OK", `seat:1`…`seat:5` as "seat 1 to 5".  A game's piece
    with a name in `names` is said by that name (a run: its first and last names), never
    by its English id ("token bat" at a Japanese table); named pieces follow the rest."""
    names = names or {}
    pieces = list(pieces)
    named = [p for p in pieces if p in names]
    parts = [_named_runs(named, names, span, sep)] if named else []
    rest = _id_runs([p for p in pieces if p not in set(named)], span, sep)
    return sep.join(part for part in ([rest] if rest else []) + parts if part)


def _named_runs(pieces: Sequence[str], names: Mapping[str, str], span: Callable[[Any, Any], str], sep: str) -> str:
    """Pieces said by their names; a run of one card's numbered copies as its first and last."""
    runs: dict[str, list[tuple[int, str]]] = {}
    for piece in pieces:
        m = re.fullmatch(r"(.*?)-?(\d+)", piece)
        runs.setdefault(m.group(1) if m else piece, []).append((int(m.group(2)) if m else 0, piece))
    parts = []
    for run in runs.values():
        run.sort()
        numbers = [n for n, _ in run]
        first, last = names[run[0][1]], names[run[-1][1]]
        consecutive = len(run) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1))
        if len({names[p] for _, p in run}) == 1 and len(run) > 1:  # copies of one card: its name, numbered
            parts += [f"{first} {span(numbers[0], numbers[-1])}"] if consecutive else [f"{first} {n}" for n in numbers]
        elif consecutive:
            parts.append(span(first, last))
        else:
            parts += [names[p] for _, p in run]
    return sep.join(parts)


def _id_runs(pieces: Iterable[str], span: Callable[[Any, Any], str], sep: str) -> str:
    runs: dict[str, list[int]] = {}  # spoken stem -> numbers, in first-seen order
    for piece in pieces:
        set_name, _, name = piece.partition(":")
        if set_name == "cmd":
            runs.setdefault(name.upper(), [])
            continue
        m = re.fullmatch(r"(.*?)-?(\d+)", name)
        stem = "seat" if set_name == "seat" else (m.group(1) if m else name).replace("-", " ")
        runs.setdefault(stem, []).extend([int(m.group(2))] if m else [])
    parts = []
    for stem, numbers in runs.items():
        numbers.sort()
        if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
            parts.append(f"{stem} {span(numbers[0], numbers[-1])}".strip())
        elif numbers:
            parts += [f"{stem} {n}".strip() for n in numbers]
        else:
            parts.append(stem)
    return sep.join(parts)


def deck_cards(card_set: str, kind: str, deck: Iterable[str]) -> list[str]:
    """The cards of a deal-by-scanning deck: `witch:role-human-1`, `-2`, … one per name listed."""
    seen: dict[str, int] = {}
    out = []
    for name in deck:
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{card_set}:{kind}-{name}-{seen[name]}")
    return out
