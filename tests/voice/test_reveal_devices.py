"""A reveal to several seats (`kikimimi.contract.protocol.reveal`: one `reveal` event, private to
those seats) through real PortAudio into ALSA file devices: each listed earphone plays it, the
speaker and the unlisted earphones never do."""
import numpy as np
import pytest

from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, find_clip, play

RATE = 48000
PARTNERS = "Your partner: seat two."


@pytest.fixture
def devices(tmp_path):
    need("espeak-ng", "libportaudio2", "alsa")
    return AlsaFileDevices(tmp_path / "alsa", {"kkquad": 4, "kkpair": 2, "kkmono": 2}, rate=RATE)


def test_each_listed_earphone_hears_a_reveal_and_nobody_else(devices, tmp_path, clip_cache):
    audio = {"outputs": {"speaker": {"device": "kkquad", "channels": [1, 2]},
                         "seat-1": {"device": "kkquad", "channels": [3, 4]},
                         "seat-2": {"device": "kkpair", "channels": [1, 2]},
                         "seat-3": {"device": "kkmono", "channels": [1, 2]}}}
    reveal = {"type": "reveal", "private": ["seat:1", "seat:2"], "key": "partners", "text": PARTNERS, "in": 1}
    result = play({"audio": audio, "players": 3, "lang": "en", "cache_dir": str(clip_cache),
                   "steps": [{"emit": [reveal]}, {"wait": 10}]}, devices.env(), tmp_path)
    assert result["problems"] == []
    clip = expected_clip(PARTNERS, clip_cache, RATE)
    quad, pair = devices.read("kkquad"), devices.read("kkpair")
    assert find_clip(quad[:, 2], clip) >= 0 and find_clip(pair[:, 0], clip) >= 0
    assert not quad[:, :2].any()  # the speaker: silent
    assert not devices.raw_path("kkmono").exists() or not devices.read("kkmono").any()  # seat 3: silent
