"""The Trident (issue 3): the flagship kikimimi game, as a plugin.

`TridentGame` is the entry point of the `kikimimi.games` group; the pieces
are in `pieces`, the phases in `machine`, the bots in `simulation`.
"""
from .game import OptionError, TridentGame
from .pieces import BY_TAG, PIECES, Kind, Piece, Suit

__all__ = ["TridentGame", "OptionError", "PIECES", "BY_TAG", "Piece", "Kind", "Suit"]
