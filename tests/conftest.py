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


#: The tests that change the machine itself (they create users, install a service's tables
#: outside /tmp, run systemd's verifier on its units).  Under pytest-xdist (`scripts/test` on a
#: machine of two or more cores) they run on one worker, one after another as without it.
#: Every other test keeps to its own folder, ports, database schema and virtual sound cards
#: (tests/support/virtual_sound.py: an ALSA configuration or a PulseAudio server of its own),
#: so it may run beside any other (README.md, "Two commands": whole runs under two workers pass).
ONE_AT_A_TIME = frozenset({"tests/table/test_a_new_reader_kind.py", "tests/table/test_box_of_parts.py",
                           "tests/table/test_service.py", "tests/table/test_service_owner.py"})


def scope_of(nodeid: str) -> str:
    """The unit of tests one worker takes whole: the machine-changing files together, else a file."""
    path = nodeid.split("::", 1)[0]
    return "the-machine" if path in ONE_AT_A_TIME or path.startswith("tests/box/") else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist's own `--dist loadgroup` does not group under this pytest (it renames node ids,
    which pytest 9 computes), so the grouping is a scope scheduler's, by `scope_of`: a file's
    tests stay together too (their module fixtures are made once)."""
    from xdist.scheduler import LoadScopeScheduling

    class RealTimeTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

    return RealTimeTogether(config, log)
