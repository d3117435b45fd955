"""Emulator fixtures: each emulator lives behind a symlink in the test's tmp dir."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from support.pn532_emulator import PN532Emulator
from support.rdm6300_emulator import Rdm6300Emulator


@pytest.fixture
def pn532s(tmp_path) -> Iterator[Callable[..., PN532Emulator]]:
    made: list[PN532Emulator] = []

    def make(name: str = "pn532", **kw) -> PN532Emulator:
        emu = PN532Emulator(str(tmp_path / name), **kw).start()
        made.append(emu)
        return emu
    yield make
    for emu in made:
        emu.stop()


@pytest.fixture
def rdm6300s(tmp_path) -> Iterator[Callable[..., Rdm6300Emulator]]:
    made: list[Rdm6300Emulator] = []

    def make(name: str = "rdm6300", **kw) -> Rdm6300Emulator:
        emu = Rdm6300Emulator(str(tmp_path / name), **kw).start()
        made.append(emu)
        return emu
    yield make
    for emu in made:
        emu.stop()
