"""The kit's part of `kikimimi doctor`: every game of the evening's kit read out, and what
each game's own tag map still lacks.

Apart from `kikimimi.contract.kit` because it reads a table file (`kikimimi.table.config`):
a kit is part of a game's contract, a table file is the box's.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.contract.kit import kit_for, missing_copies, tags_checked
from kikimimi.table.config import GameChoice


def doctor_checks(config: Any) -> list[Check]:
    """`kikimimi doctor TABLE.toml`: the kit of every game of the evening, read out, and what
    each game's own tag map lacks (each game is played with its own map)."""
    out: list[Check] = []
    for choice in evening_choices(config):
        out += _game_checks(config, choice.game, choice.players, choice.options, choice.tagmap)
    return out


def evening_choices(config: Any) -> list[Any]:
    """The table's games for the evening, its first game first (a config with no `games`: that one)."""
    games = getattr(config, "games", None) or {}
    if not games:
        return [GameChoice(config.game, config.players, dict(config.options), dict(config.tagmap))]
    return sorted(games.values(), key=lambda g: g.game != config.game)


def _game_checks(config: Any, game: str, players: int, options: Mapping[str, Any],
                 tagmap: Mapping[str, str]) -> list[Check]:
    try:
        kit = kit_for(game, players, options)
    except Exception as exc:  # a plugin that cannot say its kit
        return [Check("kit", False, f"{game} cannot list its kit: {exc}", "reinstall the game's package")]
    out = [Check("kit", True, line) for line in kit.lines()]
    if not tags_checked(config):
        return out
    lacking = missing_copies(kit, tagmap)
    if lacking:
        few = ", ".join(f"{p} {have}/{want}" for p, (have, want) in list(lacking.items())[:4])
        more = f" and {len(lacking) - 4} more" if len(lacking) > 4 else ""
        out.append(Check("kit tags", False, f"{kit.game}: {len(lacking)} pieces lack tagged copies: {few}{more}",
                         "run the table set-up again with --force (each player scans what their own set "
                         f"lacks; what is enrolled is kept), or kikimimi tags enroll kit:{kit.game} --players {kit.players} --reader DRIVER:PATH "
                         f"--tagmap (the tag map of {kit.game} in the table file)"))
    else:
        out.append(Check("kit tags", True, f"{kit.game}: every piece of the kit has its {kit.tags()} tagged copies"))
    return out
