"""Japanese through Open JTalk: the readings of names that matter, real audio, and the fallback."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from kikimimi.contract.phrases import Phrasebook
from kikimimi.voice.engines import DEBIAN_DICT_DIR, engine
from kikimimi.voice.readings import Readings, load_readings
from kikimimi.voice.render import Renderer


def openjtalk():
    eng = engine("openjtalk")
    if eng.problem:
        pytest.skip(f"Open JTalk missing: {eng.problem}")
    return eng


@pytest.fixture(scope="module")
def g2p():
    eng = openjtalk()
    readings = Readings(load_readings("ja"))
    return lambda text: eng.g2p(readings(text), kana=True).replace("　", "").replace(" ", "")


def test_the_g2p_of_園崎魅音(g2p):
    assert g2p("犯人は園崎魅音、凶器は鉈") == "ハンニンワソノザキミオン、キョーキワナタ"


#: How the 鬼探し cards must sound (rules/onisagashi.md: 古手 not 古出, 罌 spoken かめ).
CARDS = {
    "oni:card-keiichi": "マエバラケーイチ", "oni:card-rena": "リューグーレナ", "oni:card-mion": "ソノザキミオン",
    "oni:card-satoko": "ホージョーサトコ", "oni:card-rika": "フルデリカ", "oni:card-shion": "ソノザキシオン",
    "oni:card-bat": "キンゾクバット", "oni:card-nata": "ナタ", "oni:card-kugi": "ゴスンクギ",
    "oni:card-kame": "カメ", "oni:card-kuwa": "クワ", "oni:card-tofu": "トーフノカド",
    "oni:card-forest": "モリノナカ", "oni:card-swamp": "ヌマ", "oni:card-dam": "ダムアトチ",
    "oni:card-phonebox": "デンワボックス", "oni:card-roadside": "ミチバタ", "oni:card-riverbank": "カワラ",
}


@pytest.mark.parametrize("tag", sorted(CARDS))
def test_each_onisagashi_card_reads_as_the_rules_say(g2p, tag):
    name = Phrasebook("ja", ("core", "onisagashi")).names[tag]
    assert g2p(name) == CARDS[tag]


def test_trident_pieces_and_titles_read_as_players_say_them(g2p):
    trident = Phrasebook("ja", ("core", "trident"))
    assert g2p(trident.names["trident:clover-5"]) == "クローバノゴ"
    assert g2p(trident.names["draw-4"]) == "ドローフォー"
    assert g2p(trident.render("pending", {"total": 44})) == "ドローヨンジューヨンガマッテイマス。"
    assert g2p(trident.render("opening-draw", {"seat": 2})).startswith("ニバンノホー")
    witch = Phrasebook("ja", ("core", "witch"))
    assert "アドバイス、エクソサイズ、パス" in g2p(witch.render("vote-now-all", {}))
    records = Phrasebook("ja", ("records",))
    assert [g2p(records.names[f"rank:{r}"]) for r in ("apprentice", "bishop", "knight", "general")] == [
        "トテー", "ソーリョ", "キシ", "ショーグン"]


#: Every catalogue a Japanese table speaks from: the runtime's and every game's
#: (闇に笑う魔女's "ADVISE、EXORCISE、PASS" and イントリーゲ's "BRIBE" were spelled letter by letter).
CATALOGUES = ["core", "setup", "evening", "records", "trident", "onisagashi", "witch", "mafia42", "intrigue"]


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_no_latin_word_reaches_open_jtalk(catalogue):
    """Open JTalk spells Latin letters one by one ("Draw" -> ディーアールエーダブリュー)."""
    book = Phrasebook("ja", (catalogue,))
    readings = Readings(load_readings("ja"))
    texts = list(book.phrases.values()) + list(book.names.values())
    spelled = {t: m for t in texts
               if (m:= re.findall(r"[A-Za-z]+", readings(re.sub(r"\{[a-z_]+\}", "", t))))}
    assert not spelled, f"read letter by letter by Open JTalk (give a kana reading or name): {spelled}"


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_every_card_is_read_as_a_card_not_a_banknote(g2p, catalogue):
    """札 is a tag card at every table (アグリーの札, 山札, 手札); Open JTalk alone reads it サツ,
    the word for a banknote (アグリーノサツ, ヤマサツ, シュサツ)."""
    book = Phrasebook("ja", (catalogue,))
    texts = [t for t in [*book.phrases.values(), *book.names.values()] if "札" in t]
    misread = {t: g2p(re.sub(r"\{[a-z_]+\}", "", t)) for t in texts}
    misread = {t: said for t, said in misread.items() if "サツ" in said or said.count("フダ") < t.count("札")}
    assert not misread, f"札 read otherwise than フダ: {misread}"


def test_every_game_catalogue_is_tried():
    from importlib.metadata import entry_points

    shipped = {ep.name for ep in entry_points(group="kikimimi.games")}  # not a test's own game
    assert shipped <= set(CATALOGUES)


def test_each_command_tag_has_one_name_in_japanese():
    """The setup's names of the printed tags (ADVISE -> アドバイスの札) are the ones the games
    say: no line calls BRIBE 賄賂のタグ or AGREE 合意のタグ."""
    setup = Phrasebook("ja", ("setup",)).names
    assert {setup[f"cmd:{t}"] for t in ("agree", "bribe", "ok", "raise")} == {
        "アグリーの札", "ブライブの札", "オーケーの札", "レイズの札"}
    others = ("賄賂のタグ", "合意のタグ", "挙手のタグ", "OKのタグ", "オーケーのタグ", "パスのタグ", "サイレンスのタグ")
    for catalogue in CATALOGUES:
        book = Phrasebook("ja", (catalogue,))
        for key, text in book.phrases.items():
            assert not [o for o in others if o in text], (catalogue, key, text)


def test_open_jtalk_renders_japanese_audio_of_plausible_length(tmp_path):
    openjtalk()
    ja = Renderer("ja", tmp_path)
    assert ja.engine_name == "openjtalk" and ja.health() == "ok"
    text = "犯人は園崎魅音、凶器は罌、犯行現場は河原。"
    samples, rate = ja.render(text)
    seconds = samples.size / rate
    morae = len(openjtalk().g2p(ja.spoken(text), kana=True))
    assert rate == 48000
    assert 0.06 * morae < seconds < 0.25 * morae  # ~8 morae a second, pauses allowed
    assert np.sqrt(np.mean(samples ** 2)) > 0.02 and np.abs(samples).max() <= 1.0
    fast, _ = Renderer("ja", tmp_path, rate=350).render(text)  # the rate reaches Open JTalk
    assert fast.size < 0.7 * samples.size
    assert ja.path_for(text) != ja.path_for(text, 350)
    assert "openjtalk" in ja.describe() and "kanji" in ja.describe()


def test_japanese_falls_back_to_espeak_ng_when_open_jtalk_is_missing(tmp_path):
    """A fresh process with no dictionary where Open JTalk looks: espeak-ng speaks, and says why."""
    code = ("import sys; from kikimimi.voice.render import Renderer; r = Renderer('ja', sys.argv[1]); "
            "s, rate = r.render('はーとの さん'); print(r.engine_name, r.voice, s.size > 0.3 * rate); "
            "print(r.choice.why)")
    env = {**os.environ, "OPEN_JTALK_DICT_DIR": str(tmp_path / "no-dictionary")}
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=60)
    if "espeak-ng is not installed" in proc.stderr:
        pytest.skip("espeak-ng missing")
    assert proc.returncode == 0, proc.stderr[-1500:]
    first, why = proc.stdout.splitlines()
    assert first == "espeak-ng jpx/ja True"
    assert why.startswith("fallback: no Open JTalk dictionary") and "open-jtalk-mecab-naist-jdic" in why


def test_debian_dictionary_folder_is_where_the_package_puts_it():
    if not DEBIAN_DICT_DIR.exists():
        pytest.skip("open-jtalk-mecab-naist-jdic not installed")
    assert (DEBIAN_DICT_DIR / "sys.dic").is_file()


def test_readings_respect_numbers():
    r = Readings({"ドロー4": "ドローフォー", "-": "マイナス"})
    assert r("ドロー4、ドロー44") == "ドローフォー、ドロー44"
    assert r("-1ポイント") == "マイナス1ポイント"
    assert Readings({"-": "マイナス"})("ハイ-フン") == "ハイ-フン"


@pytest.mark.parametrize("game, players", [("trident", 3), ("onisagashi", 5), ("witch", 8), ("mafia42", 8),
                                           ("intrigue", 4)])
def test_no_latin_word_in_any_text_a_japanese_table_says(game, players):
    """Every text rendered at start, parameters filled in (a reader named "hand 2" once leaked)."""
    from kikimimi.voice.domains import table_texts

    readings = Readings(load_readings("ja"))
    texts = table_texts(game, players, {}, "ja").texts
    assert not [t for t in texts if re.search(r"[A-Za-z]", readings(t))]


def test_a_pairing_codes_digits_read_one_by_one(g2p):
    """The PAIR card says a code digit by digit (kikimimi/table/pair_card.py): each digit is a word."""
    setup = Phrasebook("ja", ("core", "setup"))
    heard = [g2p(setup.render("pair-digit", {"digit": setup.names[f"digit:{d}"]})) for d in range(10)]
    assert heard == ["ゼロ", "イチ", "ニ", "サン", "ヨン", "ゴ", "ロク", "ナナ", "ハチ", "キュー"]
    assert g2p(setup.names["cmd:pair"]).startswith("ペアノ")  # 札 as every command tag's (サツ)
