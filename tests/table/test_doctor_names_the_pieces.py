"""Words at a table with no screen: `doctor --listen` says every piece by the game's own name
in the table's language, the enrolment's words (`card-copy`, `card-token`), never its English
id ("token bat", "card bat"); and the advice for missing udev rules no longer asks for each
seat's serial (readers are found by their USB port)."""
from __future__ import annotations

from pathlib import Path

from kikimimi.box.doctor import _kit_by_ear
from kikimimi.contract.phrases import Phrasebook
from kikimimi.readers.checks import doctor_checks
from kikimimi.table.config import load_table_config


ROOT = Path(__file__).resolve().parents[2]


def kit_said(game: str, lang: str) -> str:
    book = Phrasebook(lang, ("core", "setup"))
    return " ".join(book.render(key, params) for key, params in _kit_by_ear(load_table_config(str(ROOT / "games" / game / "sim.toml")),
                                                                           book))


def test_a_japanese_table_hears_the_pieces_by_their_japanese_names():
    said = kit_said("onisagashi", "ja")
    assert "金属バットの宣言トークン" in said and "金属バット、" in said
    assert "token" not in said and "card" not in said and "bat" not in said
    witch = kit_said("witch", "ja")
    assert "1番の席の札から8番の席の札" in witch and "人間のカード2枚目" in witch and "role" not in witch


def test_an_english_table_hears_names_not_ids():
    said = kit_said("onisagashi", "en")
    assert "metal bat token" in said and "token bat" not in said and "card bat" not in said
    assert "human card 2" in kit_said("witch", "en")


def test_the_udev_advice_asks_for_no_serial(tmp_path, usb_only_table):
    rules_dir = tmp_path / "rules.d"
    rules_dir.mkdir()
    checks = doctor_checks(usb_only_table, proc_modules=str(tmp_path / "none"), rules_dirs=[str(rules_dir)],
                           sys_usb=str(tmp_path / "usb"), probe=False)
    (rules,) = [c for c in checks if c.name == "udev rules"]
    assert not rules.ok and "serial" not in rules.fix and "USB port" in rules.fix
