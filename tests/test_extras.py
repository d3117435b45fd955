"""Optional is optional: psycopg, matplotlib, Ray and RLCard are extras (kikimimi/contract/extras.py).

A missing extra asked for is one line naming it, said before any work; the table and the
simulator never import them; CI installs every extra (.ci/run's KIKIMIMI_EXTRAS), so the
tests that need one run there (tests/conftest.py skips them elsewhere, with the reason).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kikimimi.contract.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: Extras that are not an optional part of the product: the test tools, Open JTalk (setup
#: builds it always), and an old name kept for compatibility
NOT_PARTS = {"test", "ja", "plot"}
KIKIMIMI = str(Path(sys.executable).with_name("kikimimi"))

#: A sitecustomize that hides the extras' modules from one subprocess: the same Python,
#: as it would be had the extras never been installed
HIDE = '''import sys
class _Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {HIDDEN!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, _Hide())
'''


def _without_extras(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "sitecustomize.py").write_text(HIDE.format(HIDDEN=set(EXTRAS.values()) | {"psycopg_binary"}))
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


def test_every_optional_part_is_an_extra_that_ci_installs():
    optional = set(PYPROJECT["project"]["optional-dependencies"]) - NOT_PARTS
    assert optional == set(EXTRAS), "kikimimi/contract/extras.py's EXTRAS and pyproject's extras differ"
    ci = re.search(r"^export KIKIMIMI_EXTRAS=(\S+)", (ROOT / ".ci/run").read_text(), re.M)
    assert ci is not None and set(ci.group(1).split(",")) == optional, ".ci/run must install every extra"
    hard = " ".join(PYPROJECT["project"]["dependencies"])
    assert not any(module in hard for module in ("psycopg", "matplotlib", "ray", "rlcard"))
    readme = (ROOT / "README.md").read_text()
    assert all(f"`{extra}`" in readme for extra in optional), "the README says which extra brings what"


@pytest.mark.parametrize("argv, extra", [
    (["report", "trident", "--games", "2"], "report"),
    (["sim", "trident", "--games", "2", "--plot", "p.png"], "report"),
    (["players", "list", "--db", "postgresql://nobody@127.0.0.1:1/none"], "postgres"),
])
def test_a_missing_extra_is_one_line_naming_it(tmp_path, argv, extra):
    proc = subprocess.run([KIKIMIMI, *argv], cwd=tmp_path, env=_without_extras(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert f"'{extra}' extra" in proc.stderr and f"kikimimi[{extra}]" in proc.stderr
    assert not list(tmp_path.glob("*.html")) and not list(tmp_path.glob("*.png"))


def test_the_table_and_the_simulator_play_without_any_extra(tmp_path):
    probe = ("import sys, runpy; sys.argv = ['kikimimi', 'sim', 'trident', '--seed', '3'];"
             "from kikimimi.cli import main; code = main(sys.argv[1:]);"
             "import kikimimi.table.daemon, kikimimi.records.backend, kikimimi.cli.serve;"
             f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {set(EXTRAS.values())!r});"
             "print('loaded', loaded, file=sys.stderr); sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", probe], env=_without_extras(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Place 1:" in proc.stdout and "loaded []" in proc.stderr
