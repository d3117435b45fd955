"""Text -> clip, once per distinct text and speech rate, cached on disk.

The engine is chosen per table language (`engines.choose`): Open JTalk for
Japanese, espeak-ng for English and as the fallback.  Renders run on the
engine's one worker thread, in order.  Clips are WAV files named by a hash of
(text as the engine reads it, voice, speech rate, engine and its version): a
table restarts instantly, and a new engine release or dictionary renders
afresh.  The rate is part of the key because each output (an earphone, the
speaker) may be set to its own rate: one text may have several clips.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures import wait as futures_wait
from pathlib import Path
from typing import Any

import numpy as np

from . import engines
from .clips import map_pcm16, read_wav, resample, trim_silence, write_wav
from .engines import RenderError, pick_voice
from .readings import Readings, load_readings

__all__ = ["Renderer", "RenderError", "default_cache_dir", "pick_voice"]

#: How a clip is made from what the engine writes (part of the cache key):
#: "trim1" = the engine's leading and trailing silence cut to 20/60 ms.
CLIP_FORMAT = "trim1"


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/kikimimi/clips` (clips survive restarts, not a reinstall)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kikimimi" / "clips"


class Renderer:
    """Clips for one table's language and voice, at any speech rate, behind an on-disk cache."""

    def __init__(self, lang: str, cache_dir: Path | None = None,
                 voice: str | None = None, rate: int | None = None, engine: str = "auto",
                 readings: Mapping[str, str] | None = None):
        self.lang = lang
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file in the way, no permission, a full disk: one line for the caller
            raise ValueError(f"{self.cache_dir}: cannot hold the clip cache ({exc.strerror or exc})") from None
        self.choice = engines.choose(lang, engine, voice)
        self._shared: Any = self.choice.engine
        self.engine_name: str = self._shared.name
        self.version: str = getattr(self._shared, "version", "?")
        self.voice: str | None = self.choice.voice
        self.problem: str | None = self.choice.problem
        if self.problem is not None and self._shared.problem is None:
            self.problem += " (fix: apt-get install espeak-ng, or set [audio] voice = ...)"
        self.rate = rate
        self.readings = Readings(load_readings(lang) if readings is None else readings)
        self.renders = 0  # how many texts the engine actually synthesised

    def spoken(self, text: str) -> str:
        """The text as handed to the engine (readings applied)."""
        return self.readings(text)

    def rate_of(self, rate: int | None) -> int:
        """The effective words per minute: the output's, else the table's, else the engine's."""
        return int(rate or self.rate or self._shared.default_rate)

    def key(self, text: str, rate: int | None = None) -> str:
        blob = json.dumps([self.spoken(text), self.voice, self.rate_of(rate), self.engine_name, self.version,
                           CLIP_FORMAT], ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]

    def path_for(self, text: str, rate: int | None = None) -> Path:
        return self.cache_dir / f"{self.key(text, rate)}.wav"

    def cached(self, text: str, rate: int | None = None) -> bool:
        return self.path_for(text, rate).exists()

    def _render_now(self, text: str, rate: int | None) -> Path:
        """Worker thread only."""
        if self.problem is not None or self.voice is None:
            raise RenderError(self.problem or "no voice")
        path = self.path_for(text, rate)
        if not path.exists():
            _write_clip(self._shared, self.voice, self.spoken(text), self.rate_of(rate), path)
            self.renders += 1
        return path

    def submit(self, text: str, rate: int | None = None) -> "Future[tuple[np.ndarray, int]]":
        """Render (or load from the cache) on the worker; the result is (samples, sample rate)."""
        def job() -> tuple[np.ndarray, int]:
            return read_wav(self._render_now(text, rate))
        return self._shared.pool.submit(job)

    def load_cached(self, text: str, rate: int | None = None) -> tuple[np.ndarray, int] | None:
        """The clip if it is in the cache, read on the caller's thread (a warm start)."""
        path = self.path_for(text, rate)
        try:
            return read_wav(path) if path.exists() else None
        except ValueError:
            return None

    def load_at(self, text: str, rate: int | None, device_rate: int) -> tuple[np.ndarray, int] | None:
        """The cached clip at `device_rate`, mapped from the disk as int16; None if not rendered yet.

        A clip rendered at another sample rate is resampled once and kept beside
        its WAV (`<hash>.<device rate>.wav`), so a warm start only maps files
        (espeak-ng's 22 kHz clips took ~2-4 ms each to resample: 17 s for
        鬼探し's 4657)."""
        path = self.path_for(text, rate)
        side = path.with_name(f"{path.stem}.{device_rate}.wav")
        for candidate in (path, side):
            got = map_pcm16(candidate) if candidate.exists() else None
            if got is not None and got[1] == device_rate:
                return got
        loaded = self.load_cached(text, rate)
        if loaded is None:
            return None
        samples = resample(loaded[0], loaded[1], device_rate)
        tmp = side.with_name(f"{side.stem}.{os.getpid()}.{threading.get_ident()}.part.wav")
        try:
            write_wav(tmp, samples, device_rate)
            os.replace(tmp, side)
        except OSError:  # a read-only cache still plays, from memory
            tmp.unlink(missing_ok=True)
            return samples, device_rate
        return map_pcm16(side) or (samples, device_rate)

    def render(self, text: str, rate: int | None = None) -> tuple[np.ndarray, int]:
        return self.submit(text, rate).result()

    def fill_cache(self, texts: Iterable[str], rates: Iterable[int | None] = (None,),
                   progress: bool = True, *, on_progress: Callable[[int, int], None] | None = None,
                   background: bool = False, stop: threading.Event | None = None) -> tuple[int, list[str]]:
        """Render into the cache every text at every rate that is not there yet.

        Returns (how many clips were synthesised, one line per failure).  The
        bar shows on the terminal only when something must be synthesised (a
        first start); a warm start only checks that the files exist.  A long
        list is rendered on every core: Open JTalk in worker processes (its
        engine is one per process), espeak-ng in threads (each clip is its own
        process anyway); pyttsx3 stays on its one thread.

        `on_progress(done, total)` is called as clips complete.  `background`:
        the table is already playing, so the workers yield to it (Open JTalk's
        processes run niced; espeak-ng leaves one core free), and `stop` ends
        the work early (what is not rendered yet renders when first said).
        """
        if self.problem is not None or self.voice is None:
            return 0, [f"voice: {self.problem or 'no voice'}"]
        todo = [(t, r) for r in dict.fromkeys(rates) for t in dict.fromkeys(texts)
                if t.strip() and not self.cached(t, r)]
        if not todo:
            return 0, []
        jobs = [(self.spoken(t), self.rate_of(r), self.path_for(t, r)) for t, r in todo]
        cores = _cores()
        workers = (max(1, cores - 1) if background and self.engine_name != "openjtalk" else cores) \
            if len(jobs) >= 20 else 1
        own = workers > 1 or background  # a background render never queues on the engine's own thread
        if self.engine_name == "openjtalk" and own:
            pool: Any = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_yield_cpu if background else None)
            futures = [pool.submit(_write_in_child, self.engine_name, self.voice, *job) for job in jobs]
        elif self.engine_name == "espeak-ng" and own:
            pool = ThreadPoolExecutor(workers, thread_name_prefix="kikimimi-fill")
            futures = [pool.submit(_write_clip, self._shared, self.voice, *job) for job in jobs]
        else:
            pool = None
            futures = [self._shared.pool.submit(_write_clip, self._shared, self.voice, *job) for job in jobs]
        failures: list[str] = []
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(jobs), desc=f"rendering voice ({self.engine_name})", unit="clip")
        done = 0
        try:
            for (text, _), fut in zip(todo, futures):
                while stop is not None and not stop.is_set():
                    try:
                        fut.result(timeout=0.2)
                        break
                    except FutureTimeout:
                        continue
                    except Exception:
                        break
                if stop is not None and stop.is_set():
                    for later in futures:
                        later.cancel()
                    futures_wait(futures)  # the clips being written when stopped are whole, and counted
                    done += sum(1 for f in futures[done:] if not f.cancelled() and f.exception() is None)
                    break
                try:
                    fut.result()
                except Exception as exc:
                    failures.append(f"voice: cannot render {text!r}: {exc}")
                done += 1
                if bar is not None:
                    bar.update(1)
                if on_progress is not None:
                    on_progress(done, len(jobs))
        finally:
            if bar is not None:
                bar.close()
            if pool is not None:
                pool.shutdown(cancel_futures=True)
        made = done - len(failures)
        self.renders += made
        return made, failures

    def health(self) -> str:
        return self.problem or "ok"

    def describe(self) -> str:
        """"openjtalk mei_normal (Open JTalk reads kanji)": what speaks and why."""
        return f"{self.engine_name} {self.voice or '-'} ({self.choice.why})"

    def close(self) -> None:
        """Nothing to release: each engine is shared by every renderer in the process."""


def _cores() -> int:
    try:
        return max(1, min(8, len(os.sched_getaffinity(0))))
    except AttributeError:  # not Linux
        return max(1, min(8, os.cpu_count() or 1))


def _write_clip(eng: Any, voice: str, spoken: str, wpm: int, path: Path) -> None:
    """Synthesise into a temporary file, then move it into place: a clip in the
    cache is always whole, whoever wrote it and whenever it was interrupted."""
    if path.exists():
        return
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.{threading.get_ident()}.part.wav")
    eng.save(spoken, tmp, voice, wpm)
    if not tmp.exists() or tmp.stat().st_size <= 44:
        tmp.unlink(missing_ok=True)
        raise RenderError(f"the speech engine wrote nothing for {spoken!r}")
    samples, rate = read_wav(tmp)
    write_wav(tmp, trim_silence(samples, rate), rate)
    os.replace(tmp, path)


def _yield_cpu() -> None:
    """A background render's worker: the table's own answers come first."""
    try:
        os.nice(10)
    except OSError:
        pass


def _write_in_child(engine_name: str, voice: str, spoken: str, wpm: int, path: Path) -> None:
    """A worker process's render: its own engine instance, made on first use."""
    eng = engines.engine(engine_name)
    if eng.problem:
        raise RenderError(eng.problem)
    _write_clip(eng, voice, spoken, wpm, path)
