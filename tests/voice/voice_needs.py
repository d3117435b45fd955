"""Skip helpers for the voice tests: a skip reason names the missing system package."""
import ctypes.util
import shutil
from pathlib import Path

import pytest


def need(*what: str) -> None:
    """Skip (not fail) when a system package the test needs is absent; CI installs them."""
    packages = {
        "espeak-ng": lambda: ctypes.util.find_library("espeak-ng") or ctypes.util.find_library("espeak"),
        "libportaudio2": lambda: ctypes.util.find_library("portaudio"),
        "alsa": lambda: Path("/usr/share/alsa/alsa.conf").exists() and ctypes.util.find_library("asound"),
        "pulseaudio": lambda: shutil.which("pulseaudio") and shutil.which("parec") and shutil.which("pactl"),
        "libasound2-plugins": lambda: Path("/usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_pulse.so").exists()
        or any(Path("/usr/lib").glob("*/alsa-lib/libasound_module_pcm_pulse.so")),
    }
    missing = [w for w in what if not packages[w]()]
    if missing:
        pytest.skip(f"system package missing: {', '.join(missing)} (apt-get install {' '.join(missing)})")
