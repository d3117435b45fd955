"""`kikimimi doctor` findings on virtual ALSA devices (in a child interpreter, see player.py)."""
import json
import subprocess
import sys

from support.virtual_sound import AlsaFileDevices
from voice_needs import need

CODE = """
import json, sys
from kikimimi.voice.checks import doctor_checks
audio = json.loads(sys.argv[1])
print(json.dumps([[c.name, c.ok, c.detail, c.fix] for c in doctor_checks(audio, 2, "ja")]))
"""


def run_checks(env, audio):
    proc = subprocess.run([sys.executable, "-c", CODE, json.dumps(audio)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-1500:]
    return {name: (ok, detail, fix) for name, ok, detail, fix in json.loads(proc.stdout)}


def test_doctor_maps_outputs_and_names_the_fix(tmp_path):
    need("libportaudio2", "alsa", "espeak-ng")
    devices = AlsaFileDevices(tmp_path, {"kkquad": 4, "kkpair": 2})
    found = run_checks(devices.env(), {"outputs": {
        "speaker": {"device": "kkquad", "channels": [1, 2]},
        "seat-1": {"device": "kkpair", "channels": [129, 130]},
        "seat-2": {"device": "usb headset"}}})
    assert found["audio devices"][0] and "kkquad" in found["audio devices"][1]
    ok, detail, fix = found["voice ja"]  # Open JTalk, or espeak-ng named as a fallback with the fix
    assert (ok and detail.startswith("openjtalk ") and "reads kanji" in detail) or (
        not ok and "espeak-ng" in detail and "fallback" in detail and "open-jtalk-mecab-naist-jdic" in fix)
    assert found["output speaker"][0] and "channels [1, 2]" in found["output speaker"][1]
    ok, detail, fix = found["output seat-1"]
    assert not ok and "128 channels" in detail and "1..128" in fix  # ALSA plug PCMs offer 128
    ok, detail, fix = found["output seat-2"]
    assert not ok and "usb headset" in detail and fix.startswith("plug it in or set device =")


def test_doctor_reports_a_broken_audio_table_in_one_line(tmp_path):
    need("libportaudio2", "alsa", "espeak-ng")
    devices = AlsaFileDevices(tmp_path, {"kkpair": 2})
    found = run_checks(devices.env(), {"outputs": {"seat-7": {"device": "kkpair"}}})
    ok, detail, _ = found["audio config"]
    assert not ok and detail.startswith("audio.outputs.seat-7:")
