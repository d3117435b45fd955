"""Why the unit of a table with sound cards leaves out MemoryDenyWriteExecute=.

systemd's MemoryDenyWriteExecute= refuses memory that is writable and executable;
the kernel's PR_SET_MDWE (Linux 6.3) refuses the same, so a child process under it
shows what the table's sound stack does there: sounddevice's stream callback is a
cffi closure, and no card plays.  Without it the same child plays the tone, read
back from a virtual ALSA device."""
import subprocess
import sys

import numpy as np
import pytest

from kikimimi.box.service import unit_text
from kikimimi.table.config import load_table_config
from support.virtual_sound import AlsaFileDevices


PLAYER = """
import ctypes, sys
if sys.argv[2] == "mdwe" and ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0) != 0:
    sys.exit(3)
import numpy as np, sounddevice as sd
tone = (0.5 * np.sin(np.arange(4800) * 2 * np.pi * 440 / 48000)).astype("float32")
pos = 0
def callback(out, frames, time, status):
    global pos
    chunk = tone[pos:pos + frames]
    out[:len(chunk), 0] = chunk
    out[len(chunk):] = 0
    pos += frames
    if pos >= len(tone):
        raise sd.CallbackStop
try:
    with sd.OutputStream(device=sys.argv[1], channels=1, samplerate=48000, dtype="float32", callback=callback) as s:
        while s.active:
            sd.sleep(10)
except MemoryError as exc:
    print("refused:", exc)
    sys.exit(4)
"""


def mdwe_supported() -> bool:
    """Ask in a child: the flag cannot be taken back, and must not reach this test process."""
    probe = subprocess.run([sys.executable, "-c", "import ctypes, sys; "
                            "sys.exit(ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) != 0)"], timeout=60)
    return probe.returncode == 0


def play(alsa: AlsaFileDevices, mode: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PLAYER, "kkcard", mode], env=alsa.env(), capture_output=True,
                          text=True, timeout=120)


def test_sounddevice_cannot_play_without_writable_executable_memory(tmp_path):
    pytest.importorskip("sounddevice")
    if not mdwe_supported():
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3+) to stand in for MemoryDenyWriteExecute=")
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkcard": 1})
    free = play(alsa, "free")
    assert free.returncode == 0, free.stderr
    assert float(np.abs(alsa.read("kkcard")).max()) > 0.4  # the tone reached the card
    alsa.raw_path("kkcard").unlink()
    locked = play(alsa, "mdwe")
    assert locked.returncode == 4 and "write+execute memory" in locked.stdout, locked.stdout + locked.stderr


def test_only_a_table_with_sound_cards_leaves_memory_protection_out(tmp_path):
    quiet = tmp_path / "quiet.toml"
    quiet.write_text('[table]\ngame = "trident"\nplayers = 3\n'
                     + "".join(f'[readers.hand-{i}]\nrole = "hand"\nseat = {i}\ndriver = "sim"\n' for i in (1, 2, 3)))
    loud = tmp_path / "loud.toml"
    loud.write_text(quiet.read_text() + '[audio.outputs.speaker]\ndevice = "default"\n')
    assert "MemoryDenyWriteExecute=yes" in unit_text(load_table_config(quiet), "kikimimi", [], "/usr/bin/python3")
    assert "MemoryDenyWriteExecute" not in unit_text(load_table_config(loud), "kikimimi", [], "/usr/bin/python3")
