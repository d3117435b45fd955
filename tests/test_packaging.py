"""A non-editable `pip install .` carries every part and finds every game."""
from __future__ import annotations

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


def test_an_installed_wheel_finds_every_game(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from kikimimi.registry import game_names, game_class;"
        "import kikimimi_games;"
        "print(kikimimi_games.__file__);"
        "from kikimimi.phrases import Phrasebook;"
        "from kikimimi.table_config import load_table_config;"
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
