"""How the speech engine must read words it would otherwise misread.

Catalogues keep the seeds' own words with kanji (園崎魅音, 罌, 古出梨花) for
the text on screen and in the log; a catalogue's `[readings]` table maps such
a word to kana, and only the text handed to the speech engine is rewritten.
Open JTalk's dictionary reads 罌 as nothing at all, 古出 as コデ and 河原 as
カワハラ; the rules say かめ, ふるで and かわら.  Readings are gathered from every
catalogue of a language (the runtime's and every registered game's), since a
word reads the same whatever the game.
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from importlib import resources

from kikimimi.contract.game_files import all_phrase_files


def load_readings(lang: str) -> dict[str, str]:
    """The merged `[readings]` of every packaged catalogue in `lang` (bad files are skipped:
    the catalogue loader reports them)."""
    out: dict[str, str] = {}
    root = resources.files("kikimimi_voices")
    runtime = [folder.joinpath(f"{lang}.toml") for folder in sorted(root.iterdir(), key=lambda p: p.name)
               if folder.is_dir()]
    for ref in [*runtime, *all_phrase_files(lang)]:
        if not ref.is_file():
            continue
        try:
            table = tomllib.loads(ref.read_text(encoding="utf-8")).get("readings", {})
        except tomllib.TOMLDecodeError:
            continue
        if isinstance(table, Mapping):
            out.update({k: v for k, v in table.items() if isinstance(k, str) and k and isinstance(v, str)})
    return out


class Readings:
    """Longest word first, so 園崎魅音 wins over a shorter 園崎 if both are listed."""

    def __init__(self, table: Mapping[str, str]):
        self.table = dict(table)
        words = sorted(self.table, key=len, reverse=True)
        # "ドロー4" must not rewrite the start of "ドロー44": a word ending in a digit
        # matches only where no digit follows; "-" is a minus sign only before one.
        alternatives = [re.escape(w) + ("(?![0-9０-９])" if w[-1].isdigit() else
                                        "(?=[0-9０-９])" if w.endswith("-") else "") for w in words]
        self._pattern = re.compile("|".join(alternatives)) if words else None

    def __call__(self, text: str) -> str:
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self.table[m.group(0)], text)
