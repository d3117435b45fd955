"""`kikimimi report` when the page cannot be written: one line, said before the games where
it can be, and nothing lost: no half page, an older page as it was, and a page whose
folder failed after the games kept in the temporary folder."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from kikimimi.cli import main
from kikimimi.design.report.build import write_page

pytestmark = pytest.mark.extra("report")  # the page's pictures are drawn with matplotlib

# No bytecode written under the limit: a cut .pyc would break the next import.
FULL_DISK = """
import resource, signal, sys
from kikimimi.cli import main
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))  # a page's PNGs are far more
sys.exit(main(sys.argv[1:]))
"""


def test_a_full_disk_is_one_line_and_leaves_the_old_page(tmp_path: Path) -> None:
    old = tmp_path / "r.html"
    old.write_text("the page of yesterday", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", FULL_DISK, "report", "trident", "--games", "2", "--players", "3",
                          "-o", str(old)], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "TMPDIR": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"})
    assert run.returncode == 2
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"kikimimi: -o {old}: File too large") and "Traceback" not in run.stderr
    assert "(the page that was there is as it was)" in last and "could not be kept anywhere" in last
    assert old.read_text(encoding="utf-8") == "the page of yesterday"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]  # no half page, no part file


def test_a_folder_as_the_page_is_said_before_the_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "trident", "--games", "2", "--players", "3", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"kikimimi: -o {tmp_path}: that is a folder; give the page's file name\n"  # no game's progress


def test_a_folder_gone_after_the_games_keeps_the_page_in_the_temporary_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    with pytest.raises(ValueError) as said:
        write_page(str(tmp_path / "unplugged" / "r.html"), "<p>200 games</p>")
    kept = list(spare.iterdir())
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "<p>200 games</p>"
    assert str(said.value) == (f"-o {tmp_path / 'unplugged' / 'r.html'}: No such file or directory; "
                               f"the page is kept in {kept[0]} instead")


def test_a_page_written_whole_replaces_the_old_one(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    page.write_text("old", encoding="utf-8")
    write_page(str(page), "new")
    assert page.read_text(encoding="utf-8") == "new" and [p.name for p in tmp_path.iterdir()] == ["r.html"]
    assert page.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
