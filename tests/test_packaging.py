"""A non-editable `pip install .` carries every part and finds every game."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"kikimimi": "kikimimi", "games": "kikimimi_games", "voices": "kikimimi_voices",
          "hardware": "kikimimi_hardware"}


def _declared() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(data["tool"]["setuptools"]["packages"])


def test_every_package_folder_is_declared():
    found = set()
    for folder, name in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]))
    assert found - _declared() == set(), "add these to [tool.setuptools] packages"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(out), str(ROOT)], check=True, capture_output=True)
    return next(out.glob("kikimimi-*.whl"))


def test_the_wheel_carries_games_voices_and_hardware(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for game in ("trident", "onisagashi"):
        assert f"kikimimi_games/{game}/__init__.py" in names
    for game in ("trident", "onisagashi", "witch", "mafia42", "intrigue"):
        assert f"kikimimi_games/{game}/phrases/ja.toml" in names
        assert f"kikimimi_games/{game}/phrases/en.toml" in names
        assert f"kikimimi_games/{game}/sim.toml" in names
    assert "kikimimi_voices/core/ja.toml" in names
    assert any(n.startswith("kikimimi_hardware/") and n.endswith(".toml") for n in names)


def test_the_wheel_ships_the_product_not_the_test_harness(wheel):
    """The emulated readers, pty links, kill timers, the watcher and the virtual sound cards are
    tests/support's: none is in the wheel.  The author's kit (kikimimi.testkit) is."""
    names = set(zipfile.ZipFile(wheel).namelist())
    harness = sorted(p.stem for p in (ROOT / "tests" / "support").glob("*.py") if p.stem != "__init__")
    assert len(harness) >= 15
    shipped = {Path(n).stem for n in names if n.endswith(".py")}
    assert shipped & set(harness) == set(), sorted(shipped & set(harness))
    assert not [n for n in names if "emulator" in n or n.startswith(("support/", "tests/"))]
    assert {"kikimimi/testkit/script.py", "kikimimi/testkit/knowledge.py", "kikimimi/game.py"} <= names
    # the web console's pages (kikimimi/web/static: no build step, shipped as they are)
    assert {f"kikimimi/web/static/{f}" for f in ("referee.html", "owner.html", "audience.html", "pair.html",
                                                 "app.js", "strings.js", "style.css")} <= names


def test_an_installed_wheel_finds_every_game(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from kikimimi.contract.registry import game_names, game_class;"
        "import kikimimi_games;"
        "print(kikimimi_games.__file__);"
        "from kikimimi.contract.phrases import Phrasebook;"
        "from kikimimi.table.config import load_table_config;"
        "[print(n, game_class(n).__module__, len(Phrasebook('ja', (n,)).phrases),"
        " load_table_config(n).game) for n in game_names()]"
    )
    result = subprocess.run([sys.executable, "-c", probe, str(target)], capture_output=True, text=True,
                            check=True, cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(str(target))
    found = {line.split()[0]: line.split()[1:] for line in lines[1:]}
    assert {"trident", "onisagashi"} <= set(found)
    for name, (module, phrases, sim_game) in found.items():  # phrases and table found through the game
        assert int(phrases) > 0 and sim_game == name, (name, module)


def test_the_wheel_says_it_is_typed(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"kikimimi/py.typed", "kikimimi_games/py.typed"} <= names


#: An outside author's own code, type-checked against the installed kikimimi: the call is wrong
#: on purpose, and mypy must say so (with kikimimi untyped, `say` would be Any and pass).
MISTYPED = '''
from kikimimi.contract.protocol import say

count: int = say("table", "draw")
'''


@pytest.fixture(scope="module")
def outside_venv(wheel, tmp_path_factory) -> Path:
    """A fresh virtual environment that is no checkout: kikimimi installed from the wheel, the
    example game installed from a copy; the dependencies (and mypy) are read from this
    interpreter's environment through a .pth file, so nothing is fetched."""
    home = tmp_path_factory.mktemp("outside")
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (site / "zz_dependencies.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    example = home / "highcard"
    shutil.copytree(ROOT / "examples" / "highcard", example, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for package in (str(wheel), str(example)):
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                        "--no-build-isolation", "--no-index", "-q", package], check=True, capture_output=True,
                       cwd=home)
    shutil.rmtree(example / "build", ignore_errors=True)
    return venv


def _outside(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MYPYPATH")}
    return subprocess.run([str(venv / "bin" / "python"), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_an_outside_package_checks_its_game_with_kikimimi_check(outside_venv):
    where = _outside(outside_venv, "-c", "import kikimimi, kikimimi_highcard as h; print(kikimimi.__file__);"
                     "print(h.__file__)", cwd=outside_venv.parent)
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(outside_venv)) for line in where.stdout.splitlines()), where.stdout
    run = _outside(outside_venv, "-m", "kikimimi.cli", "check", "highcard", cwd=outside_venv.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "highcard: 12 of 12 parts kept"


def test_mypy_in_an_outside_package_sees_kikimimis_types(outside_venv):
    home = outside_venv.parent
    (home / "mistyped.py").write_text(MISTYPED, encoding="utf-8")
    mypy = ("-m", "mypy", "--no-incremental", "--strict", "--python-executable", str(outside_venv / "bin" / "python"))
    good = _outside(outside_venv, *mypy, "highcard/kikimimi_highcard", cwd=home)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _outside(outside_venv, *mypy, "mistyped.py", cwd=home)
    assert bad.returncode == 1 and 'expression has type "Event", variable has type "int"' in bad.stdout, bad.stdout
