"""Finding output devices by the names people write in a table file.

sounddevice is imported lazily: importing it loads PortAudio, which reads the
ALSA configuration once per process, and a machine without PortAudio must
still run every game as text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PORTAUDIO_FIX = "apt-get install libportaudio2"


@dataclass(frozen=True, slots=True)
class Device:
    index: int
    name: str
    channels: int  # max output channels
    samplerate: int


def sounddevice() -> Any:
    """The sounddevice module, or OSError with the fix when PortAudio is missing."""
    try:
        import sounddevice as sd
    except OSError as exc:
        raise OSError(f"PortAudio library not found ({exc}): {PORTAUDIO_FIX}") from None
    return sd


def output_devices() -> list[Device]:
    sd = sounddevice()
    found = []
    for info in sd.query_devices():
        if info["max_output_channels"] > 0:
            found.append(Device(int(info["index"]), str(info["name"]),
                                int(info["max_output_channels"]), int(info["default_samplerate"])))
    return found


def default_output() -> Device | None:
    sd = sounddevice()
    try:
        index = sd.default.device[1]
        if index is None or index < 0:
            index = sd.query_devices(kind="output")["index"]
    except Exception:
        return None
    return next((d for d in output_devices() if d.index == index), None)


def find_device(wanted: str | int | None, devices: list[Device] | None = None) -> Device:
    """The output device an entry names; LookupError (one line, with the fix) if none or several."""
    devices = output_devices() if devices is None else devices
    if wanted is None:
        dev = default_output()
        if dev is None:
            raise LookupError("no default output device: plug in a sound card or set device = ...")
        return dev
    if isinstance(wanted, int):
        for d in devices:
            if d.index == wanted:
                return d
        raise LookupError(f"no output device #{wanted}: plug it in or set device = one of {_listing(devices)}")
    exact = [d for d in devices if d.name == wanted]
    if exact:
        return exact[0]
    hits = [d for d in devices if wanted.lower() in d.name.lower()]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise LookupError(f"no output device matching {wanted!r}: plug it in or set device = one of "
                          f"{_listing(devices)}")
    raise LookupError(f"{wanted!r} matches several devices ({_listing(hits)}): set device = a longer name or an index")


def _listing(devices: list[Device]) -> str:
    if not devices:
        return "(none found)"
    return ", ".join(f"#{d.index} {d.name!r}" for d in devices[:12])


def available() -> str | None:
    """None when a usable output device exists, else the one-line reason."""
    try:
        devices = output_devices()
    except OSError as exc:
        return str(exc)
    except Exception as exc:  # PortAudio failing to initialise
        return f"audio system unusable: {exc}"
    if not devices:
        return "no audio output device found: plug in a sound card or start PulseAudio"
    if default_output() is None:
        return "no default output device: set [audio.outputs.*] device = ... in the table file"
    return None
