"""Clips as the mixer wants them: mono float32 at the device's rate.

Speech engines and recorded packs hand us WAV files of any width, channel
count and rate; the audio callback must do nothing but copy, so every
conversion happens here, once, before a clip is queued.
"""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

_SCALE = {1: 128.0, 2: 32768.0, 4: 2147483648.0}
#: A phrase is seconds long; a recorded pack file of an hour is a mistake, not a clip.
MAX_SECONDS = 120


class ClipError(ValueError):
    """A WAV file that cannot be used as a clip."""


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """(mono float32 samples in [-1, 1], sample rate) of a PCM WAV file.

    Several channels are averaged: a recorded pack made in stereo still
    plays into one earphone channel pair unchanged in loudness.
    """
    try:
        with wave.open(str(path), "rb") as w:
            width, channels, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
            if not 0 < channels <= 8 or not 4000 <= rate <= 192000 or w.getnframes() > rate * MAX_SECONDS:
                raise ClipError(f"{path}: {channels} channels at {rate} Hz, {w.getnframes()} frames: "
                                f"not a phrase (at most {MAX_SECONDS} s, 4-192 kHz)")
            raw = w.readframes(w.getnframes())
    except (wave.Error, EOFError, OSError) as exc:
        raise ClipError(f"{path}: not a PCM WAV file ({exc})") from None
    if width == 1:  # 8-bit WAV is unsigned
        data = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / _SCALE[1]
    elif width in (2, 4):
        data = np.frombuffer(raw, f"<i{width}").astype(np.float32) / _SCALE[width]
    elif width == 3:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        ints = (b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 8 >> 8
        data = ints.astype(np.float32) / 8388608.0
    else:
        raise ClipError(f"{path}: unsupported sample width {width * 8} bits")
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1, dtype=np.float32)
    return np.ascontiguousarray(data, np.float32), rate


def write_wav(path: Path, samples: np.ndarray, rate: int) -> None:
    """Write mono float samples as 16-bit PCM (the format every tool reads)."""
    ints = np.clip(np.round(samples * 32767.0), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(ints.tobytes())


def resample(samples: np.ndarray, src_rate: int, dst_rate: int) -> np.ndarray:
    """Band-limited resampling of a whole clip with libsoxr (its high-quality preset).

    Every clip is resampled once to its device's rate when a table starts, so
    this runs thousands of times on a warm start: an FFT over the whole clip
    took ~33 ms a clip here (1120 clips of the Trident: 37 s), soxr ~1 ms.
    """
    if src_rate == dst_rate or samples.size == 0:
        return np.ascontiguousarray(samples, np.float32)
    import soxr

    out = soxr.resample(np.ascontiguousarray(samples, np.float32), src_rate, dst_rate, quality="HQ")
    return np.clip(out, -1.0, 1.0).astype(np.float32, copy=False)
