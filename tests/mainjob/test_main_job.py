"""The README's main job: a simulated Trident game, heard through the sound
device when there is one (here an ALSA device recorded to a file), shown as
text either way."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from support.virtual_sound import SYSTEM_ALSA_CONF, AlsaFileDevices, missing_tools


def test_the_demo_speaks_through_the_default_sound_device(tmp_path):
    missing = missing_tools("espeak-ng")
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    devices = AlsaFileDevices(tmp_path / "alsa", {"kkdemo": 2})
    devices.conf.write_text(devices.conf.read_text() + 'pcm.!default "kkdemo"\n')
    env = {**devices.env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run([sys.executable, "-m", "kikimimi.cli", "sim", "trident", "--seed", "2",
                             "--voice", "audio"], capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "speaking through the sound device" in result.stderr
    assert "[    speaker]" in result.stdout and "game over" in result.stdout  # and shown as text
    heard = devices.read("kkdemo")
    assert heard.shape[0] > 48000 * 5  # seconds of speech, not a click
    assert np.abs(heard).max() > 0.05


def test_without_a_sound_device_the_demo_says_so_and_shows_text(tmp_path):
    # only the system's ALSA config, and no sound server: what a headless machine has
    env = {**os.environ, "ALSA_CONFIG_PATH": SYSTEM_ALSA_CONF, "PULSE_SERVER": str(tmp_path / "none")}
    probe = subprocess.run([sys.executable, "-c", "from kikimimi.voice.devices import available; "
                            "print(available() is None)"], capture_output=True, text=True, env=env)
    if probe.stdout.strip() == "True":
        pytest.skip("this machine has a real sound card")
    result = subprocess.run([sys.executable, "-m", "kikimimi.cli", "sim", "trident", "--seed", "2",
                             "--voice", "auto"], capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "no sound device" in result.stderr and "text only" in result.stderr
    assert "game over" in result.stdout
