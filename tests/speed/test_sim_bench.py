"""bench/sim_throughput.py keeps running as the code under it changes (its
figures are read by people, not asserted here), and says how to get RLCard
when it is missing instead of failing."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "sim_throughput.py"
RUN = """
import runpy, sys
{block}
sys.argv = ["sim_throughput.py", "--games", "2", "--rounds", "1", "--blocks", "2"]
runpy.run_path({bench!r}, run_name="__main__")
"""


def _bench(block: str = "") -> str:
    done = subprocess.run([sys.executable, "-c", RUN.format(block=block, bench=str(BENCH))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_bench_prints_each_row_without_rlcard():
    out = _bench("sys.modules['rlcard'] = None  # as if not installed")
    for row in ("sim.play, human bots (default)", "sim.play, random bots", "kikimimi sim trident --games 2",
                "engine alone", "bots alone"):
        assert row in out and "games/s" in out.split(row, 1)[1].splitlines()[0]
    assert "RLCard not installed: pip install '.[bench]'" in out


@pytest.mark.extra("bench")  # skipped without it (CI=true: fails)
def test_the_bench_times_rlcard_uno_beside_the_trident_when_installed():
    out = _bench()
    assert "RLCard UNO, random agents (anchor)" in out and "rows' ratio Trident sim.play (human) / RLCard UNO" in out
    headline = out.split("ratio Trident / RLCard UNO: ", 1)[1].splitlines()[0]
    assert "x over all blocks" in headline and "of 2 blocks at or above 1.0x" in headline
