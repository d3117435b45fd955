"""The README on fresh Debian 12 and 13 roots, and the wheel on arm64 ones (tests/box/fresh_roots.py).

Minutes of work and root's privileges: run by `.ci/run` on its own, after the suite
(`KIKIMIMI_FRESH_ROOTS=1 .venv/bin/python -m pytest tests/box`), never by `scripts/test`.
The three jobs (each x86 root; both arm64 roots in one, which share the wheels fetched
for them) run side by side, at most $KIKIMIMI_FRESH_ROOTS_JOBS at once (default 3: the
arm64 job waits on qemu more than it computes); each test waits for its own.  docs/box.md has the figures.
"""
from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CHECKS = [("play", "bookworm"), ("play", "trixie"), ("arm64", "bookworm trixie")]

pytestmark = pytest.mark.skipif(os.environ.get("KIKIMIMI_FRESH_ROOTS") != "1",
                                reason="fresh roots take minutes and root: .ci/run runs them (KIKIMIMI_FRESH_ROOTS=1)")


def _run(check: str, suites: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(HERE / "fresh_roots.py"), check, *suites.split()],
                          capture_output=True, text=True, timeout=3600)


@pytest.fixture(scope="module")
def started():
    """Every check started at once (bounded), so the slow roots overlap."""
    if os.geteuid() != 0:
        pytest.fail("the fresh roots need root (mmdebstrap, chroot)")
    deps = subprocess.run([sys.executable, str(HERE / "fresh_roots.py"), "deps"], capture_output=True, text=True)
    assert deps.returncode == 0, deps.stderr
    pool = ThreadPoolExecutor(max_workers=int(os.environ.get("KIKIMIMI_FRESH_ROOTS_JOBS", "3")))
    jobs: dict[tuple[str, str], Future[subprocess.CompletedProcess[str]]] = {
        key: pool.submit(_run, *key) for key in CHECKS}
    yield jobs
    pool.shutdown(wait=True)


@pytest.mark.timeout(5400)  # minutes of apt, pip and Open JTalk's build per root, not the suite's 300 s
@pytest.mark.parametrize("check, suites", CHECKS, ids=[f"{c}-{s.replace(' ', '-')}" for c, s in CHECKS])
def test_fresh_root(started, check, suites):
    proc = started[(check, suites)].result()
    sys.stderr.write(proc.stderr)  # the timings, shown with -s and in the CI log on failure
    assert proc.returncode == 0, proc.stderr[-6000:]
    for suite in suites.split():
        assert f"{check} {suite} (" in proc.stderr and ": ok in " in proc.stderr
