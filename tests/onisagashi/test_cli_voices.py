"""The solve command, the phrase catalogues, and the tuning report."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kikimimi.design.tuning import tune
from kikimimi.design.sim import play
from kikimimi.contract.registry import declaration
from kikimimi_games.onisagashi import OnisagashiGame
from kikimimi_games.onisagashi.cards import CARDS

ROOT = Path(__file__).resolve().parents[2]
KIKIMIMI = [sys.executable, "-c", "import sys; from kikimimi.cli import main; sys.exit(main())"]


def solve(tmp_path, payload) -> subprocess.CompletedProcess:
    path = tmp_path / "obs.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload))
    return subprocess.run(KIKIMIMI + ["onisagashi", "solve", str(path)], capture_output=True, text=True, timeout=60)


def test_solve_prints_the_contract_json(tmp_path):
    r = solve(tmp_path, {"rules": "beginner", "players": 5, "me": 1, "hand": ["mion", "tofu", "swamp"],
                         "history": [{"declarer": 1, "cards": ["keiichi", "bat", "forest"], "have": [2, 4]}]})
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["matrix"]["keiichi"] == {"1": 0, "2": 1, "3": 0, "4": 1, "5": 0, "answer": 1}
    assert set(out["matrix"]) == set(CARDS)
    assert out["answer"] == {"culprit": None, "weapon": None, "place": None}
    assert len(out["best"]) == 3 and "mion" not in out["best"]


def test_solve_reports_a_settled_answer(tmp_path):
    # nobody has rena/nata/dam and seat 1 declared them: beginner rules make them the answer
    r = solve(tmp_path, {"rules": "beginner", "players": 5, "me": 1, "hand": ["mion", "tofu", "swamp"],
                         "history": [{"declarer": 1, "cards": ["rena", "nata", "dam"], "have": []}]})
    assert json.loads(r.stdout)["answer"] == {"culprit": "rena", "weapon": "nata", "place": "dam"}


@pytest.mark.parametrize("payload,words", [
    ("{not json", "not JSON"),
    ({"players": 5, "me": 1, "hand": ["mion"]}, "must hold"),
    ({"players": 5, "me": 1, "hand": ["mion", "tofu", "swamp"], "history": [{"declarer": 2, "cards": ["keiichi", "rena", "forest"], "have": []}]}, "one culprit"),
    ({"players": 5, "me": 1, "hand": ["mion", "tofu", "swamp"], "history": [
        {"declarer": 2, "cards": ["keiichi", "bat", "forest"], "have": []},
        {"declarer": 3, "cards": ["keiichi", "bat", "forest"], "have": [4]}]}, "no deal is consistent"),
])
def test_solve_refuses_bad_input_in_one_line(tmp_path, payload, words):
    r = solve(tmp_path, payload)
    assert r.returncode != 0 and words in r.stderr and r.stderr.count("\n") == 1


def _catalogue(lang):
    return tomllib.loads((ROOT / "games" / "onisagashi" / "phrases" / f"{lang}.toml").read_text(encoding="utf-8"))


def test_japanese_keeps_the_seed_s_words_and_kame_is_spoken_kame():
    ja = _catalogue("ja")  # text as the seed writes it; the speech engine reads [readings]
    assert ja["names"]["oni:card-kame"] == "罌" and ja["readings"]["罌"] == "カメ"


def test_both_languages_have_the_same_phrases():
    ja, en = _catalogue("ja"), _catalogue("en")
    assert set(ja["phrases"]) == set(en["phrases"])


def test_every_spoken_key_and_card_exists_in_both_languages():
    _, log = play("onisagashi", 5, 5, {"rules": "advanced", "rounds": 1}, "best")
    used = {e["key"] for e in log if e["type"] == "say"}
    game_keys = set(re.findall(r'"([a-z-]+)"', (ROOT / "games/onisagashi/game.py").read_text()))
    for lang in ("ja", "en"):
        cat = _catalogue(lang)
        assert used <= set(cat["phrases"]), used - set(cat["phrases"])
        assert {f"oni:card-{c}" for c in CARDS} <= set(cat["names"])
        assert set(cat["phrases"]) <= game_keys | {"x"}, set(cat["phrases"]) - game_keys


def test_tune_compares_best_with_random_bots():
    report = tune(declaration("onisagashi"), 2, 1, 5, {"rules": "beginner", "rounds": 1}, progress=False)
    lines = report.splitlines()
    assert any(line.strip().startswith("best") and "mean=" in line for line in lines)
    assert any(line.strip().startswith("random") and "mean=" in line for line in lines)
