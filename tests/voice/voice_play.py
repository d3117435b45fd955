"""Run tests/voice/player.py in a fresh interpreter on virtual devices, and read back."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from kikimimi.voice.clips import as_float
from kikimimi.voice.render import Renderer

PLAYER = Path(__file__).with_name("player.py")


def play(job: dict, env: dict, tmp: Path, timeout: float = 60) -> dict:
    path = tmp / "job.json"
    path.write_text(json.dumps(job))
    proc = subprocess.run([sys.executable, str(PLAYER), str(path)], env=env,
                          capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def say(to: str, text: str, key: str = "phrase") -> dict:
    return {"type": "say", "to": to, "key": key, "params": {}, "text": text, "in": 1}


def expected_clip(text: str, cache: Path, rate: int, lang: str = "en", wpm: int | None = None) -> np.ndarray:
    """What the player must have sent: the cached render at the device's rate, as the player maps it."""
    renderer = Renderer(lang, cache)
    renderer.render(text, wpm)
    samples, got_rate = renderer.load_at(text, wpm, rate)
    assert got_rate == rate
    return as_float(samples)


def find_clip(channel: np.ndarray, clip: np.ndarray) -> int:
    """Where `clip` starts in `channel`, aligned on the first non-zero sample of each."""
    first_in_clip = int(np.flatnonzero(clip)[0])
    nz = np.flatnonzero(channel)
    assert nz.size, "channel is silent"
    return int(nz[0]) - first_in_clip


def locate_clip(channel: np.ndarray, clip: np.ndarray) -> int:
    """Where `clip` is in `channel`, sample for sample, or -1 (a channel may hold other phrases too)."""
    if channel.size < clip.size:
        return -1
    first = int(np.flatnonzero(clip)[0])
    for at in np.flatnonzero(channel == clip[first]):
        start = int(at) - first
        if start >= 0 and np.allclose(channel[start:start + clip.size], clip, atol=1e-7):
            return start
    return -1
