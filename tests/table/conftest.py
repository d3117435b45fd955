"""The voice tests' helpers (virtual devices, the player child, expected clips) serve here too."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "voice"))


@pytest.fixture(scope="session")
def clip_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("clips")
