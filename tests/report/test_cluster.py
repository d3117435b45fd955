"""`kikimimi report --cluster ADDRESS`: the games on a Ray cluster (the optional
`cluster` extra), here a local one this test starts and stops; the page is the
one a single local worker writes, byte for byte."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.extra("cluster"), pytest.mark.extra("report")]  # skipped without them; CI fails

KIKIMIMI = str(Path(sys.executable).with_name("kikimimi"))
ASK = ["report", "trident", "--games", "5", "--players", "3,4", "--seed", "7", "-o", "report.html"]


def _page(folder: Path, *more: str) -> bytes:
    folder.mkdir()
    run = subprocess.run([KIKIMIMI, *ASK, *more], cwd=folder, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-1500:]
    return (folder / "report.html").read_bytes()


def test_a_ray_cluster_writes_the_page_one_worker_writes(tmp_path: Path) -> None:
    import ray

    local = _page(tmp_path / "local")
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        on_ray = _page(tmp_path / "ray", "--cluster", context.address_info["gcs_address"])
    finally:
        ray.shutdown()
    assert len(local) > 10_000 and on_ray == local


def test_no_cluster_at_the_address_is_one_line(tmp_path: Path) -> None:
    run = subprocess.run([KIKIMIMI, *ASK, "--cluster", "127.0.0.1:1"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and lines[-1].startswith("kikimimi: --cluster 127.0.0.1:1")
    assert "Traceback" not in run.stderr
