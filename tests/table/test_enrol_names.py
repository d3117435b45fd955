"""Every piece the spoken enrolment names has a name of its own in each language the game
declares: at a Japanese table, no piece of any of the five games is read out as its English
id ("role human 1", "token bat", as 闇に笑う魔女, 鬼探し and マフィア42 once were)."""
from __future__ import annotations

import re

import pytest

from kikimimi.contract.kit import kit_for
from kikimimi.contract.registry import declaration
from kikimimi.box.setup.enrol import piece_names
from kikimimi.contract.tagmap import say_name

GAMES = ("trident", "onisagashi", "witch", "mafia42", "intrigue")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def every_piece(game: str) -> list[str]:
    """The kit's pieces at every table size the game allows (decks grow with the table)."""
    decl = declaration(game)
    pieces: dict[str, None] = {}
    for players in range(decl.min_players, decl.max_players + 1):
        kit = kit_for(game, players)
        pieces.update(dict.fromkeys(kit.own + kit.table))
    return list(pieces)


@pytest.mark.parametrize("game", GAMES)
def test_every_piece_enrolment_names_has_a_name_in_each_language(game):
    pieces = every_piece(game)
    assert pieces
    for lang in ("en", "ja"):
        names = piece_names([game], lang, pieces)
        unnamed = [p for p in pieces if p not in names]
        assert unnamed == [], f"{game} ({lang}): read out as ids: {unnamed[:8]}"
        if lang == "ja":
            english = [(p, names[p]) for p in pieces if not JAPANESE.search(names[p])]
            assert english == [], f"{game}: said in English at a Japanese table: {english[:8]}"


def test_a_decks_copies_and_a_cards_token_are_named_from_the_card():
    ja = piece_names(["witch", "onisagashi", "mafia42"], "ja",
                     ["witch:role-human-2", "oni:token-bat", "mafia42:job-cult-leader-1"])
    assert ja["witch:role-human-2"] == "人間のカード2枚目"
    assert ja["oni:token-bat"] == "金属バットの宣言トークン"
    assert ja["mafia42:job-cult-leader-1"] == "教祖のカード1枚目"
    en = piece_names(["witch", "onisagashi"], "en", ["witch:role-mirror-1", "oni:token-rika"])
    assert say_name("witch:role-mirror-1", en) == "mirror-user card 1"
    assert say_name("oni:token-rika", en) == "Rika Furude token"
    # without the pieces, nothing is made up: the old read-out
    assert say_name("oni:token-bat", piece_names(["onisagashi"], "ja")) == "token bat"


def test_only_the_pieces_still_to_enrol_are_rendered_before_enrolment(tmp_path):
    """A set-up run again asks for what is missing; it renders those lines, not the whole kit's."""
    from kikimimi.contract.kit import missing_copies
    from kikimimi.contract.phrases import Phrasebook
    from kikimimi.box.setup.enrol import EveningKit, texts_to_prepare
    from kikimimi.contract.tagmap import write_tagmap

    kit = kit_for("trident", 3)
    uids = (f"04c0{n:010x}" for n in range(1, 1000))
    tags = {next(uids): piece for piece in kit.table}
    tags.update({next(uids): piece for seat in (1, 2, 3) for piece in kit.own if piece != "cmd:agree"})
    write_tagmap(tmp_path / "trident.toml", tags)
    evening = EveningKit([kit], {"trident": tmp_path / "trident.toml"})
    assert set(missing_copies(kit, evening.tags)) == {"cmd:agree"}
    book = Phrasebook("en", ("core", "setup"))
    names = piece_names(["trident"], "en")
    texts = texts_to_prepare(book, evening, names)
    agree, hint = say_name("cmd:agree", names), say_name("cmd:hint", names)
    assert book.render("enrol-scan", {"name": agree}) in texts
    assert book.render("enrol-scan", {"name": hint}) not in texts
    assert not [t for t in texts if "heart" in t]  # the table's pieces: all enrolled
    assert book.render("enrol-skip", {"count": len(kit.own) - 1}) in texts
    fresh = texts_to_prepare(book, EveningKit([kit], {"trident": tmp_path / "none.toml"}), names)
    assert {book.render("enrol-scan", {"name": say_name(p, names)}) for p in kit.own + kit.table} <= set(fresh)
