"""The spoken set-up: which earphone, which reader and which seat belong together.

Nobody has to read a device list.  Each sound card in turn is asked, in its
own voice, to be answered by a scan: "if you hear this from the speaker, scan
on the reader beside the speaker", then "if you hear this in your earphone,
scan on the reader in front of you".  Whoever hears a card scans, so the
reader that answers is bound to that card.  Then, on the speaker, seat 1,
seat 2, … (clockwise) scan in turn, so seat numbers follow the table and not
the order the machine found its devices in; each player hears "you are seat
N" in their own earphone, which proves the binding to the one who wears it.

Mistakes are said where they happened and asked again: nobody scans, two
readers answer one card, a reader answers for a second card.

The dialogue only talks to `SetupIO` (say a phrase into one card, gather the
readers that were scanned), so it runs the same against real devices and
against a scripted table in a unit test.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class SetupIO(Protocol):
    def say(self, card: str, key: str, /, **params: Any) -> None:
        """Speak a phrase into one sound card and return when it has been heard."""

    def say_all(self, targets: Sequence[str], key: str, /, **params: Any) -> None:
        """Speak a phrase into every listed card at once."""

    def scans(self) -> list[str]:
        """The readers scanned since the last call's phrase began, first first, each
        once; it waits for a first scan (up to a limit) and a moment for a second."""

    def clear(self) -> None:
        """Forget scans made so far (a late scan belongs to the question before)."""


class SetupFailed(Exception):
    """The set-up could not bind enough seats; its message is spoken and printed."""


@dataclass
class Binding:
    speaker: str | None = None  # the speaker's card
    field_reader: str | None = None
    pairs: dict[str, str] = field(default_factory=dict)  # earphone card -> hand reader
    seats: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (card, reader)
    left_out: list[str] = field(default_factory=list)  # cards nobody answered

    def reader_owner(self, reader: str) -> str | None:
        if reader == self.field_reader:
            return self.speaker
        return next((card for card, r in self.pairs.items() if r == reader), None)


def run_dialogue(io: SetupIO, cards: Sequence[str], players: int, attempts: int = 3) -> Binding:
    """Bind the speaker and field reader, then `players` earphones and hand readers, then seats."""
    b = Binding()
    _find_speaker(io, b, cards, attempts)
    rest = [c for c in cards if c != b.speaker]
    for card in rest:
        if len(b.pairs) == players:
            break
        if not _bind_earphone(io, b, card, attempts):
            b.left_out.append(card)
            io.say(b.speaker or card, "setup-card-left-out")
    if len(b.pairs) < players:
        _stop(io, b, cards, "setup-too-few", bound=len(b.pairs), players=players)
    for seat in range(1, players + 1):
        _seat(io, b, seat, attempts)
    return b


def _stop(io: SetupIO, b: Binding, cards: Sequence[str], key: str, **params: Any) -> None:
    io.say_all([b.speaker] if b.speaker else list(cards), key, **params)
    raise SetupFailed(key)


def _find_speaker(io: SetupIO, b: Binding, cards: Sequence[str], attempts: int) -> None:
    """Round after round over every card, until one is answered from beside the speaker."""
    for round_ in range(attempts):
        if round_:
            io.say_all(cards, "setup-no-speaker")
        for card in cards:
            got = _ask(io, card, "setup-speaker-prompt", b, attempts, taken=lambda r: False)
            if got is not None:
                b.speaker, b.field_reader = card, got
                return
    _stop(io, b, cards, "setup-too-few", bound=0, players=len(cards) - 1)


def _bind_earphone(io: SetupIO, b: Binding, card: str, attempts: int) -> bool:
    for _ in range(attempts):
        got = _ask(io, card, "setup-earphone-prompt", b, 1, taken=lambda r: b.reader_owner(r) is not None,
                   nobody="setup-nobody")
        if got is not None:
            b.pairs[card] = got
            return True
    return False


def _ask(io: SetupIO, card: str, prompt: str, b: Binding, attempts: int, taken: Any,
         nobody: str | None = None) -> str | None:
    """One question into one card: the one reader that answered it, or None.

    Two readers, or a reader already bound, are said into that card and asked
    again (up to `attempts` times); silence is said only when `nobody` is given
    (asking the speaker's question, silence from an earphone is the answer)."""
    for _ in range(attempts):
        io.clear()
        io.say(card, prompt)
        got = io.scans()
        if not got:
            if nobody:
                io.say(card, nobody)
            return None
        if len(got) > 1:
            io.say(card, "setup-two-scans")
            continue
        if taken(got[0]):
            io.say(card, "setup-reader-taken")
            continue
        io.say(card, "setup-bound")
        return got[0]
    return None


def _seat(io: SetupIO, b: Binding, seat: int, attempts: int) -> None:
    """On the speaker: seat N scans; the reader's earphone hears "you are seat N"."""
    speaker = b.speaker
    assert speaker is not None
    seated = {r for _, r in b.seats.values()}
    for _ in range(attempts * 2):
        io.clear()
        io.say(speaker, "setup-seat-prompt" if seat == 1 else "setup-seat-next", seat=seat)
        got = io.scans()
        if not got:
            io.say(speaker, "setup-nobody")
            continue
        if len(got) > 1:
            io.say(speaker, "setup-two-scans")
            continue
        reader = got[0]
        card = next((c for c, r in b.pairs.items() if r == reader), None)
        if card is None or reader in seated:
            io.say(speaker, "setup-already-seated")
            continue
        b.seats[seat] = (card, reader)
        io.say(card, "setup-you-are", seat=seat)
        return
    _stop(io, b, [speaker], "setup-too-few", bound=len(b.seats), players=len(b.pairs))
