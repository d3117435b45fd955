"""`kikimimi doctor --listen`: "speaker", "seat 1", "seat 2" through each output in turn, read back
from real PortAudio devices (ALSA file devices), the cards found by USB port in a sysfs-shaped tree."""
import subprocess
import sys

import numpy as np

from support.usbtree import FakeUsbTree
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, find_clip

RATE = 48000
PORTS = {"speaker": "1-1.1", "seat-1": "1-1.2", "seat-2": "1-1.3"}
TEXT = {"speaker": "Speaker.", "seat-1": "Seat 1.", "seat-2": "Seat 2."}


def table_file(tmp_path, outputs):
    cfg = tmp_path / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\n'
                   '[readers.hand-1]\nrole = "hand"\nseat = 1\ndriver = "sim"\n'
                   '[readers.hand-2]\nrole = "hand"\nseat = 2\ndriver = "sim"\n'
                   '[readers.field]\nrole = "field"\ndriver = "sim"\n' + outputs)
    return cfg


def test_each_output_says_its_own_name_and_only_there(tmp_path):
    need("espeak-ng", "libportaudio2", "alsa")
    tree = FakeUsbTree(tmp_path / "usb")
    order = ["seat-2", "speaker", "seat-1"]  # the cards' enumeration order today
    ids = ["kkc0", "kkc1", "kkc2"]
    tree.boot([PORTS[n] for n in order], ids)
    alsa = AlsaFileDevices(tmp_path / "alsa", {i: 2 for i in ids}, rate=RATE)
    cfg = table_file(tmp_path, "".join(f'[audio.outputs.{n}]\nusb = "{p}"\n' for n, p in PORTS.items()))
    env = tree.env(alsa.env())
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "doctor", "--listen", str(cfg)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "[ok ] listen seat-2: said 'Seat 2.' on 'kkc0'" in proc.stdout
    cache = tmp_path / "xdg" / "kikimimi" / "clips"
    clips = {n: expected_clip(t, cache, RATE) for n, t in TEXT.items()}
    for k, name in enumerate(order):
        said_only(alsa.read(ids[k])[:, 0], clips[name], then_more=name == "speaker")  # the kit follows


def said_only(heard, clip, then_more=False):
    """The channel holds `clip`, sample for sample, and nothing else (nothing before it, when
    `then_more`: the speaker reads the kit after its name, tests/table/test_doctor_kit_by_ear.py)."""
    start = find_clip(heard, clip)
    np.testing.assert_allclose(heard[start:start + clip.size], clip, atol=1e-7)
    assert not heard[:start].any()
    assert heard[start + clip.size:].any() if then_more else not heard[start + clip.size:].any()


def test_a_missing_earphone_is_a_finding_and_nothing_is_said_elsewhere_for_it(tmp_path):
    need("espeak-ng", "libportaudio2", "alsa")
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkear1": 2}, rate=RATE)
    cfg = table_file(tmp_path, '[audio.outputs.speaker]\ndevice = "kkspk"\n[audio.outputs.seat-1]\ndevice = "kkear1"\n'
                               '[audio.outputs.seat-2]\ndevice = "kkgone"\n')
    env = alsa.env()
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "doctor", "--listen", str(cfg)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "[FIX] listen seat-2: no output device matching 'kkgone'" in proc.stdout
    cache = tmp_path / "xdg" / "kikimimi" / "clips"
    # Each card said its own name and nothing else, so "seat 2" was said nowhere (an exact
    # comparison: a cross-correlation over the whole recording took 90 s of the suite).
    said_only(alsa.read("kkspk")[:, 0], expected_clip("Speaker.", cache, RATE), then_more=True)
    said_only(alsa.read("kkear1")[:, 0], expected_clip("Seat 1.", cache, RATE))


def test_listen_without_a_table_file_is_one_line():
    proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "doctor", "--listen"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.strip() == (
        "kikimimi: --listen needs the table file: kikimimi doctor --listen TABLE.toml")
