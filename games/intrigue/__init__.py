"""イントリーゲ (Intrige): bribes, conflicts and private cash, played by ear.

`GAME` is the entry point of the `kikimimi.games` group: what the game is,
declared once.  One play is an `IntrigueGame`; the editions are data in
`editions`, the pieces in `pieces`, the turn's steps in `machine`, the bots
in `bots` and the designer's report in `tuning`.
"""
from kikimimi.game import Declaration

from .editions import EDITIONS, Edition
from .game import COMMAND_TAGS, COMMANDS, PLAYERS, IntrigueGame, kit, phrase_values
from .options import OPTIONS
from .pieces import all_tags

GAME = Declaration(
    name="intrigue", title="イントリーゲ", play=IntrigueGame, tags=all_tags, kit=kit, phrase_values=phrase_values,
    min_players=PLAYERS.start, max_players=PLAYERS.stop - 1, official_players=4,
    options=OPTIONS, commands=COMMANDS, command_tags=COMMAND_TAGS,
    bots=("greedy", "random", "mixed", "ear", "ev", "ev-table"), bot_table=".bots:IntrigueSimulation",
    report=".tuning:IntrigueReport", diagram=".machine:mermaid")

__all__ = ["GAME", "IntrigueGame", "EDITIONS", "Edition"]
