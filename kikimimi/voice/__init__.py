"""Voice: phrases rendered once to clips and played to the right earphone or speaker.

`AudioOutput` is what the runtime talks to; `available()` tells whether a
sound device exists at all (without one the table speaks as text).  Both are
imported on first use, so the engine can read `kikimimi.voice.settings`
without loading numpy or PortAudio.
"""
from typing import Any

__all__ = ["AudioOutput", "available"]


def __getattr__(name: str) -> Any:
    if name == "AudioOutput":
        from .output import AudioOutput
        return AudioOutput
    if name == "available":
        from .devices import available
        return available
    raise AttributeError(name)
