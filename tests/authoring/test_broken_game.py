"""`kikimimi check` names what a broken game breaks: the example game (examples/highcard),
copied and broken one way at a time as authors really break games, must fail the part of
the contract that promise belongs to, in one line with its fix, and the CLI exits 1.

Each copy is a package of its own under its own game name (catalogues are cached per
name), registered in this process only."""
from __future__ import annotations

import dataclasses
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.contract import registry
from kikimimi.design.contract_check import PARTS, check

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "highcard" / "kikimimi_highcard"

#: variant -> (file, text as written, text as broken): a bug in the game's own code.
IN_CODE = {
    "phrases": ("phrases/ja.toml", 'winner = "{seat}番の勝ちです。"\n', ""),
    "secrets": ("__init__.py", 'say(me, "your-card", card=card)', 'say(TABLE, "your-card", card=card)'),
    "replay": ("__init__.py", 'return [say(TABLE, "draw")]',
               'import random\n        return [say(TABLE, "draw"), event("shuffled", at=random.random())]'),
    "undo": ("__init__.py", "self.cards[seat] = card\n",  # a count kept in the module, not the play
             "self.cards[seat] = card\n        SHARED[len(SHARED)] = card\n        self.drawn = len(SHARED)\n"),
    "resume": ("__init__.py", "return situation(self.sight(0))", "return [say(seat_audience(1), 'draw')]"),
    "fairness": ("__init__.py", "key=lambda s: -CARDS.index(self.cards[s])",  # chairs 3 and 6 rank last: a chair bias
                 "key=lambda s: (s != 1 and s % 3 == 0, -CARDS.index(self.cards[s]))"),
}
#: variant -> the declaration's fields left out or wrong.
IN_DECLARATION = {
    "options": {"options": None},
    "console": {"commands": ()},
    "diagram": {"diagram": None},
    "report": {"report": None},
    "ear": {"bots": ()},
}


@pytest.fixture
def own_registry(monkeypatch):
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    registry.game_names.cache_clear()
    yield
    monkeypatch.undo()
    registry.game_names.cache_clear()


def broken_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str) -> str:
    """The example as package `broken_VARIANT`, game `broken-VARIANT`, broken as the variant says."""
    name, package = f"broken-{variant}", f"broken_{variant}"
    folder = tmp_path / package
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (folder / "__init__.py", folder / "ear.py"):
        text = path.read_text(encoding="utf-8").replace('"highcard"', f'"{name}"')
        path.write_text(text.replace("\nCARDS =", "\nSHARED: dict[int, str] = {}\nCARDS =", 1), encoding="utf-8")
    init = folder / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace(
        '"shown": list(self.shown)}', '"shown": list(self.shown), "drawn": getattr(self, "drawn", 0)}'), encoding="utf-8")
    if variant in IN_CODE:
        file, good, bad = IN_CODE[variant]
        text = (folder / file).read_text(encoding="utf-8")
        assert good in text, f"the example no longer has {good!r}: update this test's bug"
        (folder / file).write_text(text.replace(good, bad), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    decl = importlib.import_module(package).GAME
    registry.register(dataclasses.replace(decl, **IN_DECLARATION.get(variant, {})))
    return name


def test_the_unbroken_copy_keeps_every_part(tmp_path, monkeypatch, own_registry):
    assert check(broken_copy(tmp_path, monkeypatch, "none")) == []


@pytest.mark.parametrize("variant", [*IN_CODE, *IN_DECLARATION])
def test_check_names_the_broken_part(variant, tmp_path, monkeypatch, own_registry):
    failures = check(broken_copy(tmp_path, monkeypatch, variant))
    assert variant in {f.part for f in failures}, [f.line() for f in failures]
    for f in failures:
        assert f.line().startswith(f"broken-{variant}: {f.part}: ") and "(fix: " in f.line()
        assert "\n" not in f.line() and f.fix


def test_a_seat_counted_from_0_is_no_audience(tmp_path, monkeypatch, own_registry):
    name = broken_copy(tmp_path, monkeypatch, "none")
    init = tmp_path / "broken_none" / "__init__.py"
    assert "me = seat_audience(seat)\n" in init.read_text(encoding="utf-8")
    failures = check(name, ["secrets"])
    assert failures == []  # the copy as written keeps it; now break it
    monkeypatch.delitem(sys.modules, "broken_none")
    init.write_text(init.read_text(encoding="utf-8").replace("me = seat_audience(seat)\n",
                                                             "me = seat_audience(seat - 1)\n"), encoding="utf-8")
    decl = importlib.import_module("broken_none").GAME
    registry.register(decl)
    [failure] = check(name, ["secrets"])
    assert "['seat:0'], no audience of this table" in failure.problem


def test_every_part_has_a_broken_game():
    assert set(PARTS) - {"declaration"} == set(IN_CODE) | set(IN_DECLARATION)


def test_the_cli_exits_1_with_a_line_per_failure(tmp_path):
    """A broken declaration seen through the command line, as an author runs it."""
    probe = ("import sys, dataclasses; sys.path.insert(0, sys.argv[1]);"
             "from kikimimi.contract.registry import register; from kikimimi.cli import main;"
             "import kikimimi_highcard as h;"
             "register(dataclasses.replace(h.GAME, diagram=None, commands=()));"
             "sys.exit(main(['check', 'highcard']))")
    run = subprocess.run([sys.executable, "-c", probe, str(EXAMPLE.parent)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("highcard: diagram: the game draws no diagram (fix: ")
    assert lines[1].startswith("highcard: console: the console commands lack ['hint', 'stop'] (fix: ")
    assert lines[-1] == f"highcard: {len(PARTS) - 2} of {len(PARTS)} parts kept; broken: diagram, console"


def test_the_cli_gives_the_failures_as_json_for_tools(tmp_path):
    probe = ("import sys, dataclasses; sys.path.insert(0, sys.argv[1]);"
             "from kikimimi.contract.registry import register; from kikimimi.cli import main;"
             "import kikimimi_highcard as h;"
             "register(dataclasses.replace(h.GAME, report=None));"
             "sys.exit(main(['check', 'highcard', '--json', '--part', 'report', '--part', 'diagram']))")
    run = subprocess.run([sys.executable, "-c", probe, str(EXAMPLE.parent)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    [failure] = json.loads(run.stdout)
    assert failure["game"] == "highcard" and failure["part"] == "report" and failure["fix"].startswith("give ")


def test_an_ear_only_game_without_a_bot_table_is_told_to_set_one(tmp_path, monkeypatch, own_registry):
    """`kikimimi sim GAME` without --bot plays through bot_table, ear bots or not."""
    name = broken_copy(tmp_path, monkeypatch, "none")
    registry.register(dataclasses.replace(registry.declaration(name), bot_table=None))
    failures = check(name, ["ear", "replay"])
    assert [f.part for f in failures] == ["ear", "replay"], [f.line() for f in failures]
    assert all("set bot_table" in f.fix for f in failures)
