"""The Trident at the referee's console and a spectator's: what its snapshot keys mean.

The console shows every game's phase, hands and turn; this view adds the
Trident's own words (a seat's declaration and its owed draw, who chooses the
suit, the pending attack, the field's top piece, the basket), and a
spectator's suit, attack and declarations, followed from the public events.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.game import TableView, by_seat, pieces, short


class TridentView(TableView):
    shown = frozenset({"first", "suit", "pending", "field", "basket", "declared", "owed", "agreed", "chooser"})

    def seat_marks(self, game: Mapping[str, Any], seat: int) -> list[str]:
        declared, owed = by_seat(game.get("declared")).get(seat), by_seat(game.get("owed")).get(seat)
        marks = []
        if declared:
            marks.append(f"declared {declared if isinstance(declared, str) else 'trident'}")
        if owed:
            marks.append(f"owes {owed}")
        if seat in set(game.get("agreed") or []):
            marks.append("agreed")
        if game.get("chooser") == seat:
            marks.append("choosing the suit")
        return marks

    def lines(self, game: Mapping[str, Any], noun: str) -> list[str]:
        out = []
        if "suit" in game:
            out.append(f"suit: {game['suit'] or 'none'}")
        if "pending" in game:
            out.append(f"pending attack: {game['pending'] or 'none'}")
        if "field" in game:
            items = list(game["field"] or [])
            top = f", top {short(items[-1])}" if items else ""
            out.append(f"field: {pieces(len(items), noun)}{top}")
        if "basket" in game:
            basket = game["basket"]
            count = len(basket) if isinstance(basket, (list, tuple)) else basket
            out.append(f"basket: {pieces(count, noun) if isinstance(count, int) else count}")
        return out

    def public(self, events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The suit, the attack pending and the declarations, as the speaker said them."""
        out: dict[str, Any] = {"declared": {}}
        for ev in events:
            kind = ev.get("type")
            if kind == "suit":
                out["suit"] = ev.get("suit")
            elif kind == "pending":
                out["pending"] = ev.get("total")
            elif kind == "declare":
                out["declared"][int(ev.get("seat", 0))] = str(ev.get("what"))
        return out


VIEW = TridentView()
