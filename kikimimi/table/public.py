"""The public view of a game: what the speaker, a spectator and `replay --public` get.

Dropping private events is not enough.  The engine numbers *every* event
(`seq`) and stamps each with the script line that caused it (`in`), so in the
full log a gap in `seq` counts the private events between two public ones and
a jump in `in` counts the inputs nobody was shown: with hidden bribes, each
BRIBE tap is one private line, and the gaps gave every amount.  So the public
view numbers its own events: `seq` counts public events only, and `in` counts
only the inputs that caused something public (first such input = 1; a timer
stays null).  A timer set or cancelled is left out: it is heard when it fires,
and a timer set at a private scan would date that scan.  What is left is what a person at the table could have noted
anyway: what was said aloud, in order, and when.

The header a spectator is welcomed with loses the options that are a secret
(`secret_options` of the game: a role preference, a skill, the seed of the
table's lots, from which the deal could be recomputed).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kikimimi.contract.protocol import in_log_order, visible_to

#: The runtime's own bookkeeping: a timer set or cancelled is heard when it fires.
#: Shown, a timer set at a private scan would date that scan (闇に笑う魔女's silence).
BOOKKEEPING = frozenset({"timer-set", "timer-cancel"})
#: Options no spectator may read, whatever the game: the seed of the table's
#: lots (with the public times it recomputes every draw).
SECRET_OPTIONS = frozenset({"seed"})


class PublicView:
    """Public events numbered on their own, for one game at a time.

    Feed it a game's events in order, in as many batches as they come (a
    spectator stream); a game's first event (`seq` 1) starts the numbering
    over, as the next game at the table does."""

    def __init__(self) -> None:
        self.seq = 0
        self._inputs: dict[Any, int] = {}

    def reset(self) -> None:
        self.seq = 0
        self._inputs = {}

    def __call__(self, events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for ev in events:
            if ev.get("seq") == 1:
                self.reset()
            if not visible_to(ev, None) or ev.get("type") in BOOKKEEPING:
                continue
            shown = dict(in_log_order(ev))  # a copy, in the log's key order (an entry logged in place is not)
            if shown.get("type") == "undo":
                # An undo names the input it took back, which may be a hand scan.
                # The engine logs it for the referee only; this guard stays so that
                # one changed `private` is not enough to leak a hand.
                shown.pop("input", None)
                shown.pop("undone", None)
            self.seq += 1
            if "seq" in shown:
                shown["seq"] = self.seq
            line = shown.get("in")
            if line is not None:
                shown["in"] = self._inputs.setdefault(line, len(self._inputs) + 1)
            out.append(shown)
        return out


def public_view(log: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A whole log's public view (`replay --public`, a spectator's welcome)."""
    return PublicView()(log)


def public_header(header: Mapping[str, Any], secret_options: Iterable[str] = ()) -> dict[str, Any]:
    """A script header as a spectator may read it: without secret options, the
    tag map's path (a file of the referee's) or a bot game's seed."""
    hidden = SECRET_OPTIONS | frozenset(secret_options)
    out = {k: v for k, v in header.items() if k not in ("tagmap", "seed")}
    options = header.get("options")
    if isinstance(options, Mapping):
        out["options"] = {k: v for k, v in options.items() if k not in hidden}
    return out


def secret_options_of(game: str) -> frozenset[str]:
    """The options a game declares secret (`secret_options`), none if it is unknown."""
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        return declaration(game).secret_options
    except UnknownGame:
        return frozenset()
