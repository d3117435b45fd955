"""イントリーゲ (Intrige, issue 14): bribes, conflicts and private cash, played by ear.

`IntrigueGame` is the entry point of the `kikimimi.games` group; the editions
are data in `editions`, the pieces in `pieces`, the turn's steps in
`machine`, the bots in `bots` and the designer's report in `tuning`.
"""
from .editions import EDITIONS, Edition
from .game import IntrigueGame

__all__ = ["IntrigueGame", "EDITIONS", "Edition"]
