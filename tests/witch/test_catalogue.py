"""The phrase catalogues: every key the game says exists in both languages, with the same fields."""
from __future__ import annotations

import re
import string

import pytest

from kikimimi.contract.parts import diagram
from kikimimi.contract.phrases import Phrasebook, load_catalogue
from kikimimi.roles import missing_layer_phrases
from kikimimi.design.sim import play
from kikimimi.contract.registry import declaration
from kikimimi_games.witch.rules import ROLES, TEAMS

from .table import DECK10, day1

LANGS = ("ja", "en")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", LANGS)
def test_the_layers_phrases_and_every_name_are_there(lang):
    assert missing_layer_phrases("witch", lang) == []
    _, names = load_catalogue("witch", lang)
    wanted = {f"role:{r}" for r in ROLES} | {f"team:{t}" for t in TEAMS.values()} | {"team:void"} | {
        f"phase:{p}" for p in ("deal", "prologue", "day", "night", "epilogue")} | {"found:human", "found:witch"}
    assert wanted - set(names) == set()


def test_both_languages_have_the_same_keys_and_fields():
    ja, _ = load_catalogue("witch", "ja")
    en, _ = load_catalogue("witch", "en")
    assert set(ja) == set(en)
    assert {k: fields(v) for k, v in ja.items()} == {k: fields(v) for k, v in en.items()}


def test_japanese_is_written_with_kanji_in_the_seeds_words():
    ja, names = load_catalogue("witch", "ja")
    text = " ".join(ja.values()) + " ".join(names.values())
    for word in ("魔女", "鏡使い", "神父", "使い魔", "騎士", "双子", "小悪魔", "人間", "事件前日", "バ・シルーラ",
                 "ララの鏡", "発言自粛勧告", "悪魔祓い", "沈黙", "退場者の部屋", "再投票", "イーッヒッヒッヒ", "持ち時間"):
        assert word in text, word


def test_every_phrase_said_in_play_is_in_the_catalogue():
    said: dict[str, dict] = {}
    logs = [play("witch", seed, n, {}, bot)[1] for seed, n, bot in ((1, 8, "reason"), (2, 12, "random"), (5, 16, "reason"))]
    logs.append(day1(DECK10).console("hint 2").console("speak 3 hi").console("silence 4").run())
    for log in logs:
        for e in log:
            if e["type"] == "say":
                said[e["key"]] = e.get("params") or {}
    for lang in LANGS:
        book = Phrasebook(lang, ("core", "witch"))
        missing = [k for k in said if not book.has(k)]
        assert missing == []
        for key, params in said.items():
            text = book.render(key, params)
            assert not re.search(r"\{\w+\}", text), (key, text)  # every field filled


def test_the_simulated_table_config_loads_and_its_options_are_the_games():
    from pathlib import Path

    from kikimimi.table.config import load_table_config
    from kikimimi_games.witch import WitchGame

    config = load_table_config(Path(__file__).parents[2] / "games" / "witch" / "sim.toml")
    assert (config.game, config.players) == ("witch", 8)
    assert sorted(r["seat"] for r in config.readers.values() if r["role"] == "hand") == list(range(1, 9))
    WitchGame(config.players, config.options)  # valid options, or ValueError


def test_the_phases_are_drawn():
    from kikimimi_games.witch import WitchGame

    drawing = diagram(declaration("witch"))
    assert drawing.startswith("stateDiagram-v2") and all(p in drawing for p in ("prologue", "day", "night", "epilogue"))


def test_the_diagram_is_the_phases_the_game_steps_through():
    """Every `phase` event of many bot games is a move the drawing shows, and the drawing
    shows no phase that never runs (it once drew a `revote` phase that did not exist)."""
    from kikimimi.contract.phases import PhaseError
    from kikimimi.design.sim import play
    from kikimimi_games.witch import WitchGame
    from kikimimi_games.witch.rules import PHASES

    drawing = diagram(declaration("witch"))
    assert "revote" not in drawing
    seen: set[str] = set()
    for seed in range(12):
        _, log = play("witch", seed, 5 + seed % 4, {})
        phases = ["deal"] + [ev["phase"] for ev in log if ev["type"] == "phase"]
        for a, b in zip(phases, phases[1:]):
            assert f"    {a} --> {b}:" in drawing, (seed, a, b)
        seen.update(phases)
        assert not [ev for ev in log if ev["type"] == "error" and "internal" in ev["message"]]
    assert {"deal", "prologue", "day", "night"} <= seen
    with pytest.raises(PhaseError):
        PHASES.step("deal", "night")
