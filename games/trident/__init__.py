"""The Trident: the flagship kikimimi game, as a plugin.

`GAME` is the entry point of the `kikimimi.games` group: what the game is,
declared once.  One play is a `TridentGame`; its options are parsed once in
`options`, the pieces are in `pieces`, the phases in `machine`, the bots in
`simulation` and `search`, the console's view in `view`.
"""
from kikimimi.game import Declaration, OfficialSession

from .game import COMMAND_TAGS, COMMANDS, PLAYERS, OptionError, TridentGame, kit, phrase_values
from .options import OPTIONS, TridentOptions
from .pieces import BY_TAG, PIECES, TAGS, Kind, Piece, Suit

GAME = Declaration(
    name="trident", title="The Trident", play=TridentGame, tags=TAGS, kit=kit, phrase_values=phrase_values,
    min_players=PLAYERS.start, max_players=PLAYERS.stop - 1, official_players=3,
    options=OPTIONS, commands=COMMANDS, command_tags=COMMAND_TAGS,
    bots=("human", "random", "ear", "search", "search-random"), bot_table=".search:bot_table",
    report=".tuning:TridentReport", diagram=".machine:mermaid", view=".view:VIEW",
    session=OfficialSession(players=3, options={"scoring": "competition"}))  # the seed's competition rules

__all__ = ["GAME", "TridentGame", "TridentOptions", "OptionError", "PIECES", "BY_TAG", "Piece", "Kind", "Suit"]
