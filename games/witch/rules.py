"""闇に笑う魔女's roles, teams, phases and the default deck per player count (its options: `options`).

Everything here is a line of `docs/rules/witch.md` turned into data.
"""
from __future__ import annotations

from kikimimi.game import Phases

ROLES = ("human", "witch", "mirror", "priest", "familiar", "knight", "twin", "imp")
TEAMS = {"human": "islanders", "witch": "witches", "mirror": "islanders", "priest": "islanders",
         "familiar": "witches", "knight": "islanders", "twin": "islanders", "imp": "imp"}
#: Told at the deal: the witches know the witches (never the familiar), the twins each other.
KNOWS = {"witch": ("witch",), "twin": ("twin",)}

MIN_PLAYERS, MAX_PLAYERS = 5, 16

#: The phases and what moves the island from one to the next; the game steps only
#: through these (`Phases.step`) and `kikimimi diagram witch` draws them.  A tie at the
#: count is voted again inside the day (the rules' second round is not a phase).
PHASES = Phases("deal", (
    ("deal", "prologue", "every seat scanned a role card"),
    ("prologue", "day", "all OK / next"),
    ("day", "night", "one player voted out (most votes, most over both rounds, the lot)"),
    ("night", "day", "all scanned / time limit / next (morning)"),
    ("day", "epilogue", "a win after the vote"),
    ("night", "epilogue", "a win in the morning"),
    ("deal", "epilogue", "stop"),
    ("prologue", "epilogue", "stop"),
    ("epilogue", "over", "every role told"),
), "over")


def default_deck(players: int) -> list[str]:
    """Ruling: the role mix per player count (a table setting; `roles` overrides it).

    Witches about a quarter of the island; the mirror always; the knight from
    6, the priest from 7, the familiar from 8, the twins from 9, the imp from 10.
    """
    witches = 1 if players <= 7 else 2 if players <= 11 else 3
    deck = ["witch"] * witches + ["mirror"]
    for role, count, from_ in (("knight", 1, 6), ("priest", 1, 7), ("familiar", 1, 8), ("twin", 2, 9), ("imp", 1, 10)):
        if players >= from_:
            deck += [role] * count
    return deck + ["human"] * (players - len(deck))


def finding(role: str | None) -> str:
    """What the mirror and the priest learn: the imp and the familiar read human."""
    return "witch" if role == "witch" else "human"

