"""マフィア42 (Mafia42): a hidden-role game won by vote power, not by heads.

The jobs are data (`jobs.toml`, read by `jobs`), the win arithmetic is pure
(`power`), the table game is `game`, the bots and the batch report are
`bots` and `tuning`.
"""
from .game import Mafia42Game
from .jobs import Catalogue, default_catalogue
from .power import Decision, Seat, decide, sides

__all__ = ["Mafia42Game", "Catalogue", "default_catalogue", "Decision", "Seat", "decide", "sides"]
