"""マフィア42 (Mafia42): a hidden-role game won by vote power, not by heads.

`GAME` is the entry point of the `kikimimi.games` group: what the game is,
declared once.  The jobs are data (`jobs.toml`, read by `jobs`), the win
arithmetic is pure (`power`), one play is `game.Mafia42Game`, the bots and
the batch report are `bots` and `tuning`.
"""
from kikimimi.game import Declaration

from .game import COMMAND_TAGS, Mafia42Game, kit, phrase_values
from .jobs import Catalogue, default_catalogue
from .options import OPTIONS
from .power import Decision, Seat, decide, sides

GAME = Declaration(
    name="mafia42", title="マフィア42", play=Mafia42Game, tags=Mafia42Game.known_tags, kit=kit,
    phrase_values=phrase_values, min_players=4, max_players=12, official_players=8,
    options=OPTIONS, commands=Mafia42Game.console_commands, command_tags=COMMAND_TAGS,
    secret_options=frozenset({"skills"}),  # a seat's skill tells its side: no spectator may read it
    bots=("reason", "plain", "reason-core", "ear"), bot_table=".bots:Mafia42Simulation",
    report=".tuning:Mafia42Report", diagram=".game:Mafia42Game.mermaid",
    pause_when_reader_lost=True,  # a seat whose reader is lost cannot act: its phase's clock stops
    hint="game",  # its HINT reads the scan's time (the clocks left): the game answers it
    seat_bots=True)  # every act is a labelled token: a bot can take an empty seat

__all__ = ["GAME", "Mafia42Game", "Catalogue", "default_catalogue", "Decision", "Seat", "decide", "sides"]
