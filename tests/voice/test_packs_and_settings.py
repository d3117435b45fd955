"""Recorded packs override exactly their keys; `voice` console lines set an output's rate and volume;
every phrase a table can say is expanded before the first input."""
import json
import subprocess
import sys

import numpy as np
import pytest

from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.phrases import Phrasebook
from kikimimi.voice.clips import resample, write_wav
from kikimimi.voice.config import AudioSpec, parse_audio
from kikimimi.voice.domains import expand, placeholders, table_texts
from kikimimi.voice.output import AudioOutput
from kikimimi.voice.pack import VoicePack
from kikimimi.voice.settings import parse_voice_command
from voice_needs import need

TONE = (0.3 * np.sin(np.linspace(0, 900, 8000))).astype(np.float32)


@pytest.fixture
def pack(tmp_path):
    folder = tmp_path / "pack"
    folder.mkdir()
    write_wav(folder / "game-is-over.wav", TONE, 16000)
    write_wav(folder / "turn@seat=2.wav", TONE[::2], 16000)
    write_wav(folder / "hand-piece@piece=trident_heart-3.wav", TONE[::4], 16000)
    return folder


def test_a_pack_with_some_keys_overrides_exactly_those_keys(pack, clip_cache):
    need("espeak-ng")
    book = Phrasebook("en", ("core", "trident"))
    values = {"seat": [1, 2], "piece": ["trident:heart-3", "trident:spade-1"]}
    spec = AudioSpec({}, pack=pack)
    with AudioOutput(spec, 2, "en", cache_dir=clip_cache, muted=["speaker", "seat-1", "seat-2"]) as out:
        recorded = []
        for key, template in book.phrases.items():
            names = placeholders(template)
            for seat in values["seat"]:
                for piece in values["piece"]:
                    params = {n: {"seat": seat, "piece": piece}.get(n, 3) for n in names}
                    if out._source("speaker", key, book.render(key, params), params)[0] == "pack":
                        recorded.append((key, tuple(sorted(params.items()))))
        assert sorted(set(recorded)) == sorted({
            ("game-is-over", ()), ("turn", (("seat", 2),)),
            ("hand-piece", (("piece", "trident:heart-3"),))})
        got = out.clip("Game over.", 48000, "game-is-over", {})
        np.testing.assert_allclose(got, resample(TONE, 16000, 48000), atol=2e-4)
        spoken = out.clip(book.render("turn", {"seat": 1}), 48000, "turn", {"seat": 1})
        assert spoken.size != resample(TONE[::2], 16000, 48000).size  # seat 1 is synthesised


def test_voices_check_lists_missing_and_unused_keys(pack, tmp_path):
    write_wav(pack / "no-such-phrase.wav", TONE, 16000)
    write_wav(pack / "turn@colour=red.wav", TONE, 16000)
    (pack / "turn@oops.wav").write_bytes(b"")
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "voices", "check", str(pack), "trident", "ja"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    missing = {ln.split()[1] for ln in lines if ln.startswith("missing: ")}
    book = Phrasebook("ja", ("core", "trident"))
    assert missing == set(book.phrases) - {"game-is-over", "turn", "hand-piece"}
    unused = [ln for ln in lines if ln.startswith("unused: ")]
    assert any("no-such-phrase.wav: no phrase" in ln for ln in unused)
    assert any("turn@colour=red.wav" in ln and "colour" in ln for ln in unused)
    assert any("turn@oops.wav" in ln for ln in unused)
    assert len(unused) == 3


def test_voice_console_line_is_a_runtime_event_not_a_game_input():
    header = {"game": "trident", "players": 3, "lang": "ja"}
    log = run_script([json.dumps(header),
                      json.dumps({"t": 1, "console": "voice seat-2 rate 320"}),
                      json.dumps({"t": 2, "console": "voice speaker volume 80"}),
                      json.dumps({"t": 3, "console": "voice seat-9 rate 320"}),
                      json.dumps({"t": 4, "console": "voice seat-1 rate 9999"})])
    voice = [e for e in log if e["type"] == "voice"]
    assert [(e["output"], e.get("rate"), e.get("volume")) for e in voice] == [
        ("seat-2", 320, None), ("speaker", None, 80)]
    assert all(e["private"] == "referee" for e in voice)  # a player's setting is nobody else's business
    assert not [e for e in public_view(log) if e["type"] == "voice"]
    errors = [e["message"] for e in log if e["type"] == "error"]
    assert errors == ["voice: no output 'seat-9' (speaker or seat-1 .. seat-3)",
                      "voice: rate must be 40-600 words per minute"]


@pytest.mark.parametrize("line", ["voice", "voice seat-1 pitch 3", "voice seat-1 rate fast",
                                  "voice seat-1 rate 1e9", "voice x" * 200, "voice seat-0 rate 100",
                                  "voice speaker rate ²", "voice seat-1 volume ٣٠"])
def test_broken_voice_lines_are_refused_in_one_line(line):
    got = parse_voice_command(line, 3)
    assert isinstance(got, str) and "\n" not in got and len(got) < 120


def test_per_output_rate_and_volume_from_config_and_console(clip_cache):
    need("espeak-ng")
    spec = parse_audio({"rate": 160, "outputs": {"seat-1": {"device": "nothing-here", "rate": 320}}}, 2)
    assert spec.outputs["seat-1"].rate == 320
    with pytest.raises(ValueError, match="audio.outputs.seat-1.rate"):
        parse_audio({"outputs": {"seat-1": {"rate": 5}}}, 2)
    with pytest.raises(ValueError, match="audio.engine"):
        parse_audio({"engine": "festival"}, 2)
    with AudioOutput(spec, 2, "en", cache_dir=clip_cache, muted=["speaker", "seat-2"]) as out:
        assert out.wpm("seat-1") == 320 and out.wpm("speaker") == 160
        out.prepare(["Seat two."], progress=False)
        fast = out.clip("Seat two.", 48000, output="seat-1")
        out.restore([{"type": "voice", "output": "seat-1", "rate": 100, "private": "referee"}])
        assert out.wpm("seat-1") == 100
        slow = out.clip("Seat two.", 48000, output="seat-1")
        assert slow.size > 2 * fast.size


def test_every_phrase_is_expanded_over_the_table_s_values():
    got = table_texts("onisagashi", 5, {}, "ja")
    book = Phrasebook("ja", ("core", "onisagashi"))
    assert got.on_demand == {}
    assert "はなこ" in table_texts("onisagashi", 5, {}, "ja", extra_names=["はなこ"]).texts
    assert "園崎魅音、あなたのカードです。" in got.texts
    assert book.render("declare", {"seat": 5, "cards": ["oni:card-rika", "oni:card-kame", "oni:card-riverbank"]}) \
        in got.texts
    assert book.render("have", {"seats": [1, 3, 4]}) in got.texts
    assert len(got.texts) == len(set(got.texts))
    trident = table_texts("trident", 3, {}, "en")
    assert "rank-points" in trident.on_demand  # too many variants: said once, at the end
    assert trident.per_key["turn"] == 3
    tiny = expand(Phrasebook("en", ("core", "trident")), {"seat": [1], "deal.count": [5]}, max_variants=10)
    assert "turn" in tiny.per_key and tiny.on_demand["draw-more"].startswith("no domain for count")
    assert tiny.per_key["deal"] == 1  # a "phrase.param" domain narrows one phrase


def test_pack_names_survive_odd_values():
    folder_less = VoicePack(None)
    assert folder_less.match("turn", {"seat": 2}) is None


def test_until_the_new_rate_is_rendered_the_nearest_rate_stands_in(clip_cache):
    need("espeak-ng")
    with AudioOutput(AudioSpec({}, rate=175), 2, "en", cache_dir=clip_cache,
                     muted=["speaker", "seat-1", "seat-2"]) as out:
        for wpm in (120, 175):
            out._sources[("tts", "Draw four more.", wpm)] = out.renderer.render("Draw four more.", wpm)
        near = out._stand_in(("tts", "Draw four more.", 320), 48000)
        np.testing.assert_array_equal(near, out._samples(("tts", "Draw four more.", 175), 48000))
        assert out._stand_in(("tts", "Never said.", 320), 48000) is None
        assert out._stand_in(("pack", "turn", 0), 48000) is None


def test_a_broken_pack_file_is_told_once_and_its_phrase_is_synthesised_or_dropped(tmp_path, clip_cache):
    need("espeak-ng")
    (tmp_path / "turn@seat=2.wav").write_bytes(b"RIFF broken")
    with AudioOutput(AudioSpec({}, pack=tmp_path), 2, "en", cache_dir=clip_cache,
                     muted=["speaker", "seat-1", "seat-2"]) as out:
        told = out.emit([])
        assert len(told) == 1 and "turn@seat=2.wav" in told[0] and "not a PCM WAV" in told[0]
        with pytest.raises(ValueError):
            out.clip("Seat 2.", 48000, "turn", {"seat": 2})
        assert out.clip("Seat 1.", 48000, "turn", {"seat": 1}).size > 0  # other seats still speak


def test_an_unusable_clip_cache_folder_is_one_line(tmp_path):
    from kikimimi.voice.render import Renderer

    (tmp_path / "afile").write_text("")
    with pytest.raises(ValueError, match="cannot hold the clip cache") as info:
        Renderer("en", tmp_path / "afile" / "clips")
    assert "\n" not in str(info.value)
