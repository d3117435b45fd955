"""Rendering with the real pyttsx3 engine, the clip cache, packs and resampling."""
import os
import subprocess
import sys

import numpy as np
import pytest

from kikimimi.voice.clips import read_wav, resample, write_wav
from kikimimi.voice.pack import VoicePack
from kikimimi.voice.render import Renderer, pick_voice

from voice_needs import need


@pytest.fixture(scope="module")
def en(clip_cache):
    need("espeak-ng")
    r = Renderer("en", clip_cache)
    yield r
    r.close()


def test_renders_speech_once_and_reuses_the_cache(en, clip_cache):
    samples, rate = en.render("Seat two, your turn.")
    assert rate > 8000
    assert samples.size > rate * 0.3  # at least 0.3 s of audio
    assert np.sqrt(np.mean(samples ** 2)) > 0.01  # not silence
    before = en.renders
    again, _ = en.render("Seat two, your turn.")
    assert en.renders == before
    np.testing.assert_array_equal(again, samples)
    # a second renderer on the same cache (a restart) synthesises nothing
    restarted = Renderer("en", clip_cache)
    try:
        restarted.render("Seat two, your turn.")
        assert restarted.renders == 0
    finally:
        restarted.close()


def test_cache_key_separates_voice_rate_and_text(en, clip_cache):
    slow = Renderer("en", clip_cache, rate=120)
    try:
        assert slow.path_for("hello") != en.path_for("hello")
        a, _ = en.render("hello")
        b, _ = slow.render("hello")
        assert b.size > a.size * 1.2  # slower speech is longer
    finally:
        slow.close()
    assert en.path_for("hello") != en.path_for("hello!")


def test_speech_rate_is_applied_to_every_clip_whatever_came_before(clip_cache):
    """pyttsx3 2.99's espeak driver got this wrong (see render.py): guard it."""
    need("espeak-ng")
    sizes = {}
    for rate in (80, 300, 120, 300, 80):
        size = Renderer("en", clip_cache / f"r{rate}-{len(sizes)}", rate=rate).render("hello there my friend")[0].size
        sizes.setdefault(rate, set()).add(size)
    assert all(len(s) == 1 for s in sizes.values())  # same rate, same clip
    assert min(sizes[80]) > 1.4 * min(sizes[120]) > 1.4 * 1.4 * min(sizes[300]) * 0.9


def test_pyttsx3_engine_renders_a_clip(tmp_path):
    """The pyttsx3 path (used off Linux) in a process of its own: one engine per process."""
    need("espeak-ng")
    code = ("import sys; from kikimimi.voice.render import Renderer; "
            "r = Renderer('ja', sys.argv[1], engine='pyttsx3'); s, rate = r.render('はーとの さん'); "
            "print(r.engine_name, r.voice, s.size, rate, abs(s).max())")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
                          env={**os.environ, "KIKIMIMI_TTS": "pyttsx3"}, timeout=60)
    assert proc.returncode == 0, proc.stderr[-1500:]
    name, voice, size, rate, peak = proc.stdout.split()
    assert name == "pyttsx3" and voice.endswith("ja")
    assert int(size) > 0.3 * int(rate) and float(peak) > 0.05


def test_espeak_ng_speaks_japanese_with_its_japanese_voice(clip_cache):
    need("espeak-ng")
    ja = Renderer("ja", clip_cache, engine="espeak-ng")
    try:
        samples, _ = ja.render("はーとの さん")
        assert ja.health() == "ok"
        assert ja.voice is not None and ja.voice.split("/")[-1] == "ja"
        assert samples.size > 0 and np.abs(samples).max() > 0.05
    finally:
        ja.close()


def test_renderer_on_worker_thread_is_safe_from_many_callers(en):
    texts = [f"piece number {n}" for n in range(6)]
    futures = [en.submit(t) for t in texts + texts]
    clips = [f.result()[0] for f in futures]
    for a, b in zip(clips[:6], clips[6:]):
        np.testing.assert_array_equal(a, b)
    assert len({c.size for c in clips[:6]}) > 1 or not all(np.array_equal(clips[0], c) for c in clips[1:6])


def test_renderer_does_not_print_to_stdout(en, capfd):
    en.render("nothing on stdout please")
    assert capfd.readouterr().out == ""


def test_unknown_language_reports_instead_of_crashing(clip_cache):
    need("espeak-ng")
    r = Renderer("tlh", clip_cache)
    try:
        assert "no speech voice" in r.health()
        with pytest.raises(Exception, match="no speech voice"):
            r.render("Qapla")
    finally:
        r.close()


class V:
    def __init__(self, id, languages):
        self.id, self.languages = id, languages


def test_pick_voice_prefers_the_bare_language():
    voices = [V("gmw/en-us", ["en-us"]), V("gmw/en", ["en-gb"]), V("jpx/ja", ["ja"]), V("roa/fr", ["fr-fr"])]
    assert pick_voice(voices, "en") == "gmw/en"
    assert pick_voice(voices, "ja") == "jpx/ja"
    assert pick_voice(voices, "fr") == "roa/fr"
    assert pick_voice(voices, "de") is None


def test_resample_keeps_pitch_and_length():
    src, dst = 22050, 48000
    t = np.arange(src) / src
    tone = (0.5 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    out = resample(tone, src, dst)
    assert out.size == dst
    spectrum = np.abs(np.fft.rfft(out[dst // 10: dst // 10 + dst // 2]))
    peak_hz = np.argmax(spectrum) * dst / (dst // 2)
    assert abs(peak_hz - 440) < 3
    assert abs(np.abs(out[1000:-1000]).max() - 0.5) < 0.02
    np.testing.assert_array_equal(resample(tone, src, src), tone)


def test_wav_round_trip_and_pack_lookup(tmp_path):
    tone = (0.25 * np.sin(np.linspace(0, 200, 4000))).astype(np.float32)
    write_wav(tmp_path / "game-is-over.wav", tone, 16000)
    (tmp_path / "notes.txt").write_text("not a clip")
    pack = VoicePack(tmp_path)
    assert "game-is-over" in pack and "notes" not in pack
    samples, rate = pack.load("game-is-over")
    assert rate == 16000
    np.testing.assert_allclose(samples, tone, atol=1 / 32767)
    (tmp_path / "broken.wav").write_bytes(b"RIFF nonsense")
    with pytest.raises(ValueError, match="broken.wav"):
        read_wav(tmp_path / "broken.wav")


def test_a_wav_too_long_for_a_phrase_is_refused_in_one_line(tmp_path):
    import struct

    path = tmp_path / "hour.wav"
    write_wav(path, np.zeros(10, np.float32), 8000)
    data = bytearray(path.read_bytes())
    data[40:44] = struct.pack("<I", 8000 * 3600 * 2)  # the header claims an hour
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="not a phrase"):
        read_wav(path)
