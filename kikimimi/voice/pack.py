"""Recorded voice packs: a folder of `<phrase key>.wav` that replaces synthesis.

A club that records its own narrator drops the files in one folder; any
phrase without a recording is still synthesised, so a pack may be partial.
A recording is the same for every parameter value, so packs suit fixed
phrases (announcements, prompts) rather than ones naming a piece.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .clips import read_wav


class VoicePack:
    def __init__(self, folder: Path | None):
        self.folder = Path(folder) if folder else None
        self.keys: dict[str, Path] = {}
        if self.folder is not None:
            for path in sorted(self.folder.glob("*.wav")):
                self.keys[path.stem] = path
        self._loaded: dict[str, tuple[np.ndarray, int]] = {}

    def __contains__(self, key: object) -> bool:
        return key in self.keys

    def load(self, key: str) -> tuple[np.ndarray, int]:
        """(samples, rate) of the recording for `key`; raises ClipError for a bad file."""
        if key not in self._loaded:
            self._loaded[key] = read_wav(self.keys[key])
        return self._loaded[key]
