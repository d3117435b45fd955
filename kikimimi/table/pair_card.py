"""The owner's PAIR card: a web console pairing code, said into one seat's earphone.

Why: a box with no screen is run from a phone (docs/web.md), and a phone
pairs only with a one-time code made at the box.  `kikimimi web pair` prints
one, which needs a screen; the PAIR card (`cmd:pair`, one copy among the
table's pieces, kept by the owner) makes one by ear.  Scanned on a seat's hand
reader it makes a referee code and says it digit by digit, twice, into that
seat's earphone; the same seat scanning it again within `AGAIN_S` seconds
gets an owner code.  The codes are the store's own (`kikimimi.contract.pairing`:
used once, 5 minutes, kept only as HMACs in `<journal>.web/`), so the web
console redeems them like any other.

What keeps the code secret: its lines go to the sound outputs alone
(`Daemon.say_to_earphone_only`), never to a listener of the daemon (the API,
the consoles, the web pages, the event log) and never into the journal; the
speaker says nothing.  Each digit is its own line (its own clip, one of ten),
so no rendered clip or error line ever holds the whole code.  Only the
printed line (the box's log) says that a code was said, to which seat and
for which role, never its digits.  A scan is no input of the game: nothing is
journaled, so a replay makes no code and says none.

When: between games (the game is over) or while the clock is paused, so a
seat's pairing never changes what the game's motions show; during play the
card is refused in that seat's earphone, with nothing else changed.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.contract.kit import PAIR_TAG
from kikimimi.contract.pairing import CODE_LIFETIME, Store, StoreError, folder_for
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import TABLE, seat_audience
from kikimimi.contract.tagmap import normalise_uid
from kikimimi.table.engine import LogEvent

if TYPE_CHECKING:
    from kikimimi.table.daemon import Daemon

#: A second scan on the same seat this soon after a referee code gives an owner code
#: (the referee code's two readings take about twenty seconds to hear).
AGAIN_S = 40.0
#: The phrase catalogues of these lines (voices/setup: the box's own lines).
CATALOGUES = ("core", "setup")


class PairCard:
    """Attach to a daemon (`attach`); `web`: the table file has a `[web]` section."""

    def __init__(self, daemon: Daemon, *, web: bool, complain: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.daemon = daemon
        self.web = web
        self.complain = complain or _complain
        self.clock = clock
        self._last: tuple[int, float] | None = None  # (seat, when) of the last referee code

    def attach(self) -> "PairCard":
        self.daemon.pair_card = self.scanned
        return self

    def scanned(self, item: dict[str, Any]) -> list[LogEvent] | None:
        """A PAIR scan (answered here, nothing journaled), or None for any other input."""
        reader = item.get("reader")
        if reader not in ("hand", "field"):
            return None
        tag = item.get("tag")
        if tag is None and isinstance(item.get("uid"), str):
            tag = self.daemon.table.tagmap.get(normalise_uid(item["uid"]))
        if tag != PAIR_TAG:
            return None
        if item.get("removed"):
            return []  # lifting the card says nothing
        if reader == "field":  # the speaker may say where the card goes: nothing secret in that
            return self._tell(TABLE, "pair-on-hand-reader")
        seat = item.get("seat")
        table = self.daemon.table
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in table.hand_seats:
            return None  # the engine refuses it in its own words
        me = seat_audience(seat)
        if not self.web:
            line = Phrasebook("en", CATALOGUES).render("pair-no-web")  # printed in the box's log's language
            self.complain(f"PAIR card on seat {seat}: {line} ([web] with bind = [\"ADDRESS:8443\"]; docs/web.md)")
            return self._tell(me, "pair-no-web")
        if not (table.game.over or table.paused):
            return self._tell(me, "pair-not-now")
        now = self.clock()
        again = self._last is not None and self._last[0] == seat and now - self._last[1] <= AGAIN_S
        role = "owner" if again else "referee"
        try:
            code = Store(folder_for(Path(self.daemon.journal_path))).ensure().new_code(role)
        except (StoreError, OSError) as exc:
            self.complain(f"PAIR card on seat {seat}: no pairing code made: {exc}")
            return self._tell(me, "pair-unavailable")
        self._last = None if again else (seat, now)
        self.daemon.say_to_earphone_only(self._code_lines(me, role, code))
        minutes = int(CODE_LIFETIME // 60)
        self.complain(f"PAIR card: a {role} pairing code was said into seat {seat}'s earphone "
                      f"(once, {minutes} minutes; kikimimi web pair makes one at the box)")
        return []

    def _code_lines(self, to: str, role: str, code: str) -> list[LogEvent]:
        """The code's lines for one earphone: what it is, each digit, again each digit, then how
        to get the other role.  Each digit is one line, so no clip holds the code."""
        book = self._book()
        digits = [self._line(to, "pair-digit", book.render("pair-digit", {"digit": book.names[f"digit:{d}"]}))
                  for d in code]
        then = [self._line(to, "pair-owner-next", book.render("pair-owner-next"))] if role == "referee" else []
        return [self._line(to, f"pair-code-{role}", book.render(f"pair-code-{role}")), *digits,
                self._line(to, "pair-again", book.render("pair-again")), *digits, *then]

    def _tell(self, to: str, key: str) -> list[LogEvent]:
        """A line about the card (never a code) for that seat's earphone (or the speaker): every
        listener may see it, as a refused piece's line."""
        ev = self._line(to, key, self._book().render(key))
        self.daemon.announce([ev])
        return [ev]

    def _line(self, to: str, key: str, text: str) -> LogEvent:
        return {"seq": None, "t": self.daemon.table.t, "type": "say", "in": None, "to": to, "key": key,
                "text": text, "evening": True}

    def _book(self) -> Phrasebook:
        return Phrasebook(self.daemon.header.lang, CATALOGUES)


def texts(lang: str) -> list[str]:
    """Every line the card may say in `lang`, for the outputs to render before they are needed
    (the code's digits are ten short clips; no clip is ever a whole code)."""
    book = Phrasebook(lang, CATALOGUES)
    keys = ("pair-code-referee", "pair-code-owner", "pair-again", "pair-owner-next", "pair-not-now",
            "pair-no-web", "pair-on-hand-reader", "pair-unavailable")
    return [book.render(k) for k in keys] + [book.render("pair-digit", {"digit": book.names[f"digit:{d}"]})
                                             for d in range(10)]


def _complain(message: str) -> None:
    print(f"kikimimi: {message}", file=sys.stderr, flush=True)
