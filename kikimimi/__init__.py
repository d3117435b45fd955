"""kikimimi: a controller for voice-output games played with NFC-tagged pieces."""
__version__ = "0.1.0"
