import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def toyroles():
    """The toy hidden-role game, registered for this process."""
    from kikimimi.contract.registry import register
    from toyroles import GAME

    register(GAME)
    return GAME.play
