"""Shared fixtures for the voice tests."""
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def clip_cache(tmp_path_factory) -> Path:
    """One clip cache for the whole session, so each text is synthesised once."""
    return tmp_path_factory.mktemp("clips")
