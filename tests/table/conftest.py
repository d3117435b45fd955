"""The voice tests' helpers (virtual devices, the player child, expected clips) serve here too."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "voice"))


@pytest.fixture(scope="session")
def clip_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("clips")


@pytest.fixture(scope="session")
def xdg_cache(tmp_path_factory) -> Path:
    """One XDG_CACHE_HOME for every served table here: serve renders its game's phrases once."""
    return tmp_path_factory.mktemp("xdg")
