"""`--workers N`: games played in worker processes give the very same page."""
from __future__ import annotations

from pathlib import Path

import pytest

from kikimimi.cli import main
from kikimimi.report.run import workers_wanted


def test_two_workers_write_the_bytes_one_writes(tmp_path: Path) -> None:
    pages = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.html"
        args = ["report", "witch", "--games", "5", "--players", "6,8", "--variant", "seed=0,1",
                "--seed", "11", "--workers", workers, "-o", str(tmp_path / "r.html")]
        assert main(args) == 0
        (tmp_path / "r.html").rename(out)
        pages.append(out.read_bytes())
    assert len(pages[0]) > 10_000 and pages[0] == pages[1]


def test_workers_auto_and_bounds() -> None:
    assert workers_wanted("auto") >= 1
    assert workers_wanted("3") == 3
    for bad in ("0", "-1", "x", "257"):
        with pytest.raises(ValueError, match="--workers"):
            workers_wanted(bad)


def test_sim_games_in_two_workers_print_what_one_prints(capsys: pytest.CaptureFixture[str]) -> None:
    texts = []
    for workers in ("1", "2"):
        assert main(["sim", "intrigue", "--games", "4", "--versus", "greedy,random", "--workers", workers]) == 0
        texts.append(capsys.readouterr().out)
    assert "significant after Holm" in texts[0] and texts[0] == texts[1]
