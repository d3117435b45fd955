"""The table's voice: `say` events in, sound out of the right earphone or speaker.

The runtime hands every batch of log events to `AudioOutput.emit`.  Each
output has its own lane (queue) on its device's stream; clips are rendered
once (or taken from a recorded pack) and cached.  A private phrase goes only
to its seat's earphone: if that earphone is missing or has failed, the phrase
is dropped and `emit` returns a one-line notice for the referee, never
re-routed where another player could hear it.  A public phrase whose speaker
fails is played into the working earphones instead, since everyone may hear it.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np

from kikimimi.contract.heard import modelled_seconds
from kikimimi.contract.protocol import REVEAL, each_audience

from .clips import ClipError, as_float, resample
from .config import SPEAKER, AudioSpec, OutputSpec, output_name, parse_audio
from .settings import MAX_RATE, MIN_RATE
from .devices import Device, output_devices
from .identity import IdentityError, SoundCard, check_outputs, resolve, sound_cards
from .mixer import DeviceMixer, Item, Lane
from .pack import VoicePack
from .render import Renderer

log = logging.getLogger(__name__)

#: A first start says its wait when at least this many of the first phrases are not rendered yet.
COLD_START_CLIPS = 20
#: How often the wait's progress is said on the speaker.
PROGRESS_SECONDS = 8.0

Source = tuple[str, str, int]  # ("tts", text, words per minute) or ("pack", file stem, 0)


def _cards(spec: AudioSpec) -> list[SoundCard]:
    """The sound cards sysfs shows, read once, when an output is named by its USB identity."""
    return sound_cards() if any(o.usb or o.serial for o in spec.outputs.values()) else []


class AudioOutput:
    """Routes `say` events to per-output queues on one stream per device."""

    def __init__(self, spec: AudioSpec, players: int, lang: str, *,
                 cache_dir: Path | None = None, muted: Iterable[str] = ()):
        self.spec, self.players, self.lang = spec, players, lang
        self.renderer = Renderer(lang, cache_dir, spec.voice, spec.rate, spec.engine)
        self.pack = VoicePack(spec.pack)
        #: each output's speech rate (None: the table's); the console may change it mid-game
        self.rates: dict[str, int | None] = {name: out.rate for name, out in spec.outputs.items()}
        self._texts: list[str] = []  # everything prepared, to re-render when a rate changes
        self.lanes: dict[str, Lane] = {}
        self.lane_device: dict[str, DeviceMixer] = {}
        self.mixers: list[DeviceMixer] = []
        self.problems: dict[str, str] = {}  # output name -> why it cannot play
        self.muted = set(muted)  # outputs deliberately not played (the demo)
        self.latencies: deque[float] = deque(maxlen=8192)  # emit -> first frame, seconds
        self._sources: dict[Source, tuple[np.ndarray, int]] = {}
        self._resampled: dict[tuple[Source, int], np.ndarray] = {}
        self._pending: dict[Source, Future] = {}
        self._notices: deque[str] = deque()
        self._told: set[str] = set()
        self._stop = threading.Event()  # set at close: a background render ends early
        self._background: threading.Thread | None = None
        self.catalogue_ready = threading.Event()  # every prepared text is rendered
        for stem in self.pack.files:
            try:
                self._sources[("pack", stem, 0)] = self.pack.load(stem)
            except ClipError as exc:
                self._notice(f"voice pack: {exc}")
        for name in self.pack.bad:
            self._notice(f"voice pack: {name} is not <key>.wav or <key>@<param>=<value>.wav: not used")
        self._open_devices()

    # -- construction ----------------------------------------------------------
    @classmethod
    def from_config(cls, audio: Mapping[str, Any], players: int, lang: str, *,
                    cache_dir: Path | None = None) -> "AudioOutput":
        """From the table TOML's `[audio]` table; ValueError names a broken key, an
        ambiguous identity, or two outputs on the same channels of one device."""
        spec = parse_audio(audio, players)
        try:
            devices = output_devices()
        except Exception:  # no PortAudio: every output is a problem, said when the table starts
            devices = None
        if devices is not None:
            check_outputs(spec.outputs, devices, _cards(spec))
        return cls(spec, players, lang, cache_dir=cache_dir)

    @classmethod
    def default_device(cls, players: int, lang: str, listen: Sequence[str] = ("table", "seat:1"),
                       *, cache_dir: Path | None = None) -> "AudioOutput":
        """The demo: the default device plays the speaker and the listed earphones."""
        outputs = {}
        for audience in listen:
            name = output_name(audience)
            outputs[name] = OutputSpec(name, None, (0, 1), 1.0)
        every = [SPEAKER] + [f"seat-{n}" for n in range(1, players + 1)]
        muted = [n for n in every if n not in outputs]
        return cls(AudioSpec(outputs), players, lang, cache_dir=cache_dir, muted=muted)

    def _open_devices(self) -> None:
        for n in range(1, self.players + 1):
            name = f"seat-{n}"
            if name not in self.spec.outputs and name not in self.muted:
                self.problems[name] = f"no earphone configured: add [audio.outputs.{name}] to the table file"
        if SPEAKER not in self.spec.outputs and SPEAKER not in self.muted:
            self.problems[SPEAKER] = f"no speaker configured: add [audio.outputs.{SPEAKER}] to the table file"
        try:
            devices = output_devices()
        except Exception as exc:  # OSError with the fix, or PortAudio failing
            for name in self.spec.outputs:
                self.problems[name] = str(exc)
            return
        groups: dict[int, tuple[Device, list[OutputSpec]]] = {}
        cards = _cards(self.spec)
        for out in self.spec.outputs.values():
            try:
                dev = resolve(out, devices, cards)
            except (LookupError, IdentityError) as exc:
                self.problems[out.name] = str(exc)
                continue
            if max(out.channels) >= dev.channels:
                shown = [c + 1 for c in out.channels]
                self.problems[out.name] = (f"device {dev.name!r} has {dev.channels} output channels, not "
                                           f"{shown}: set channels = [1, 2] or another device")
                continue
            groups.setdefault(dev.index, (dev, []))[1].append(out)
        for dev, outs in groups.values():
            lanes = [Lane(o.name, o.channels, o.volume, self.latencies) for o in outs]
            need = max(max(o.channels) for o in outs) + 1
            channels = max(need, min(2, dev.channels))
            try:
                mixer = DeviceMixer(dev.index, dev.name, dev.samplerate, channels, lanes)
            except Exception as exc:
                for o in outs:
                    self.problems[o.name] = f"device {dev.name!r} cannot open ({exc}): is another program holding it?"
                continue
            self.mixers.append(mixer)
            for lane in lanes:
                self.lanes[lane.name] = lane
                self.lane_device[lane.name] = mixer

    # -- clips -----------------------------------------------------------------
    def wpm(self, name: str) -> int:
        """The speech rate output `name` plays at now."""
        return self.renderer.rate_of(self.rates.get(name))

    def _live_rates(self) -> list[int]:
        names = [n for n in self.lanes] or [SPEAKER]
        return sorted({self.wpm(n) for n in names})

    def prepare(self, texts: Iterable[str], progress: bool = True, *,
                on_progress: Callable[[int, int], None] | None = None, background: bool = False) -> None:
        """Render a whole catalogue up front, at every output's rate, so no phrase
        waits for the engine mid-game.

        What is not in the cache goes to the engine first, with a bar on the
        terminal (a first start); then every clip is mapped from the cache at
        its device's rate, so `emit` only copies references.  `background`: the
        table already plays (`start`), so the engine's workers yield to it.
        """
        new = [t for t in dict.fromkeys(texts) if t.strip()]
        self._texts = list(dict.fromkeys(self._texts + new))
        if self.renderer.problem is None:
            _, failures = self.renderer.fill_cache(new, self._live_rates(), progress, on_progress=on_progress,
                                                   background=background, stop=self._stop)
            for line in failures:
                self._notice(line)
        rates = sorted({m.samplerate for m in self.mixers})
        for wpm in self._live_rates():
            for text in new:
                src: Source = ("tts", text, wpm)
                if src in self._sources:
                    continue
                if not rates:
                    got = self.renderer.load_cached(text, wpm)
                    if got is not None:
                        self._sources[src] = got
                    continue
                for rate in rates:  # at each device's rate now, so emit only copies references
                    got = self.renderer.load_at(text, wpm, rate)
                    if got is None:
                        break
                    self._sources.setdefault(src, got)
                    self._resampled[(src, rate)] = got[0]

    def start(self, first: Sequence[str], rest: Sequence[str], *, progress: bool = False,
              lines: Callable[[str, int | None], str] | None = None) -> None:
        """A table's start: the phrases said first are rendered first, on every core; the
        rest renders in the background while the table plays (a phrase said before its
        clip is ready renders on its own, as any unrendered phrase does).

        On a first start (a new box, language or voice: many clips missing) the
        wait is said on the speaker: `lines(what, percent)` gives the text of
        "preparing" (percent None) and of each progress step, every
        `PROGRESS_SECONDS`.  Returns once the first phrases are ready."""
        todo = [t for t in dict.fromkeys(first) if t.strip() and not self.renderer.cached(t)]
        if lines is not None and self.renderer.problem is None and len(todo) >= COLD_START_CLIPS:
            self._say_now(lines("preparing", None))
            said = [time.monotonic()]

            def tell(done: int, total: int) -> None:
                if time.monotonic() - said[0] >= PROGRESS_SECONDS and done < total:
                    said[0] = time.monotonic()
                    self._say_now(lines("progress", int(100 * done / total)))
            self.prepare(first, progress, on_progress=tell)
        else:
            self.prepare(first, progress)
        if todo:
            log.warning("voice: the first phrases are ready (%d clips); the rest renders in the background",
                        len(todo))
        started = time.monotonic()

        def render_rest() -> None:
            before = self.renderer.renders
            self.prepare(rest, False, background=True)
            if not self._stop.is_set():
                made = self.renderer.renders - before
                log.warning("voice: the whole catalogue is ready (%d clips rendered in the background in %.1f s)",
                            made, time.monotonic() - started)
                self.catalogue_ready.set()

        self._background = threading.Thread(target=render_rest, name="kikimimi-voice-rest", daemon=True)
        self._background.start()

    def _say_now(self, text: str) -> None:
        """A line of the voice's own on the speaker (its progress), rendered now if need be."""
        for line in self.emit([{"type": "say", "to": "table", "key": "voice-progress", "text": text}]):
            log.warning("%s", line)

    def _source_future(self, src: Source) -> Future:
        fut = self._pending.get(src)
        if fut is None:
            if src[0] == "pack":
                fut = Future()
                try:
                    fut.set_result(self.pack.load(src[1]))
                except ClipError as exc:  # told at start; the phrase is dropped, emit goes on
                    fut.set_exception(exc)
            else:
                fut = self.renderer.submit(src[1], src[2])

            def keep(f: Future, src: Source = src) -> None:
                if f.exception() is None:
                    self._keep(src, f.result())
                self._pending.pop(src, None)

            self._pending[src] = fut
            fut.add_done_callback(keep)
        return fut

    def _keep(self, src: Source, clip: tuple[np.ndarray, int]) -> None:
        """A clip just rendered or loaded: kept at each device's rate, off the emit path.

        A rendered clip is mapped from the cache at the device's rate (as a
        prepared one is), so it costs page cache, not memory, and plays the
        same samples whenever it was rendered."""
        rates = sorted({m.samplerate for m in list(self.mixers)})
        for rate in rates:
            got = self.renderer.load_at(src[1], src[2], rate) if src[0] == "tts" else None
            if got is not None:
                self._resampled[(src, rate)] = got[0]
                self._sources.setdefault(src, got)
            else:
                self._sources.setdefault(src, clip)
                self._samples(src, rate)
        self._sources.setdefault(src, clip)

    def _samples(self, src: Source, rate: int) -> np.ndarray | None:
        got = self._resampled.get((src, rate))
        if got is None and src in self._sources:
            samples, src_rate = self._sources[src]
            got = self._resampled[(src, rate)] = (
                samples if src_rate == rate else resample(as_float(samples), src_rate, rate))
        return got

    def _source(self, name: str, key: str, text: str, params: Mapping[str, Any] | None) -> Source:
        stem = self.pack.match(key, params)
        return ("pack", stem, 0) if stem is not None else ("tts", text, self.wpm(name))

    def clip(self, text: str, rate: int, key: str | None = None, params: Mapping[str, Any] | None = None,
             output: str = SPEAKER) -> np.ndarray:
        """The exact samples a phrase plays as on `output` at sample rate `rate` (rendering it if need be)."""
        src = self._source(output, key or "", text, params)
        if src not in self._sources:
            self._source_future(src).result()
        got = self._samples(src, rate)
        assert got is not None
        return got

    def clip_seconds(self, audience: str, ev: Mapping[str, Any]) -> float:
        """How long a phrase plays on the output of `audience` (its clip's own length, rendered
        if need be): when a question has been heard there (kikimimi.contract.heard).  An output that
        plays nothing (muted, missing) takes the model's length: the player still needs it."""
        name, text = output_name(audience), str(ev.get("text", ""))
        mixer = self.lane_device.get(name)
        params = ev.get("params") if isinstance(ev.get("params"), Mapping) else None
        if mixer is None or name in self.muted or not text.strip():
            return modelled_seconds(text, self.wpm(name))
        src = self._source(name, str(ev.get("key", "")), text, params)
        try:
            samples, rate = self._sources.get(src) or self._source_future(src).result()
        except Exception:  # a clip that cannot render is dropped (said at emit): the model's length
            return modelled_seconds(text, self.wpm(name))
        return len(samples) / rate

    # -- settings ----------------------------------------------------------------
    def apply(self, ev: Mapping[str, Any]) -> None:
        """A `voice` event from the referee console: one output's rate or volume.

        After a rate change the catalogue is re-rendered at the new rate in
        the background; until a phrase's new clip is ready, its clip at the
        nearest rate plays, so no phrase waits for the engine.
        """
        name = ev.get("output")
        if not isinstance(name, str) or (name not in self.spec.outputs and name not in self.lanes):
            return
        if isinstance(ev.get("volume"), int):
            lane = self.lanes.get(name)
            if lane is not None:
                lane.volume = np.float32(min(ev["volume"], 400) / 100.0)
        rate = ev.get("rate")
        if isinstance(rate, int) and MIN_RATE <= rate <= MAX_RATE:
            self.rates[name] = rate
            for text in self._texts:  # on the engine's worker: emit must not wait for the disk
                if ("tts", text, rate) not in self._sources:
                    self._source_future(("tts", text, rate))

    def restore(self, log: Iterable[Mapping[str, Any]]) -> None:
        """Re-apply the `voice` events of a resumed table's log (the journal replayed)."""
        for ev in log:
            if ev.get("type") == "voice":
                self.apply(ev)

    def _stand_in(self, src: Source, rate: int) -> np.ndarray | None:
        """The same text at the nearest speech rate already rendered, while `src` renders."""
        if src[0] != "tts":
            return None
        near = [s for s in list(self._sources) if s[0] == "tts" and s[1] == src[1]]
        if not near:
            return None
        return self._samples(min(near, key=lambda s: abs(s[2] - src[2])), rate)

    # -- playing ---------------------------------------------------------------
    def emit(self, events: Sequence[Mapping[str, Any]], cause_hand_seat: int | None = None) -> list[str]:
        """Queue the `say` events; return one-line problems for the referee.

        `cause_hand_seat=N`: these events answer a new scan on seat N's hand
        reader, so that earphone's stale clips are cut first.
        """
        now = time.perf_counter()
        self._check_devices()
        if cause_hand_seat is not None:
            lane = self.lanes.get(f"seat-{cause_hand_seat}")
            if lane is not None:
                lane.cut()
        for ev in events:
            if ev.get("type") == "voice":
                self.apply(ev)
            elif ev.get("type") == "say":
                self._queue(ev, now)
            elif ev.get("type") == REVEAL:  # one phrase in each listed earphone
                for one in each_audience(ev):
                    self._queue(one, now)
        out = list(self._notices)
        self._notices.clear()
        for line in out:
            log.warning("%s", line)
        return out

    def _queue(self, ev: Mapping[str, Any], now: float) -> None:
        to, key, text = str(ev.get("to", "")), str(ev.get("key", "")), ev.get("text")
        if not isinstance(text, str):
            self._notice(f"voice: say {key!r} to {to} has no text: not spoken")
            return
        params = ev.get("params") if isinstance(ev.get("params"), Mapping) else None
        if not text.strip() and self.pack.match(key, params) is None:
            return
        name = output_name(to)
        if name in self.muted:
            return
        lanes = self._route(name, key)
        for lane in lanes:
            src = self._source(lane.name, key, text, params)
            rate = self.lane_device[lane.name].samplerate
            samples = self._samples(src, rate)
            if samples is None:
                samples = self._stand_in(src, rate)
            item = Item(key, now, samples)
            lane.push(item)
            self.lane_device[lane.name].wake()
            if samples is not None:
                if src[0] == "tts" and src not in self._sources:
                    self._source_future(src)  # the exact rate, for next time
                continue
            fut = self._source_future(src)

            def fill(f: Future, item: Item = item, src: Source = src, rate: int = rate) -> None:
                if f.exception() is not None:
                    item.dropped = True
                    self._notice(f"voice: cannot render {text!r} for {to}: {f.exception()}")
                    return
                self._keep(src, f.result())
                item.samples = self._samples(src, rate)

            fut.add_done_callback(fill)

    def _route(self, name: str, key: str) -> list[Lane]:
        problem = self.problems.get(name)
        if problem is None and name in self.lanes:
            return [self.lanes[name]]
        problem = problem or "no such output"
        if name == SPEAKER:
            seats = [lane for n, lane in self.lanes.items() if n != SPEAKER and n not in self.problems]
            self._notice_once(f"speaker: {problem}; public phrases play in the earphones instead"
                              if seats else f"speaker: {problem}; public phrases are not spoken")
            return seats
        self._notice(f"{name}: {problem}; private phrase {key!r} dropped, tell the player in person")
        return []

    def _check_devices(self) -> None:
        for mixer in self.mixers:
            problem = mixer.check()
            while mixer.notes:  # a stall recovered from: told to the referee; the lanes play on
                self._notice(f"{', '.join(lane.name for lane in mixer.lanes)}: {mixer.notes.pop(0)}")
            if problem:
                for lane in mixer.lanes:
                    if lane.name not in self.problems:
                        self.problems[lane.name] = problem
                        self._notice(f"{lane.name}: {problem}")
                while mixer.lost:
                    name, key = mixer.lost.pop(0)
                    what = "public" if name == SPEAKER else "private"
                    self._notice(f"{name}: {what} phrase {key!r} cut off by the failure"
                                 + ("" if what == "public" else ", tell the player in person"))

    def _notice(self, line: str) -> None:
        self._notices.append(line)

    def _notice_once(self, line: str) -> None:
        if line not in self._told:
            self._told.add(line)
            self._notice(line)

    def wait_idle(self, timeout: float | None = None) -> None:
        """Block until every queue has played out (and left the device buffer)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self._check_devices()
            busy = [lane for name, lane in self.lanes.items()
                    if name not in self.problems and not lane.idle]
            if not busy:
                break
            if deadline is not None and time.monotonic() >= deadline:
                return
            time.sleep(0.005)
        tail = max((m.output_latency for m in self.mixers if m.problem is None), default=0.0)
        if deadline is not None:
            tail = min(tail, max(0.0, deadline - time.monotonic()))
        time.sleep(tail)

    def health(self) -> dict[str, str]:
        """Output name -> "ok" or the problem (plus "voice" for the speech engine)."""
        self._check_devices()
        report = {}
        for name in [SPEAKER] + [f"seat-{n}" for n in range(1, self.players + 1)]:
            if name in self.muted:
                continue
            report[name] = self.problems.get(name, "ok")
        report["voice"] = self.renderer.health()
        return report

    def close(self) -> None:
        self._stop.set()
        if self._background is not None:
            self._background.join(timeout=10)
        for mixer in self.mixers:
            try:
                mixer.close()
            except Exception as exc:  # a vanished device may refuse even to close
                log.debug("closing %s: %s", mixer.name, exc)
        self.mixers.clear()
        self.renderer.close()

    def __enter__(self) -> "AudioOutput":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()
