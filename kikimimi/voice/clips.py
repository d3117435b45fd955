"""Clips as the mixer wants them: mono float32 at the device's rate.

Speech engines and recorded packs hand us WAV files of any width, channel
count and rate; the audio callback must do nothing but copy, so every
conversion happens here, once, before a clip is queued.
"""
from __future__ import annotations

import ctypes
import mmap
import os
import wave
import weakref
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


def as_float(samples: np.ndarray) -> np.ndarray:
    """float32 in [-1, 1], from a float clip or a 16-bit one kept on disk."""
    if samples.dtype == np.int16:
        return samples.astype(np.float32) / np.float32(32768.0)
    return np.ascontiguousarray(samples, np.float32)


def trim_silence(samples: np.ndarray, rate: int, lead: float = 0.02, tail: float = 0.06,
                 floor: float = 0.003) -> np.ndarray:
    """The clip without the engine's silence around the speech, but for a short margin.

    Open JTalk starts every clip with ~0.26 s of silence: a player heard the
    answer that much later than its first frame played, and the silences
    filled a third of the clip cache."""
    loud = np.flatnonzero(np.abs(samples) > floor)
    if loud.size == 0:
        return samples
    start = max(0, int(loud[0]) - int(lead * rate))
    end = min(samples.size, int(loud[-1]) + 1 + int(tail * rate))
    return samples[start:end]


def map_pcm16(path: Path) -> tuple[np.ndarray, int] | None:
    """A 16-bit mono PCM WAV's samples mapped from the disk (int16), or None for any other WAV.

    A table keeps thousands of clips ready; mapped, they cost page cache the
    system may reclaim, not resident memory (鬼探し's 4747 clips are ~1.2 GB
    as 16-bit, twice that as float32)."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
            if head[:4] != b"RIFF" or head[8:12] != b"WAVE":
                return None
            fmt = None
            while True:
                chunk = f.read(8)
                if len(chunk) < 8:
                    return None
                cid, size = chunk[:4], int.from_bytes(chunk[4:], "little")
                if cid == b"fmt ":
                    fmt = f.read(size + (size & 1))
                elif cid == b"data":
                    offset = f.tell()
                    break
                else:
                    f.seek(size + (size & 1), 1)
        if fmt is None or len(fmt) < 16:
            return None
        tag, channels, rate = int.from_bytes(fmt[0:2], "little"), int.from_bytes(fmt[2:4], "little"), \
            int.from_bytes(fmt[4:8], "little")
        bits = int.from_bytes(fmt[14:16], "little")
        frames = min(size, path.stat().st_size - offset) // 2
        if tag != 1 or channels != 1 or bits != 16 or frames == 0 or frames > rate * MAX_SECONDS:
            return None
        return _map_readonly(path)[offset:offset + 2 * frames].view("<i2"), rate
    except (OSError, ValueError):
        return None


_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long)
_libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)


def _map_readonly(path: Path) -> np.ndarray:
    """A file's bytes mapped read-only, holding no file descriptor.

    np.memmap (Python's mmap) keeps a duplicate descriptor per mapping: with
    thousands of clips a table passed 1024 descriptors, and pyserial's
    select() then refused every reader.  The mapping is undone when the
    last array over it is collected."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            raise ValueError("empty file")
        addr = _libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), f"mmap {path}")
    finally:
        os.close(fd)
    raw = (ctypes.c_ubyte * size).from_address(addr)
    weakref.finalize(raw, _libc.munmap, addr, size)
    data = np.frombuffer(memoryview(raw), dtype=np.uint8)  # the view keeps `raw` (and so the mapping) alive
    data.flags.writeable = False  # the pages are mapped read-only: a write would crash
    return data

