"""Text -> clip, once per distinct text, cached on disk.

Two engines, one chosen per process:

* `espeak-ng` called directly, on Linux when its program is installed.  This
  is a deliberate fallback from pyttsx3: pyttsx3 2.99's espeak driver runs
  espeak in asynchronous retrieval mode, where voice and rate changes land at
  unpredictable utterances.  Measured here (tests/voice/test_render.py checks
  it): rendering "hello there my friend" at rates 80, 120, 300, 200 through
  pyttsx3 gave clips all of one length, and a rate change once gave an empty
  clip, while `espeak-ng -s RATE -w` gave the right length every time.  A
  process of its own per clip has no shared state, so it is simply correct.
* pyttsx3 elsewhere (SAPI5, NSSS), where `save_to_file` honours the voice.
  pyttsx3 is not thread-safe and renders only the last utterance queued per
  `runAndWait`: one engine on one worker thread, one utterance per call.
  `say()` is never used: it plays through the default device and cannot be
  routed to an earphone.

Either way renders run on one worker thread, in order.  Clips are kept as
WAV files named by a hash of (text, voice, speech rate, engine version): a
table restarts instantly, and a new engine release renders afresh.
"""
from __future__ import annotations

import ctypes.util
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from .clips import read_wav


class RenderError(RuntimeError):
    """The speech engine cannot render (missing, or no voice for the language)."""


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/kikimimi/clips` (clips survive restarts, not a reinstall)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kikimimi" / "clips"


def engine_version() -> str:
    """What decides how a text sounds, besides voice and rate: part of the cache key."""
    try:
        ver = metadata.version("pyttsx3")
    except metadata.PackageNotFoundError:
        ver = "?"
    lib = ctypes.util.find_library("espeak-ng") or ""
    if lib:
        for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"):
            candidate = Path(folder) / lib
            if candidate.exists():
                lib = candidate.resolve().name  # e.g. libespeak-ng.so.1.1.51
                break
    return f"pyttsx3-{ver}/{lib or 'native'}"


def pick_voice(voices: list[Any], lang: str) -> str | None:
    """The id of the engine voice that speaks `lang`.

    espeak-ng ids look like "jpx/ja" or "gmw/en"; its languages like ["ja"]
    or ["en-gb"].  An id ending in the bare language wins, then an exact
    language, then a regional variant.
    """
    def langs(v: Any) -> list[str]:
        out = []
        for item in getattr(v, "languages", None) or []:
            if isinstance(item, bytes):
                item = item.decode("utf-8", "ignore")
            out.append(str(item).lower().lstrip("\x05"))
        return out

    lang = lang.lower()
    ranked = []
    for v in voices:
        vid = str(v.id)
        ls = langs(v)
        if vid.lower().endswith("/" + lang) or vid.lower() == lang:
            ranked.append((0, vid))
        elif lang in ls:
            ranked.append((1, vid))
        elif any(x.startswith(lang + "-") or x.startswith(lang + "_") for x in ls):
            ranked.append((2, vid))
    return min(ranked)[1] if ranked else None


class _EspeakCli:
    """espeak-ng as a program: one process per clip, parameters always applied."""

    name = "espeak-ng"

    def __init__(self, program: str):
        self.program = program
        self.problem: str | None = None
        self.default_rate = 175
        self.voices: list[Any] = []
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kikimimi-tts")
        try:
            listing = subprocess.run([program, "--voices"], capture_output=True, text=True,
                                     timeout=20, check=True).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            self.problem = f"espeak-ng does not run: {exc} (fix: apt-get install --reinstall espeak-ng)"
            return
        for line in listing.splitlines()[1:]:
            cols = line.split()
            if len(cols) >= 5:
                self.voices.append(SimpleNamespace(id=cols[4], languages=[cols[1]]))
        version = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=20).stdout
        self.version = "espeak-ng-" + (version.split("text-to-speech:")[-1].split()[0] if version else "?")

    def save(self, text: str, path: Path, voice: str, rate: int | None) -> None:
        proc = subprocess.run(
            [self.program, "-v", voice, "-s", str(int(rate or self.default_rate)), "-b", "1",
             "-w", str(path), "--stdin"],
            input=text.encode("utf-8"), capture_output=True, timeout=60)
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RenderError(f"espeak-ng failed for {text!r}: {err[0] if err else proc.returncode}")


def _engine() -> Any:
    """The process's one speech engine (see the module docstring for the choice)."""
    with _Engine._lock:
        if _Engine._instance is None:
            program = shutil.which("espeak-ng")
            if sys.platform.startswith("linux") and program and not os.environ.get("KIKIMIMI_TTS") == "pyttsx3":
                _Engine._instance = _EspeakCli(program)
            else:
                _Engine._instance = _Engine()
        return _Engine._instance


class _Engine:
    """The process's one pyttsx3 engine, on its one worker thread.

    pyttsx3 caches one engine per driver and espeak keeps its voice and rate
    in process-global state, so two renderers (two tables in one test run, a
    doctor check) must share this worker and set their voice and rate before
    every utterance.
    """

    _lock = threading.Lock()
    _instance: Any = None
    name = "pyttsx3"

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kikimimi-tts")
        self.engine: Any = None
        self.problem: str | None = None
        self.default_rate = 200
        self.voices: list[Any] = []
        self.pool.submit(self._start).result()
        self.version = engine_version()

    def _start(self) -> None:
        try:
            import pyttsx3

            engine = pyttsx3.init()
            _mute_driver_prints()
            self.voices = list(engine.getProperty("voices"))
            self.default_rate = int(engine.getProperty("rate") or 200)
            self.engine = engine
        except Exception as exc:  # pyttsx3 raises many kinds when the engine is absent
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.problem = f"speech engine unavailable: {msg} (fix: apt-get install espeak-ng)"

    def save(self, text: str, path: Path, voice: str, rate: int | None) -> None:
        """Worker thread only: one utterance per runAndWait (the driver keeps only the last)."""
        if self.engine is None:
            raise RenderError(self.problem or "speech engine unavailable")
        self.engine.setProperty("voice", voice)
        self.engine.setProperty("rate", int(rate or self.default_rate))
        self.engine.save_to_file(text, str(path))
        self.engine.runAndWait()


class Renderer:
    """Clips for one table's language, voice and rate, behind an on-disk cache."""

    def __init__(self, lang: str, cache_dir: Path | None = None,
                 voice: str | None = None, rate: int | None = None):
        self.lang = lang
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        self.rate = rate
        self.renders = 0  # how many texts the engine actually synthesised
        self._shared = _engine()
        self.version = getattr(self._shared, "version", "?")
        self.engine_name = self._shared.name
        self.problem: str | None = self._shared.problem
        self.voice: str | None = voice
        if self.problem is None and voice is None:
            self.voice = pick_voice(self._shared.voices, lang)
            if self.voice is None:
                self.problem = (f"no speech voice for language {lang!r} "
                                "(fix: apt-get install espeak-ng, or set [audio] voice = ...)")

    def _render_now(self, text: str) -> Path:
        """Worker thread only."""
        if self.problem is not None or self.voice is None:
            raise RenderError(self.problem or "no voice")
        path = self.path_for(text)
        if not path.exists():
            tmp = path.with_name(f"{path.stem}.{os.getpid()}.part.wav")
            self._shared.save(text, tmp, self.voice, self.rate)
            if not tmp.exists() or tmp.stat().st_size <= 44:
                tmp.unlink(missing_ok=True)
                raise RenderError(f"the speech engine wrote nothing for {text!r}")
            os.replace(tmp, path)
            self.renders += 1
        return path

    def key(self, text: str) -> str:
        blob = json.dumps([text, self.voice, self.rate, self.version], ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]

    def path_for(self, text: str) -> Path:
        return self.cache_dir / f"{self.key(text)}.wav"

    def cached(self, text: str) -> bool:
        return self.path_for(text).exists()

    def submit(self, text: str) -> "Future[tuple[np.ndarray, int]]":
        """Render (or load from the cache) on the worker; the result is (samples, rate)."""
        def job() -> tuple[np.ndarray, int]:
            return read_wav(self._render_now(text))
        return self._shared.pool.submit(job)

    def render(self, text: str) -> tuple[np.ndarray, int]:
        return self.submit(text).result()

    def health(self) -> str:
        return self.problem or "ok"

    def close(self) -> None:
        """Nothing to release: the engine is shared by every renderer in the process."""


def _mute_driver_prints() -> None:
    """pyttsx3's espeak driver prints "Audio saved to ..." after every file.

    `kikimimi run` writes the event log to stdout, so a stray line there
    corrupts it.  Swapping `sys.stdout` would also swallow other threads'
    output, so instead the driver module's own `print` is shadowed.
    """
    import sys

    mod = sys.modules.get("pyttsx3.drivers.espeak")
    if mod is not None:
        mod.print = _silent  # type: ignore[attr-defined]


def _silent(*_args: Any, **_kwargs: Any) -> None:
    return None

