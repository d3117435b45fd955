"""Voice: phrases rendered once to clips and played to the right earphone or speaker.

`AudioOutput` is what the runtime talks to; `available()` tells whether a
sound device exists at all (without one the table speaks as text).
"""
from .devices import available
from .output import AudioOutput

__all__ = ["AudioOutput", "available"]
