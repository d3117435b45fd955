"""Clips mapped from the cache hold no file descriptor: a table keeps
thousands, and readers opened through select() need descriptors under 1024."""
from __future__ import annotations

import gc
import os
import wave

import numpy as np

from kikimimi.voice.clips import map_pcm16


def _wav(path, samples: np.ndarray, rate: int = 24000) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())


def test_thousands_of_mapped_clips_keep_no_descriptor(tmp_path):
    want = (np.arange(480) * 37 % 2000 - 1000).astype(np.int16)
    _wav(tmp_path / "a.wav", want)
    before = len(os.listdir("/proc/self/fd"))
    clips = [map_pcm16(tmp_path / "a.wav") for _ in range(1500)]
    assert len(os.listdir("/proc/self/fd")) - before < 10
    samples, rate = clips[0]
    assert rate == 24000 and samples.dtype == np.dtype("<i2")
    assert np.array_equal(samples, want)
    assert not samples.flags.writeable
    del clips, samples
    gc.collect()
