"""A physical table's kit for tests: every player's own look-alike set and the
table's pieces, each copy with a uid of its own, and scripts played with them."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from kikimimi.contract.kit import kit_for


class KitTable:
    """The tag map of one kit (written to `folder`), and scripts turned into uid scans."""

    def __init__(self, game: str, players: int, options: dict[str, Any], folder: Path):
        self.kit = kit_for(game, players, options)
        self.uid: dict[tuple[int | None, str], str] = {}
        for n, piece in enumerate(self.kit.table):
            self.uid[(None, piece)] = f"05{n:012x}"
        for seat in range(1, players + 1):
            for n, piece in enumerate(self.kit.own):
                self.uid[(seat, piece)] = f"04{seat:02x}{n:010x}"
        self.path = folder / f"{game}-kit.toml"
        lines = ["[tags]"] + [f'"{uid}" = "{piece}"' for (_, piece), uid in self.uid.items()]
        self.path.write_text("\n".join(lines) + "\n")

    def copy_of(self, seat: int | None, tag: str) -> str:
        """The uid a player scans for `tag`: their own copy if the kit gives them one."""
        if seat is not None and (seat, tag) in self.uid:
            return self.uid[(seat, tag)]
        if (None, tag) in self.uid:
            return self.uid[(None, tag)]
        if tag.startswith("seat:"):  # a seat token on the field: that seat's own copy
            return self.uid[(int(tag[5:]), tag)]
        raise KeyError(f"{tag} is in no set of the kit")

    def physical(self, script: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every reader line as the uid of the copy a player would hold."""
        out = [{**script[0], "tagmap": str(self.path)}]
        for line in script[1:]:
            if "tag" in line and line.get("reader") in ("hand", "field"):
                line = dict(line)
                line["uid"] = self.copy_of(line.get("seat"), line.pop("tag"))
            out.append(line)
        return out
