"""Spoken lines of the records (titles, settlements, seating, contest standings)
in a table language.

Japanese lines use each player's kana (a kanji name has more than one
reading; the kana says which), or the display name for a player registered
without one; English lines use the display name.  Titles follow the
player's form.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kikimimi.contract.phrases import Phrasebook
from kikimimi.records.ladder import Rank, peerage_key, rank_key

if TYPE_CHECKING:
    from kikimimi.records.club import Player, Settlement
    from kikimimi.records.contest import Standing


class Speaker:
    def __init__(self, lang: str):
        self.lang = lang
        self.book = Phrasebook(lang, ("core", "records"))

    def render(self, key: str, **params: Any) -> str:
        return self.book.render(key, params)

    def spoken_name(self, player: Player) -> str:
        return player.kana if self.lang == "ja" and player.kana else player.name

    def title(self, player: Player) -> str:
        """"Name, Baron, Bishop." — the player's titles in their form."""
        rank = f"rank:{rank_key(player.rank, player.form)}"
        if player.peerage:
            peer = f"peerage:{peerage_key(player.peerage, player.form)}"
            return self.render("player-peer-title", name=self.spoken_name(player), peerage=peer, rank=rank)
        return self.render("player-title", name=self.spoken_name(player), rank=rank)

    def settlement(self, player: Player, s: Settlement) -> list[str]:
        """What to announce for one settlement (nothing when nothing changed)."""
        name = self.spoken_name(player)
        lines = []
        if s.rank_after != s.rank_before:
            key = "settled-up" if s.rank_after > s.rank_before else "settled-down"
            lines.append(self.render(key, name=name, rank=f"rank:{rank_key(Rank(s.rank_after), player.form)}"))
        if s.peerage_after != s.peerage_before:
            peer = f"peerage:{peerage_key(s.peerage_after, player.form)}"
            lines.append(self.render("settled-peerage", name=name, peerage=peer))
        return lines

    def standings(self, contest: str, table: Sequence[Standing]) -> str:
        """The contest's standings as one line to announce."""
        if not any(s.games for s in table):
            return self.render("contest-no-games", contest=contest)
        entries = [
            self.render("contest-standing", place=s.place, name=self.spoken_name(s.player), wins=s.wins)
            for s in table
        ]
        return self.render("contest-standings", contest=contest, order=entries)
