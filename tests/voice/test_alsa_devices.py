"""Routing through real PortAudio into ALSA file devices, checked sample for sample.

Each test plays in a child interpreter (ALSA reads its configuration when
PortAudio starts) and then reads what every virtual device received.
"""
import numpy as np
import pytest

from kikimimi.voice.clips import write_wav
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, find_clip, play, say

RATE = 48000
TABLE = "Seat two, your turn."
SECRET = "Your hand: heart three."


@pytest.fixture
def devices(tmp_path):
    need("espeak-ng", "libportaudio2", "alsa")
    return AlsaFileDevices(tmp_path / "alsa", {"kkquad": 4, "kkpair": 2}, rate=RATE)


def outputs(**override):
    base = {
        "speaker": {"device": "kkquad", "channels": [1, 2]},
        "seat-1": {"device": "kkquad", "channels": [3, 4], "volume": 0.5},
        "seat-2": {"device": "kkpair", "channels": [1, 2]},
    }
    base.update(override)
    return {"outputs": base}


def assert_only(channel: np.ndarray, clip: np.ndarray, volume: float = 1.0) -> None:
    start = find_clip(channel, clip)
    assert start >= 0
    want = clip * np.float32(volume)
    np.testing.assert_allclose(channel[start:start + clip.size], want, rtol=0, atol=1e-7)
    assert not channel[:start].any() and not channel[start + clip.size:].any()


def test_private_phrase_reaches_only_its_earphone_and_public_only_the_speaker(devices, tmp_path, clip_cache):
    result = play({"audio": outputs(), "players": 2, "lang": "en", "cache_dir": str(clip_cache),
                   "steps": [{"emit": [say("seat:1", SECRET, "hand-piece"), say("table", TABLE, "turn")]},
                             {"wait": 10}]}, devices.env(), tmp_path)
    assert result["problems"] == []
    assert result["health_after"] == {"speaker": "ok", "seat-1": "ok", "seat-2": "ok", "voice": "ok"}
    quad, pair = devices.read("kkquad"), devices.read("kkpair")
    secret, table = expected_clip(SECRET, clip_cache, RATE), expected_clip(TABLE, clip_cache, RATE)
    assert_only(quad[:, 0], table)
    assert_only(quad[:, 1], table)
    assert_only(quad[:, 2], secret, volume=0.5)
    assert_only(quad[:, 3], secret, volume=0.5)
    assert pair.shape[0] > 0 and not pair.any()  # seat 2 heard nothing


def test_missing_earphone_drops_the_private_phrase_and_tells_the_referee(devices, tmp_path, clip_cache):
    audio = outputs(**{"seat-2": {"device": "nosuchcard", "channels": [1, 2]}})
    result = play({"audio": audio, "players": 2, "lang": "en", "cache_dir": str(clip_cache),
                   "steps": [{"emit": [say("seat:2", SECRET, "hand-piece"), say("table", TABLE)]},
                             {"wait": 10}]}, devices.env(), tmp_path)
    health = result["health_before"]["seat-2"]
    assert "nosuchcard" in health and "plug it in or set device =" in health and "kkquad" in health
    assert len(result["problems"]) == 1
    assert result["problems"][0].startswith("seat-2:") and "'hand-piece' dropped" in result["problems"][0]
    quad = devices.read("kkquad")
    assert_only(quad[:, 0], expected_clip(TABLE, clip_cache, RATE))
    assert not quad[:, 2:].any()  # not re-routed to seat 1 either
    assert not devices.raw_path("kkpair").exists() or not devices.read("kkpair").any()


def test_recorded_pack_overrides_synthesis(devices, tmp_path, clip_cache):
    pack = tmp_path / "pack"
    pack.mkdir()
    tone = (0.3 * np.sin(np.arange(11025) * 2 * np.pi * 330 / 22050)).astype(np.float32)
    write_wav(pack / "turn.wav", tone, 22050)
    audio = outputs()
    audio["pack"] = str(pack)
    play({"audio": audio, "players": 2, "lang": "en", "cache_dir": str(clip_cache),
          "steps": [{"emit": [say("table", TABLE, "turn")]}, {"wait": 10}]}, devices.env(), tmp_path)
    speaker = devices.read("kkquad")[:, 0]
    heard = speaker[np.flatnonzero(speaker)[0]:]
    assert heard.size >= 24000  # the 0.5 s tone at 48 kHz, not the longer speech
    assert np.flatnonzero(speaker).size <= 24000
    assert abs(np.abs(heard).max() - 0.3) < 0.01


def test_demo_default_device_plays_the_speaker_and_the_listened_seat(tmp_path, clip_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    devices = AlsaFileDevices(tmp_path / "alsa", {"kkdefault": 2}, rate=RATE)
    (tmp_path / "alsa" / "asound.conf").write_text(
        devices.conf.read_text() + 'pcm.!default "kkdefault"\n')
    result = play({"default_device": True, "players": 3, "lang": "en", "cache_dir": str(clip_cache),
                   "listen": ["table", "seat:1"],
                   "steps": [{"emit": [say("seat:2", "bot two secret")]},
                             {"emit": [say("seat:1", SECRET)]}, {"wait": 10}]}, devices.env(), tmp_path)
    assert result["problems"] == []  # other seats are bots: not heard, not a fault
    assert set(result["health_after"]) == {"speaker", "seat-1", "voice"}
    left = devices.read("kkdefault")[:, 0]
    assert_only(left, expected_clip(SECRET, clip_cache, RATE))


def test_earphone_vanishing_mid_game_is_reported_and_never_rerouted(tmp_path, clip_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    devices = AlsaFileDevices(tmp_path / "alsa", {"kkquad": 4, "kkpair": 2}, rate=RATE,
                              vanish_after={"kkpair": 200_000})
    result = play({"audio": outputs(), "players": 2, "lang": "en", "cache_dir": str(clip_cache),
                   "steps": [{"sleep": 0.3},  # the pair device dies meanwhile (its pipe closes)
                             {"emit": [say("seat:2", SECRET, "hand-piece"), say("table", TABLE)]},
                             {"wait": 10}]}, devices.env(), tmp_path)
    assert result["health_before"]["seat-2"] == "ok"
    assert "kkpair" in result["health_after"]["seat-2"] and "plug it back in" in result["health_after"]["seat-2"]
    assert result["health_after"]["seat-1"] == "ok" and result["health_after"]["speaker"] == "ok"
    assert any(p.startswith("seat-2:") and "'hand-piece' dropped" in p for p in result["problems"])
    quad = devices.read("kkquad")
    assert_only(quad[:, 0], expected_clip(TABLE, clip_cache, RATE))
    assert not quad[:, 2:].any()  # seat 1's earphone never got seat 2's secret


def _last_clip_start(channel: np.ndarray, clip: np.ndarray) -> int:
    """Where `clip` starts if it is the last thing the channel played (aligned on its last sound)."""
    return int(np.flatnonzero(channel)[-1]) - int(np.flatnonzero(clip)[-1])


def test_referee_sets_an_earphone_s_rate_and_another_s_volume_mid_game(devices, tmp_path, clip_cache):
    """`voice seat-1 volume 25` and `voice seat-2 rate 320`, as the engine logs them, on real PortAudio."""
    voice = [{"type": "voice", "output": "seat-1", "volume": 25, "private": "referee", "in": 2},
             {"type": "voice", "output": "seat-2", "rate": 320, "private": "referee", "in": 3}]
    result = play({"audio": outputs(), "players": 2, "lang": "en", "cache_dir": str(clip_cache),
                   "steps": [{"emit": [say("seat:1", SECRET, "hand-piece"), say("seat:2", SECRET, "hand-piece")]},
                             {"wait": 10}, {"emit": voice}, {"sleep": 2},  # the new rate renders meanwhile
                             {"emit": [say("seat:1", TABLE, "turn"), say("seat:2", TABLE, "turn")]},
                             {"wait": 10}]}, devices.env(), tmp_path)
    assert result["problems"] == []
    quad, pair = devices.read("kkquad"), devices.read("kkpair")
    normal = expected_clip(TABLE, clip_cache, RATE)
    fast = expected_clip(TABLE, clip_cache, RATE, wpm=320)
    assert fast.size < 0.75 * normal.size
    seat1 = quad[:, 2]  # configured at volume 0.5; the referee turned it down to 25 %
    start = _last_clip_start(seat1, normal)
    np.testing.assert_allclose(seat1[start:start + normal.size], normal * np.float32(0.25), atol=1e-7)
    seat2 = pair[:, 0]  # the same phrase, rendered at 320 words a minute
    start = _last_clip_start(seat2, fast)
    np.testing.assert_allclose(seat2[start:start + fast.size], fast, atol=1e-7)
