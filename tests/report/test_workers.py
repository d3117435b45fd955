"""`--workers N`: games played in worker processes give the very same page."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kikimimi.cli import main
from kikimimi.design.report.run import run_all, workers_wanted

pytestmark = pytest.mark.extra("report")  # the page's pictures are drawn with matplotlib


def test_two_workers_write_the_bytes_one_writes(tmp_path: Path) -> None:
    pages = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.html"
        args = ["report", "witch", "--games", "5", "--players", "6,8", "--variant", "seed=0,1",
                "--seed", "11", "--workers", workers, "-o", str(tmp_path / "r.html")]
        assert main(args) == 0
        (tmp_path / "r.html").rename(out)
        pages.append(out.read_bytes() + (tmp_path / "r.json").read_bytes() + (tmp_path / "r.csv").read_bytes())
    assert len(pages[0]) > 10_000 and pages[0] == pages[1]
    # every table of the page beside it, as JSON and CSV
    tables = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tables"]
    assert any(t["caption"].startswith("Balance table") and t["rows"] for t in tables)
    assert "Balance table: every arm at every player count" in (tmp_path / "r.csv").read_text(encoding="utf-8")
    assert len(tables) == pages[0].count(b"<caption>")


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


def _whose(item: int) -> tuple[int, int]:
    return item, os.getpid()


def test_this_process_plays_beside_the_workers_and_the_order_is_kept() -> None:
    # two workers: one spawned helper and this process, each playing chunks of the plan
    out = run_all(_whose, list(range(40)), workers=2, progress=False)
    assert [item for item, _ in out] == list(range(40))
    assert {pid for _, pid in out} > {os.getpid()}  # this process and one other


def _fails(item: int) -> int:
    if item in (1, 13):
        raise ValueError(f"game {item} went wrong")
    return item


@pytest.mark.parametrize("bad", [list(range(40)), list(range(13))])  # 13 here, or only 1 in the helper
def test_a_failing_game_is_raised_whoever_played_it(bad: list[int]) -> None:
    with pytest.raises(ValueError, match="went wrong"):
        run_all(_fails, bad, workers=2, progress=False)


def test_the_default_is_every_core_and_one_for_a_short_run() -> None:
    from kikimimi.design.report.run import SHORT_RUN, workers_for

    assert workers_for("auto", SHORT_RUN) == workers_wanted("auto")
    assert workers_for("auto", SHORT_RUN - 1) == 1
    assert workers_for("2", 3) == 2  # a count asked for is played as asked
    from kikimimi.cli import build_parser

    assert build_parser().parse_args(["report", "trident"]).workers == "auto"
    assert build_parser().parse_args(["sim", "trident"]).workers == "auto"
