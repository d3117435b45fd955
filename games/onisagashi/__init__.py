"""鬼探し (Oni-sagashi): deduce the hidden culprit, weapon and place by ear.

`GAME` is the entry point of the `kikimimi.games` group: what the game is,
declared once.  One play is an `OnisagashiGame`.
"""
from kikimimi.game import Declaration

from .cards import all_tags
from .game import COMMAND_TAGS, COMMANDS, OnisagashiGame, kit, phrase_values
from .options import OPTIONS

GAME = Declaration(
    name="onisagashi", title="鬼探し", play=OnisagashiGame, tags=all_tags(), tag_sets=("oni",),
    kit=kit, phrase_values=phrase_values, options=OPTIONS, commands=COMMANDS, command_tags=COMMAND_TAGS,
    min_players=3, max_players=6, official_players=5,
    bots=("best", "random", "ear"), bot_table=".bots:OnisagashiSimulation",
    report=".tuning:OnisagashiReport", diagram=".machine:mermaid",
    pause_when_reader_lost=True)  # a seat that cannot raise its hand: the window's clock stops

__all__ = ["GAME", "OnisagashiGame"]
