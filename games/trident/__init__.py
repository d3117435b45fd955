"""The Trident: the flagship kikimimi game, as a plugin.

`GAME` is the entry point of the `kikimimi.games` group: what the game is,
declared once.  One play is a `TridentGame`; the pieces are in `pieces`, the
phases in `machine`, the bots in `simulation` and `search`.
"""
from kikimimi.game import Declaration

from .game import COMMANDS, OPTIONS, PLAYERS, OptionError, TridentGame, kit, phrase_values
from .pieces import BY_TAG, PIECES, TAGS, Kind, Piece, Suit

GAME = Declaration(
    name="trident", title="The Trident", play=TridentGame, tags=TAGS, kit=kit, phrase_values=phrase_values,
    min_players=PLAYERS.start, max_players=PLAYERS.stop - 1, official_players=3,
    options=OPTIONS, commands=COMMANDS,
    bots=("human", "random", "ear", "search", "search-random"), bot_table=".search:bot_table",
    report=".tuning:TridentReport", diagram=".machine:mermaid")

__all__ = ["GAME", "TridentGame", "OptionError", "PIECES", "BY_TAG", "Piece", "Kind", "Suit"]
