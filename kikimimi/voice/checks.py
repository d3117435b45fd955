"""`kikimimi doctor` findings about sound: which devices exist, what each output maps to."""
from __future__ import annotations

from collections.abc import Mapping
import re
from typing import Any

from kikimimi.contract.finding import Check

from .config import SPEAKER, parse_audio
from .devices import PORTAUDIO_FIX, output_devices
from .identity import IdentityError, resolve, sound_cards
from .engines import OPENJTALK_FIX, choose

#: Devices that are a sound server, not a card (PulseAudio/PipeWire re-route on unplug).
_SERVER_DEVICE = re.compile(r"^(default|sysdefault|pulse|pipewire|jack)$|pulse|pipewire", re.I)


def doctor_checks(audio: Mapping[str, Any] | None, players: int, lang: str | None = None) -> list[Check]:
    """Every finding, ok or not, each with the fix when something is wrong."""
    checks: list[Check] = []
    try:
        devices = output_devices()
    except OSError as exc:
        return [Check("audio library", False, str(exc).split(":")[0], PORTAUDIO_FIX)]
    except Exception as exc:
        return [Check("audio library", False, f"PortAudio failed to start: {exc}",
                      "check the ALSA/PulseAudio setup (aplay -l)")]
    if devices:
        listing = "; ".join(f"#{d.index} {d.name} ({d.channels} ch, {d.samplerate} Hz)" for d in devices)
        checks.append(Check("audio devices", True, listing))
    else:
        checks.append(Check("audio devices", False, "no output device found",
                            "plug in a sound card (or start PulseAudio); the table speaks as text meanwhile"))
    checks.extend(_speech_checks(lang, audio))
    if audio is None:
        checks.append(Check("audio outputs", False, "no [audio] table in the table file",
                            "add [audio.outputs.speaker] and [audio.outputs.seat-N] with device and channels"))
        return checks
    try:
        spec = parse_audio(audio, players)
    except ValueError as exc:
        return checks + [Check("audio config", False, str(exc), "correct that key in the table file")]
    names = [SPEAKER] + [f"seat-{n}" for n in range(1, players + 1)]
    cards = sound_cards() if any(o.usb or o.serial for o in spec.outputs.values()) else []
    for name in names:
        out = spec.outputs.get(name)
        if out is None:
            checks.append(Check(f"output {name}", False, "not configured",
                                f"add [audio.outputs.{name}] device = ..., channels = [1, 2]"))
            continue
        try:
            dev = resolve(out, devices, cards)
        except IdentityError as exc:
            checks.append(Check(f"output {name}", False, str(exc).split(": ", 1)[-1],
                                "run kikimimi table setup, or set usb = the card's port"))
            continue
        except LookupError as exc:
            text = str(exc)
            detail, _, fix = text.partition(": ")
            checks.append(Check(f"output {name}", False, detail, fix or "plug the device in"))
            continue
        shown = [c + 1 for c in out.channels]
        if max(out.channels) >= dev.channels:
            checks.append(Check(f"output {name}", False,
                                f"{dev.name!r} has {dev.channels} channels, configured {shown}",
                                f"set channels within 1..{dev.channels}, or device = a bigger interface"))
        elif name != SPEAKER and _SERVER_DEVICE.search(dev.name):
            checks.append(Check(f"output {name}", False,
                                f"{dev.name!r} goes through the sound server, which moves a stream to "
                                "another output when its device is unplugged: secrets could reach the speaker",
                                "set device = the earphone's own card (its ALSA hw name) for every seat"))
        else:
            checks.append(Check(f"output {name}", True,
                                f"#{dev.index} {dev.name!r} channels {shown} volume {out.volume:g}"))
    if spec.pack is not None:
        wavs = sorted(spec.pack.glob("*.wav"))
        checks.append(Check("voice pack", bool(wavs), f"{spec.pack}: {len(wavs)} recorded phrases",
                            "put <phrase key>.wav files in that folder"))
    return checks


def _speech_checks(lang: str | None, audio: Mapping[str, Any] | None = None) -> list[Check]:
    """Which engine speaks each language, and why: a fallback is a finding, with its fix."""
    wanted = "auto"
    if isinstance(audio, Mapping) and isinstance(audio.get("engine"), str):
        wanted = audio["engine"]
    found = []
    for want in ([lang] if lang else ["ja", "en"]):
        try:
            choice = choose(want, wanted)
        except ValueError as exc:
            return [Check("speech engine", False, str(exc), "set [audio] engine = \"auto\"")]
        eng = choice.engine
        detail = f"{eng.name} {eng.version}, voice {choice.voice or '-'}: {choice.why}"
        if choice.problem:
            found.append(Check(f"voice {want}", False, f"{detail}; {choice.problem}",
                               "apt-get install espeak-ng (it ships ja and en voices)"))
        elif want == "ja" and eng.name != "openjtalk":
            found.append(Check(f"voice {want}", False, detail + " (espeak-ng reads kanji as \"Chinese letter\")",
                               OPENJTALK_FIX))
        else:
            found.append(Check(f"voice {want}", True, detail))
    return found
