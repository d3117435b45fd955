"""The kit enrolled by ear, at the end of the spoken set-up: one tag map per game of the evening.

Each player enrols their own look-alike set on their own hand reader, told
in their own earphone ("scan seat token 2", then "seat token 2: enrolled"),
so nobody needs a screen and nobody else's pieces get mixed in.  The table's
pieces are enrolled last, on the field reader, told on the speaker.

An evening of several games shares one set of pieces: a player's seat
tokens and command tags are the same physical tags in every game, so each
piece is scanned once and goes into every map of a game whose kit holds it.
The maps are saved after every piece and are the only state: run the
set-up again and it asks only for what is still missing, in the same order
(seat 1's set, seat 2's, ..., then the table's), so an interrupted
enrolment goes on where it stopped.

Scans are judged by `kikimimi tags enroll`'s own rule (`kikimimi.contract.tagmap.enrol_piece`): a tag
already enrolled, or one whose written name is another piece, is refused
aloud and the same piece asked again.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kikimimi.contract.kit import Kit
from kikimimi.contract.tagmap import NextScan, Scan, enrol_piece, load_tagmap, say_name, write_tagmap

#: What `enrol_piece` tells, as the set-up catalogue's phrase keys.
KEYS = {"done": "enrol-done", "done-uid": "enrol-done", "again": "enrol-again", "taken": "enrol-taken",
        "names-other": "enrol-names-other"}


class EnrolIO(Protocol):
    def say(self, card: str, key: str, /, **params: Any) -> None:
        """Speak a phrase into one sound card and return when it has been heard."""

    def scans_of(self, reader: str) -> NextScan:
        """The scans of one reader from now on: (uid, name written on the tag, detail) or None
        when none came within the time given."""


@dataclass(frozen=True)
class Step:
    piece: str
    copies: int  # how many tagged copies the maps hold once this step is done


class EveningKit:
    """The pieces of every game of an evening and the tag map file of each game."""

    def __init__(self, kits: Sequence[Kit], maps: Mapping[str, Path]) -> None:
        self.kits = list(kits)
        self.maps = dict(maps)  # game -> its tag map file
        self.players = max(k.players for k in kits)
        own: list[str] = []
        table: list[str] = []
        for kit in kits:
            own += [p for p in kit.own if p not in own]
            table += [p for p in kit.table if p not in table]
        self.own, self.table = own, table
        self.tags: dict[str, str] = {}
        for path in self.maps.values():  # a map that is not one: TagMapError, one line
            if path.exists():
                self.tags.update(load_tagmap(path))

    def seat_steps(self, seat: int) -> list[Step]:
        """A player's own set: seat k's copy of a piece is its k-th copy (seats enrol in order)."""
        return [Step(p, seat) for p in self.own]

    def table_steps(self) -> list[Step]:
        return [Step(p, (self.players if p in self.own else 0) + 1) for p in self.table]

    def todo(self, steps: Sequence[Step]) -> list[Step]:
        return [s for s in steps if self.count(s.piece) < s.copies]

    def count(self, piece: str) -> int:
        return sum(1 for p in self.tags.values() if p == piece)

    def save(self, tags: Mapping[str, str]) -> None:
        """Every game's map gets the tags of the pieces of its own kit (each written whole)."""
        for kit in self.kits:
            wanted = kit.copies()
            write_tagmap(self.maps[kit.game], {uid: p for uid, p in tags.items() if p in wanted})

    def total(self) -> int:
        """Tags in all, once every piece is enrolled."""
        return self.players * len(self.own) + len(self.table)


#: A deck's copies of one card, `witch:role-human-2` (kikimimi.contract.kit.deck_cards), named from `role:human`.
DECK_CARD = re.compile(r"[a-z0-9]+:(?P<kind>[a-z0-9]+)-(?P<name>[a-z0-9][a-z0-9-]*)-(?P<copy>[0-9]+)")
#: A token standing for one of its game's cards, `oni:token-bat`, named from `oni:card-bat`.
CARD_TOKEN = re.compile(r"(?P<set>[a-z0-9]+):token-(?P<name>[a-z0-9][a-z0-9-]*)")


def piece_names(games: Sequence[str], lang: str, pieces: Sequence[str] = ()) -> dict[str, str]:
    """How each piece is said: the set-up catalogue names seat tokens and command tags,
    each game's catalogue its own pieces.  Of `pieces`, a deck's copies of a card and a
    token for a card, which no catalogue lists one by one, are named from the card's own
    name in that language ("人間のカード2枚目", "金属バットの宣言トークン"), not read out
    as their English ids."""
    from kikimimi.contract.phrases import Phrasebook, load_catalogue

    names: dict[str, str] = {}
    for catalogue in ("core", "setup", *games):
        try:
            names.update(load_catalogue(catalogue, lang)[1])
        except Exception:  # a game with no catalogue in this language: its pieces are read out
            pass
    book = Phrasebook(lang, ("core", "setup")) if pieces else None
    for piece in pieces:
        if piece in names or book is None:
            continue
        if (m := DECK_CARD.fullmatch(piece)) and (card := names.get(f"{m['kind']}:{m['name']}")):
            names[piece] = book.render("card-copy", {"name": card, "copy": int(m["copy"])})
        elif (m := CARD_TOKEN.fullmatch(piece)) and (card := names.get(f"{m['set']}:card-{m['name']}")):
            names[piece] = book.render("card-token", {"name": card})
    return names


def texts_to_prepare(book: Any, kit: EveningKit, names: Mapping[str, str]) -> list[str]:
    """Every line the enrolment says when nothing goes wrong, to render before it starts: the
    pieces still to enrol only (a set-up run again, with most of the kit enrolled, asks for a
    few; rendering every piece's lines first held it up by seconds for nothing)."""
    out = [book.render("enrol-start", {}), book.render("enrol-all-done", {"tags": kit.total()})]
    for key, count in (("enrol-yours", len(kit.own)), ("enrol-yours-done", len(kit.own)),
                       ("enrol-table", len(kit.table)), ("enrol-table-done", len(kit.table))):
        out.append(book.render(key, {"count": count}))
    groups = [kit.seat_steps(seat) for seat in range(1, kit.players + 1)] + [kit.table_steps()]
    pending: dict[str, None] = {}
    for steps in groups:
        todo = kit.todo(steps)
        pending.update(dict.fromkeys(s.piece for s in todo))
        if len(todo) < len(steps):
            out.append(book.render("enrol-skip", {"count": len(steps) - len(todo)}))
    for piece in pending:
        name = say_name(piece, names)
        out += [book.render("enrol-scan", {"name": name}), book.render("enrol-done", {"name": name})]
    return list(dict.fromkeys(out))


def enrol(io: EnrolIO, kit: EveningKit, seats: Mapping[int, tuple[str, str]], speaker: str,
          field_reader: str | None, names: Mapping[str, str], timeout_s: float, remind_s: float | None = None) -> bool:
    """Each seat's own set on its own reader, then the table's on the field reader; False
    (said where it stopped) when a piece did not come within `timeout_s`.  A piece not
    scanned within `remind_s` is asked for again (a line missed is heard again)."""
    remind = remind_s if remind_s is not None else timeout_s
    for seat, (card, reader) in sorted(seats.items()):
        if not _enrol_steps(io, kit, card, reader, kit.seat_steps(seat), names, timeout_s, "enrol-yours", remind):
            return False
    steps = kit.table_steps()
    if kit.todo(steps):
        if field_reader is None:
            io.say(speaker, "enrol-no-field")
            return False
        if not _enrol_steps(io, kit, speaker, field_reader, steps, names, timeout_s, "enrol-table", remind):
            return False
    io.say(speaker, "enrol-all-done", tags=len(kit.tags))
    return True


def _enrol_steps(io: EnrolIO, kit: EveningKit, card: str, reader: str, steps: Sequence[Step],
                 names: Mapping[str, str], timeout_s: float, intro: str, remind_s: float) -> bool:
    todo = kit.todo(steps)
    io.say(card, intro, count=len(steps))
    if len(todo) < len(steps):
        io.say(card, "enrol-skip", count=len(steps) - len(todo))
    asked = [""]  # the name of the piece asked for now
    scans = _reminding(io.scans_of(reader), lambda: io.say(card, "enrol-scan", name=asked[0]), remind_s)

    def tell(key: str, **params: Any) -> None:
        io.say(card, KEYS[key], **{k: v for k, v in params.items() if k != "why"})
        if key not in ("done", "done-uid"):  # refused: the same piece asked again, by name
            io.say(card, "enrol-scan", name=asked[0])

    for step in todo:
        asked[0] = say_name(step.piece, names)
        io.say(card, "enrol-scan", name=asked[0])
        if not enrol_piece(step.piece, scans, kit.tags, kit.save, tell, names, timeout_s):
            io.say(card, "enrol-timeout", seconds=int(timeout_s))
            return False
    io.say(card, "enrol-yours-done" if intro == "enrol-yours" else "enrol-table-done", count=len(steps))
    return True


def _reminding(scans: NextScan, again: Callable[[], None], every_s: float) -> NextScan:
    """`scans`, saying the question `again` each `every_s` seconds with no scan."""
    def next_scan(left: float) -> Scan | None:
        deadline = time.monotonic() + left
        while (left := deadline - time.monotonic()) > 0:
            got = scans(min(left, every_s))
            if got is not None:
                return got
            if deadline - time.monotonic() > 0:
                again()
        return None
    return next_scan
