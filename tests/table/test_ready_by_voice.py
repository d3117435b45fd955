"""A served table says on the speaker which earphone is missing, then that the table starts anyway
(a boot service has no screen; "ready" is said only when nothing is missing); read back from real PortAudio devices (ALSA file devices)."""
import subprocess
import sys

from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, locate_clip

RATE = 48000


def test_serve_says_the_missing_earphone_then_starts_anyway_on_the_speaker_only(tmp_path, xdg_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkear1": 2}, rate=RATE)
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\n'
                   '[readers.hand-1]\nrole = "hand"\nseat = 1\ndriver = "sim"\n'
                   '[readers.hand-2]\nrole = "hand"\nseat = 2\ndriver = "sim"\n'
                   '[readers.field]\nrole = "field"\ndriver = "sim"\n'
                   '[audio.outputs.speaker]\ndevice = "kkspk"\n[audio.outputs.seat-1]\ndevice = "kkear1"\n'
                   '[audio.outputs.seat-2]\ndevice = "kkgone"\n')
    env = alsa.env()
    env["XDG_CACHE_HOME"] = str(xdg_cache)
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "serve", str(cfg), "--sim-readers", "/dev/null",
                           "--quiet"], env=env, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    cache = xdg_cache / "kikimimi" / "clips"
    missing = expected_clip("The earphone of seat 2 is missing.", cache, RATE)
    ready = expected_clip("The table starts anyway.", cache, RATE)  # "ready" only when nothing is missing
    speaker, ear = alsa.read("kkspk")[:, 0], alsa.read("kkear1")[:, 0]
    at_missing, at_ready = locate_clip(speaker, missing), locate_clip(speaker, ready)
    assert 0 <= at_missing < at_ready, (at_missing, at_ready)
    assert locate_clip(ear, ready) == -1 and locate_clip(ear, missing) == -1  # the speaker's, not an earphone's
