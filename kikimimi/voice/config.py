"""The table TOML's `[audio]` table, checked before any device is opened.

    [audio]
    engine = "auto"           # optional: auto | openjtalk | espeak-ng | pyttsx3
    voice = "jpx/ja"          # optional: an espeak-ng/pyttsx3 voice id
    rate = 160                # optional: words per minute, every output's default
    pack = "voices/packs/x"   # optional: recorded clips <key>.wav, <key>@<value>.wav
    [audio.outputs.speaker]
    device = "USB"            # name substring or PortAudio index
    channels = [1, 2]         # 1-based, on that device
    volume = 1.0
    [audio.outputs.seat-1]
    device = "USB"
    channels = [3, 4]
    rate = 320                # this earphone's own speech rate
    [audio.outputs.seat-2]
    usb = "1-1.3"             # or: the card in this USB port (stable; voice/identity.py)
    [audio.outputs.seat-3]
    serial = "A1B2C3"         # or: the card with this USB serial number

A broken entry raises ValueError with one line naming the key, so a typo is
found at start and not in the middle of a game.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engines import ENGINES
from .settings import MAX_RATE, MIN_RATE

SPEAKER = "speaker"
_SEAT = re.compile(r"seat-([1-9][0-9]*)$")
MAX_VOLUME = 4.0


@dataclass(frozen=True, slots=True)
class OutputSpec:
    name: str  # "speaker" or "seat-N"
    device: str | int | None  # None: the system default output
    channels: tuple[int, ...]  # 0-based
    volume: float = 1.0
    rate: int | None = None  # words per minute; None: the table's [audio] rate
    usb: str | None = None  # the USB port the card is plugged into ("1-1.3")
    serial: str | None = None  # the card's USB serial number

    @property
    def audience(self) -> str:
        return "table" if self.name == SPEAKER else "seat:" + self.name.split("-", 1)[1]


@dataclass(frozen=True, slots=True)
class AudioSpec:
    outputs: dict[str, OutputSpec]
    voice: str | None = None
    rate: int | None = None
    pack: Path | None = None
    engine: str = "auto"


def output_name(audience: str) -> str:
    """"table" -> "speaker", "seat:3" -> "seat-3" (the config's names)."""
    return SPEAKER if audience == "table" else audience.replace(":", "-", 1)


def parse_audio(audio: Mapping[str, Any], players: int) -> AudioSpec:
    """Check and normalise the `[audio]` table for a table of `players` seats."""
    if not isinstance(audio, Mapping):
        raise ValueError("[audio] must be a table")
    known = {"outputs", "voice", "rate", "pack", "engine"}
    for key in audio:
        if key not in known:
            raise ValueError(f"audio.{key}: unknown key (have: {', '.join(sorted(known))})")
    voice = audio.get("voice")
    if voice is not None and (not isinstance(voice, str) or not voice.strip()):
        raise ValueError("audio.voice: must be a voice id string, e.g. \"jpx/ja\"")
    engine = audio.get("engine", "auto")
    if engine not in ENGINES:
        raise ValueError(f"audio.engine: must be one of {', '.join(ENGINES)} (got {engine!r})")
    rate = _rate(audio.get("rate"), "audio.rate")
    pack = audio.get("pack")
    if pack is not None:
        if not isinstance(pack, str) or not Path(pack).is_dir():
            raise ValueError(f"audio.pack: {pack!r} is not a folder of <key>.wav clips")
        pack = Path(pack)
    outputs_raw = audio.get("outputs", {})
    if not isinstance(outputs_raw, Mapping):
        raise ValueError("audio.outputs: must be a table of [audio.outputs.NAME] sections")
    outputs: dict[str, OutputSpec] = {}
    for name, section in outputs_raw.items():
        outputs[name] = _parse_output(name, section, players)
    return AudioSpec(outputs, voice, rate, pack, engine)


def _rate(rate: Any, where: str) -> int | None:
    if rate is not None and (isinstance(rate, bool) or not isinstance(rate, int)
                             or not MIN_RATE <= rate <= MAX_RATE):
        raise ValueError(f"{where}: must be words per minute, {MIN_RATE}-{MAX_RATE} (got {rate!r})")
    return rate


def _parse_output(name: str, section: Any, players: int) -> OutputSpec:
    where = f"audio.outputs.{name}"
    m = _SEAT.match(name)
    if name != SPEAKER and not m:
        raise ValueError(f"{where}: unknown output (use \"speaker\" or \"seat-1\" .. \"seat-{players}\")")
    if m and int(m.group(1)) > players:
        raise ValueError(f"{where}: this table has only {players} seats")
    if not isinstance(section, Mapping):
        raise ValueError(f"{where}: must be a table with device and channels")
    for key in section:
        if key not in OUTPUT_KEYS:
            raise ValueError(f"{where}.{key}: unknown key (have: {', '.join(OUTPUT_KEYS)})")
    usb, serial = _identity(where, section)
    device = section.get("device")
    if isinstance(device, bool) or not (device is None or isinstance(device, (str, int))):
        raise ValueError(f"{where}.device: must be a name substring or a device index")
    if isinstance(device, str):
        device = device.strip()
        if device.isascii() and device.isdigit():  # "²" is a name, not an index
            device = int(device)
        elif not device:
            raise ValueError(f"{where}.device: empty name")
    if isinstance(device, int) and device < 0:
        raise ValueError(f"{where}.device: index must be 0 or more")
    channels = section.get("channels", [1, 2])
    if (not isinstance(channels, list) or not 1 <= len(channels) <= 2
            or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in channels)
            or len(set(channels)) != len(channels)):
        raise ValueError(f"{where}.channels: must be one or two 1-based channel numbers, e.g. [3, 4]")
    volume = section.get("volume", 1.0)
    if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not 0.0 <= volume <= MAX_VOLUME:
        raise ValueError(f"{where}.volume: must be a number from 0 to {MAX_VOLUME:g}")
    rate = _rate(section.get("rate"), f"{where}.rate")
    return OutputSpec(name, device, tuple(c - 1 for c in channels), float(volume), rate, usb, serial)


OUTPUT_KEYS = ("channels", "device", "rate", "serial", "usb", "volume")
_USB_PORT = re.compile(r"^[0-9]+-[0-9]+(\.[0-9]+)*$")
_SERIAL = re.compile(r"^[\x21-\x7e]{1,126}$")


def _identity(where: str, section: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """`usb` or `serial`: one stable name for the card, never beside a `device` name."""
    named = [k for k in ("device", "usb", "serial") if k in section]
    if len(named) > 1:
        raise ValueError(f"{where}: {' and '.join(named)} both name the card: keep one (usb or serial: "
                         "they survive a reboot)")
    usb, serial = section.get("usb"), section.get("serial")
    if usb is not None and (not isinstance(usb, str) or not _USB_PORT.match(usb)):
        raise ValueError(f"{where}.usb: must be a USB port like \"1-1.3\" (ls /sys/bus/usb/devices), not {usb!r}")
    if serial is not None and (not isinstance(serial, str) or not _SERIAL.match(serial)):
        raise ValueError(f"{where}.serial: must be the card's USB serial number (printable, no spaces), "
                         f"not {serial!r}")
    return usb, serial
