"""Phrase catalogues, diagram, bot games, tuning."""
from __future__ import annotations

import re
from pathlib import Path

from kikimimi.contract.parts import diagram, simulation
from kikimimi.design.tuning import tune
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import visible_to
from kikimimi.design.sim import play
from kikimimi.contract.registry import declaration
from kikimimi_games import trident
from kikimimi_games.trident import PIECES, TridentGame
from kikimimi_games.trident.machine import PHASES

SOURCE = (Path(trident.__file__).parent / "game.py").read_text()
VARIANTS = {
    "wrong-": ["out-of-turn", "not-an-answer", "wrong-suit", "non-basic-last"],
    "penalty-": ["no-trident"],
    "rotate-": ["right", "left"],
    "game-over-": ["out", "crash", "stopped"],
}


def emitted_keys() -> set[str]:
    keys = set(re.findall(r'_(?:tell|announce)\((?:[a-zA-Z_.]+, )?"([a-z0-9-]+)"', SOURCE))
    keys |= set(re.findall(r'refusal\([a-zA-Z_.]+, f?"[^"]*", "([a-z0-9-]+)"', SOURCE))
    for prefix, words in VARIANTS.items():
        assert re.search(rf'f"{prefix}\{{', SOURCE), prefix
        keys |= {prefix + w for w in words}
    return keys


def test_every_phrase_the_game_can_say_is_in_both_catalogues():
    keys = emitted_keys()
    assert len(keys) > 40
    for lang in ("en", "ja"):
        book = Phrasebook(lang, ("core", "trident"))
        assert sorted(k for k in keys if not book.has(k)) == [], lang
        assert all(p.tag in book.names for p in PIECES)
        assert all(s in book.names for s in ("heart", "diamond", "spade", "clover", "turn-around-right"))


def test_keys_heard_in_bot_games_are_all_known():
    book = Phrasebook("ja", ("core", "trident"))
    for seed in range(5):
        _, log = play("trident", seed, 3)
        assert {e["key"] for e in log if e["type"] == "say"} <= set(book.phrases)


def test_japanese_is_written_with_kanji_as_the_seed():
    book = Phrasebook("ja", ("core", "trident"))
    assert book.names["trident:heart-3"] == "ハートの3" and "個" in book.phrases["deal"]


def test_both_languages_have_the_same_phrases():
    # Japanese is now written with kanji (Open JTalk reads it); what must hold is that
    # no phrase exists in one language only.
    en, ja = Phrasebook("en", ("core", "trident")), Phrasebook("ja", ("core", "trident"))
    assert set(en.phrases) == set(ja.phrases)


def test_every_trigger_is_a_row_of_the_data():
    assert set(PHASES.triggers) == {"dealt", "opened", "drew", "pass_turn", "choose", "all_agreed", "reset_done",
                                    "finish"}


def test_diagram_is_mermaid_with_every_phase():
    text = diagram(declaration("trident"), "mermaid")
    assert "stateDiagram-v2" in text and all(s in text for s in ("dealing", "choosing", "resetting", "over"))


def test_bot_games_always_end_and_are_reproducible():
    for bot in ("human", "random"):
        for seed in range(15):
            script, log = play("trident", seed, 3, {}, bot)
            assert any(e["type"] == "game-over" for e in log), (bot, seed)
            assert play("trident", seed, 3, {}, bot)[1] == log


def test_human_bots_make_human_mistakes():
    reasons = set()
    for seed in range(30):
        _, log = play("trident", seed, 3)
        reasons |= {e["why"] for e in log if e["type"] == "penalty-reason"}
        reasons |= {e["reason"] for e in log if e["type"] == "penalty"}
    assert {"wrong-suit", "no-trident"} <= reasons


def test_bots_hear_only_what_their_seat_may_know():
    sim = simulation(declaration("trident"), 3, 3, {}, "human")
    heard: list[tuple[int, dict]] = []
    for seat, bot in sim.bots.items():
        original = bot.hear
        bot.hear = lambda ev, hand, _s=seat, _o=original: (heard.append((_s, ev)), _o(ev, hand))[1]
    from kikimimi.table.engine import Table
    from kikimimi.contract.script import Header
    table = Table(Header("trident", 3, {}, "en", {}))
    sim.observe(table.start())
    t = 0
    while not table.game.over:
        line = sim.next_input()
        t += 1
        sim.observe(table.feed(t + 1, {"t": t, **line}))
    assert heard and all(visible_to(ev, seat) for seat, ev in heard)
    assert any(ev.get("private") for _, ev in heard)


def test_tune_reports_the_designers_table():
    text = tune(declaration("trident"), 12, 1, 3, {}, None, None, False)
    for needle in ("win rate by seat", "crash rate", "game length (inputs): mean", "median",
                   "penalties per game", "deciding"):
        assert needle in text
