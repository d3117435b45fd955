"""The phrase keys the layer itself says: every hidden-role game's catalogue needs them.

The engine loads only the core catalogue and the game's own, so each game
words these in its own voice (a witch's "role", a mafia "job"); a game's
test calls `missing_layer_phrases` to keep its catalogues complete.
"""
from __future__ import annotations

from kikimimi.contract.phrases import load_catalogue

LAYER_PHRASES = (
    "scan-role", "your-role", "role-scanned", "partners", "dealt", "role-card-taken", "role-not-in-deck",
    "role-already-dealt", "scan-role-first", "you-are-out", "not-now", "hint-phase", "hint-phase-only",
    "hint-alive", "hint-out", "game-over", "game-void", "game-stopped", "reveal",
)

#: The keys the layer ends a game with (a won game, a void one, a stopped one).
GAME_ENDS = ("game-over", "game-void", "game-stopped")


def missing_layer_phrases(catalogue: str, lang: str) -> list[str]:
    """Layer phrase keys absent from `voices/<catalogue>/<lang>.toml`."""
    phrases, _ = load_catalogue(catalogue, lang)
    return [k for k in LAYER_PHRASES if k not in phrases]
