"""Recorded voice packs: a folder of WAV files that replaces synthesis for the phrases it has.

    deal.wav                           the phrase `deal`, whatever its parameters
    turn@seat=2.wav                    `turn` when its parameter seat is 2
    hand-piece@piece=trident_heart-3.wav
    rank-pieces@place=1@seat=2.wav     every listed parameter must match

A value is written as the game passes it, with ":" as "_" (file names on
every system) and a list as its items joined by "+".  When several files fit
a phrase the one naming the most parameters wins; a phrase with no file is
still synthesised, so a pack may be partial (the lab's original tables used
recorded voice for everything; a club may record only its announcements).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .clips import read_wav


def value_token(value: Any) -> str:
    """How a parameter value is written in a pack file name."""
    if isinstance(value, (list, tuple)):
        return "+".join(value_token(v) for v in value)
    if isinstance(value, bool):
        return str(value).lower()
    return str(value).replace(":", "_").replace("/", "_")


def parse_name(stem: str) -> tuple[str, dict[str, str]] | None:
    """("turn", {"seat": "2"}) for "turn@seat=2"; None when a part is not name=value."""
    key, *parts = stem.split("@")
    params = {}
    for part in parts:
        name, eq, value = part.partition("=")
        if not eq or not name:
            return None
        params[name] = value
    return (key, params) if key else None


class VoicePack:
    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder else None
        self.files: dict[str, Path] = {}  # file stem -> path
        self.bad: list[str] = []  # file names that follow no pattern
        self._by_key: dict[str, list[tuple[dict[str, str], str]]] = {}
        if self.folder is not None:
            for path in sorted(self.folder.glob("*.wav")):
                parsed = parse_name(path.stem)
                if parsed is None:
                    self.bad.append(path.name)
                    continue
                self.files[path.stem] = path
                self._by_key.setdefault(parsed[0], []).append((parsed[1], path.stem))
            for entries in self._by_key.values():
                entries.sort(key=lambda e: -len(e[0]))  # most specific first
        self._loaded: dict[str, tuple[np.ndarray, int]] = {}

    @property
    def keys(self) -> set[str]:
        """Phrase keys with at least one recording."""
        return set(self._by_key)

    def entries(self) -> Iterable[tuple[str, dict[str, str], str]]:
        """(phrase key, parameters named, file stem) of every recording."""
        for key, entries in self._by_key.items():
            for params, stem in entries:
                yield key, params, stem

    def match(self, key: str, params: Mapping[str, Any] | None = None) -> str | None:
        """The file stem recorded for this phrase with these parameters, if any."""
        params = params or {}
        for named, stem in self._by_key.get(key, ()):
            if all(name in params and value_token(params[name]) == value for name, value in named.items()):
                return stem
        return None

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def load(self, stem: str) -> tuple[np.ndarray, int]:
        """(samples, rate) of a recording; raises ClipError for a bad file."""
        if stem not in self._loaded:
            self._loaded[stem] = read_wav(self.files[stem])
        return self._loaded[stem]
