import os
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


def pytest_configure(config):
    config.addinivalue_line("markers", "extra(name): the test needs that optional extra (kikimimi/contract/extras.py); "
                            "it skips without it, with the reason, and fails under CI=true (CI installs every extra)")


def need_extra(name: str) -> None:
    """Skip (locally) or fail (CI=true) when the extra `name` is not installed."""
    import importlib.util

    from kikimimi.contract.extras import EXTRAS

    try:
        found = importlib.util.find_spec(EXTRAS[name]) is not None
    except ImportError:
        found = False
    if found:
        return
    reason = f"needs the '{name}' extra ({EXTRAS[name]}): KIKIMIMI_EXTRAS={name} scripts/test"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI installs every extra: {reason}")
    pytest.skip(reason)


def pytest_runtest_setup(item):
    for mark in item.iter_markers("extra"):
        need_extra(mark.args[0])
