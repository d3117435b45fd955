"""鬼探し (Oni-sagashi): deduce the hidden culprit, weapon and place by ear."""
from .game import OnisagashiGame

__all__ = ["OnisagashiGame"]
