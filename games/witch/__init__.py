"""闇に笑う魔女 (Witch laughing in the dark): a hidden-role game on `kikimimi.roles`.

`GAME` is the entry point of the `kikimimi.games` group: what the game is,
declared once.  One play is a `WitchGame`.
"""
from kikimimi.game import Declaration

from .game import COMMAND_TAGS, WitchGame, kit, phrase_values
from .options import OPTIONS
from .rules import MAX_PLAYERS, MIN_PLAYERS

GAME = Declaration(
    name="witch", title="闇に笑う魔女", play=WitchGame, tags=WitchGame.known_tags, kit=kit,
    phrase_values=phrase_values, min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, official_players=8,
    options=OPTIONS, commands=WitchGame.console_commands, command_tags=COMMAND_TAGS,
    secret_options=frozenset({"preferences"}),  # who asked for which role: no spectator may read it
    bots=("reason", "reason-town", "reason-witches", "plain", "random", "ear"), bot_table=".bots:WitchSimulation",
    report=".tuning:WitchReport", diagram=".game:WitchGame.mermaid",
    pause_when_reader_lost=True,  # a seat that cannot act at night: the night's clock stops
    hint="game",  # its HINT reads the scan's time (the clocks left): the game answers it
    pause_when_field_lost=True,  # the field reader is the microphone: its outage is charged to no speaker
    seat_bots=True)  # every act is a labelled token or typed speech: a bot can take an empty seat

__all__ = ["GAME", "WitchGame"]
