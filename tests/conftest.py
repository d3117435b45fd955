import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "core"))


@pytest.fixture
def toy():
    """The toy game, registered for this process."""
    from kikimimi.contract.registry import register
    from toygame import ToyGame

    register(ToyGame)
    return ToyGame
