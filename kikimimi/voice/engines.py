"""Speech engines, and which one speaks each table language.

* Open JTalk (`pyopenjtalk`, with Debian's `open-jtalk-mecab-naist-jdic` as
  its dictionary) for Japanese: it reads kanji, so catalogues are written in
  natural Japanese.  espeak-ng says "Chinese letter" for each kanji.
* `espeak-ng` called as a program, on Linux, for English and as the
  fallback of every language.  It is called directly rather than through
  pyttsx3: pyttsx3 2.99's espeak driver runs espeak in asynchronous mode,
  where voice and rate changes land at unpredictable utterances (measured:
  rates 80, 120, 300, 200 gave clips all of one length, and once an empty
  clip), while `espeak-ng -s RATE -w` is right every time.
* pyttsx3 where it is the platform's engine (SAPI5, NSSS): one engine on one
  worker thread, one utterance per `runAndWait` (it keeps only the last).

Every engine renders on one worker thread of its own (neither pyopenjtalk's
global engine nor pyttsx3 is safe to share between threads), and has a
`version` that goes into the clip cache key, so a new release or a new
dictionary renders afresh instead of playing stale clips.
"""
from __future__ import annotations

import ctypes.util
import hashlib
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from .clips import write_wav

#: What `[audio] engine` may say.
ENGINES = ("auto", "openjtalk", "espeak-ng", "pyttsx3")
#: espeak-ng's default speaking rate: a table rate of 175 words a minute is
#: Open JTalk's speed 1.0, so one number sets both engines alike.
NORMAL_WPM = 175
#: Where Debian's open-jtalk-mecab-naist-jdic puts the dictionary (`dpkg -L`).
DEBIAN_DICT_DIR = Path("/var/lib/mecab/dic/open-jtalk/naist-jdic")
OPENJTALK_FIX = ("apt-get install open-jtalk-mecab-naist-jdic, then pip install 'kikimimi[ja]' "
                 "(scripts/setup does both)")


class RenderError(RuntimeError):
    """The speech engine cannot render (missing, or no voice for the language)."""


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


class EspeakCli:
    """espeak-ng as a program: one process per clip, parameters always applied."""

    name = "espeak-ng"

    def __init__(self, program: str | None):
        self.program = program
        self.problem: str | None = None
        self.default_rate = NORMAL_WPM
        self.voices: list[Any] = []
        self.version = "espeak-ng-?"
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kikimimi-espeak")
        if program is None:
            self.problem = "espeak-ng is not installed (fix: apt-get install espeak-ng)"
            return
        try:
            listing = subprocess.run([program, "--voices"], capture_output=True, text=True,
                                     timeout=20, check=True).stdout
            version = subprocess.run([program, "--version"], capture_output=True, text=True,
                                     timeout=20).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            self.problem = f"espeak-ng does not run: {exc} (fix: apt-get install --reinstall espeak-ng)"
            return
        for line in listing.splitlines()[1:]:
            cols = line.split()
            if len(cols) >= 5:
                self.voices.append(SimpleNamespace(id=cols[4], languages=[cols[1]]))
        self.version = "espeak-ng-" + (version.split("text-to-speech:")[-1].split()[0] if version else "?")

    def voice_for(self, lang: str) -> str | None:
        return pick_voice(self.voices, lang)

    def save(self, text: str, path: Path, voice: str, rate: int | None) -> None:
        if self.program is None:
            raise RenderError(str(self.problem))
        proc = subprocess.run(
            [self.program, "-v", voice, "-s", str(int(rate or self.default_rate)), "-b", "1",
             "-w", str(path), "--stdin"],
            input=text.encode("utf-8"), capture_output=True, timeout=60)
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise RenderError(f"espeak-ng failed for {text!r}: {err[0] if err else proc.returncode}")


class OpenJTalk:
    """pyopenjtalk in this process, with its bundled `mei` voice, Japanese only.

    pyopenjtalk reads `OPEN_JTALK_DICT_DIR` when it is imported and would
    otherwise try to download a dictionary on first use, which cannot work
    on a table without the internet: so the dictionary is found first
    (the variable, else Debian's folder) and the import happens only then.
    """

    name = "openjtalk"

    def __init__(self) -> None:
        self.problem: str | None = None
        self.default_rate = NORMAL_WPM
        self.version = "openjtalk-?"
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kikimimi-openjtalk")
        self._module: Any = None
        folder = os.environ.get("OPEN_JTALK_DICT_DIR") or str(DEBIAN_DICT_DIR)
        dic = Path(folder) / "sys.dic"
        if not dic.is_file():
            self.problem = f"no Open JTalk dictionary in {folder} (fix: {OPENJTALK_FIX})"
            return
        os.environ["OPEN_JTALK_DICT_DIR"] = folder
        try:
            import pyopenjtalk
        except ImportError as exc:
            self.problem = f"pyopenjtalk is not installed ({exc}) (fix: {OPENJTALK_FIX})"
            return
        if os.fsdecode(pyopenjtalk.OPEN_JTALK_DICT_DIR) != folder:
            self.problem = (f"pyopenjtalk was imported before its dictionary was set "
                            f"(it uses {os.fsdecode(pyopenjtalk.OPEN_JTALK_DICT_DIR)})")
            return
        # The module, not its functions: a function kept past interpreter
        # shutdown makes pyopenjtalk's teardown fail ("Error in sys.excepthook").
        self._module = pyopenjtalk
        stat = dic.stat()
        dic_id = hashlib.sha256(f"{stat.st_size}:{int(stat.st_mtime)}".encode()).hexdigest()[:8]
        self.version = f"pyopenjtalk-{metadata.version('pyopenjtalk')}/mei_normal/dic-{dic_id}"

    def voice_for(self, lang: str) -> str | None:
        return "mei_normal" if lang == "ja" else None

    def g2p(self, text: str, kana: bool = True) -> str:
        """The reading Open JTalk gives a text (tests pin the names that matter)."""
        return self._module.g2p(text, kana=kana)

    def save(self, text: str, path: Path, voice: str, rate: int | None) -> None:
        speed = (rate or self.default_rate) / NORMAL_WPM
        try:
            wave, sr = self._module.tts(text, speed=speed)
        except Exception as exc:  # the C engine raises plain RuntimeErrors
            raise RenderError(f"Open JTalk failed for {text!r}: {exc}") from None
        samples = np.asarray(wave, np.float64) / 32768.0
        peak = float(np.max(np.abs(samples))) if samples.size else 0.0
        if peak > 0.95:  # its loud vowels overshoot 16 bits: scale rather than clip
            samples *= 0.95 / peak
        write_wav(path, samples.astype(np.float32), int(sr))


class Pyttsx3:
    """The process's one pyttsx3 engine, on its one worker thread.

    pyttsx3 caches one engine per driver and keeps voice and rate in
    process-global state, so every renderer shares this worker and sets
    its voice and rate before every utterance.
    """

    name = "pyttsx3"

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kikimimi-pyttsx3")
        self.engine: Any = None
        self.problem: str | None = None
        self.default_rate = 200
        self.voices: list[Any] = []
        self.pool.submit(self._start).result()
        self.version = pyttsx3_version()

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

    def voice_for(self, lang: str) -> str | None:
        return pick_voice(self.voices, lang)

    def save(self, text: str, path: Path, voice: str, rate: int | None) -> None:
        """Worker thread only: one utterance per runAndWait (the driver keeps only the last)."""
        if self.engine is None:
            raise RenderError(self.problem or "speech engine unavailable")
        self.engine.setProperty("voice", voice)
        self.engine.setProperty("rate", int(rate or self.default_rate))
        self.engine.save_to_file(text, str(path))
        self.engine.runAndWait()


def pyttsx3_version() -> str:
    """pyttsx3's release and the espeak-ng library it drives (both decide the sound)."""
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


_lock = threading.Lock()
_instances: dict[str, Any] = {}


def engine(name: str) -> Any:
    """The process's one instance of an engine ("openjtalk", "espeak-ng", "pyttsx3").

    An engine that cannot run is still returned, with `problem` saying why
    and how to fix it; an instance is made once, whoever asks first.
    """
    with _lock:
        if name not in _instances:
            if name == "openjtalk":
                _instances[name] = OpenJTalk()
            elif name == "espeak-ng":
                _instances[name] = EspeakCli(shutil.which("espeak-ng"))
            elif name == "pyttsx3":
                _instances[name] = Pyttsx3()
            else:
                raise ValueError(f"unknown speech engine {name!r} (have: {', '.join(ENGINES)})")
        return _instances[name]


@dataclass(frozen=True, slots=True)
class Choice:
    """The engine a language speaks with, its voice, and why (for `kikimimi doctor`)."""

    engine: Any
    voice: str | None
    why: str

    @property
    def problem(self) -> str | None:
        """Why this language cannot be spoken at all (None: it can)."""
        if self.engine.problem:
            return self.engine.problem
        return None if self.voice else f"no speech voice for this language in {self.engine.name} ({self.why})"


def _platform_engine() -> str:
    """espeak-ng on Linux when installed (see the module docstring), else pyttsx3."""
    if os.environ.get("KIKIMIMI_TTS") == "pyttsx3":
        return "pyttsx3"
    if sys.platform.startswith("linux") and shutil.which("espeak-ng"):
        return "espeak-ng"
    return "pyttsx3"


def choose(lang: str, wanted: str = "auto", voice: str | None = None) -> Choice:
    """The engine for a table language: the one asked for if it runs, else the fallback.

    `auto` is Open JTalk for Japanese, else the platform's engine; an engine
    that cannot run (or has no voice for the language) falls back to the
    platform's engine, and `why` says so.
    """
    if wanted not in ENGINES:
        raise ValueError(f"unknown speech engine {wanted!r} (have: {', '.join(ENGINES)})")
    first = wanted if wanted != "auto" else ("openjtalk" if lang == "ja" else _platform_engine())
    reason = "asked for in [audio] engine" if wanted != "auto" else (
        "Open JTalk reads kanji" if first == "openjtalk" else "the platform's engine")
    tried = engine(first)
    if tried.problem is None:
        # `[audio] voice` names an espeak-ng/pyttsx3 voice; Open JTalk has its one.
        vid = tried.voice_for(lang) if tried.name == "openjtalk" else (voice or tried.voice_for(lang))
        if vid is not None:
            return Choice(tried, vid, reason)
    why_not = tried.problem or f"{first} has no voice for {lang!r}"
    fallback_name = _platform_engine()
    if fallback_name == first:
        return Choice(tried, None, why_not)
    fallback = engine(fallback_name)
    fvid = (voice or fallback.voice_for(lang)) if fallback.problem is None else None
    return Choice(fallback, fvid, f"fallback: {why_not}")


def _mute_driver_prints() -> None:
    """pyttsx3's espeak driver prints "Audio saved to ..." after every file.

    `kikimimi run` writes the event log to stdout, so a stray line there
    corrupts it.  Swapping `sys.stdout` would also swallow other threads'
    output, so instead the driver module's own `print` is shadowed.
    """
    mod = sys.modules.get("pyttsx3.drivers.espeak")
    if mod is not None:
        mod.print = _silent  # type: ignore[attr-defined]


def _silent(*_args: Any, **_kwargs: Any) -> None:
    return None
