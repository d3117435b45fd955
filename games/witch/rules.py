"""闇に笑う魔女's roles, teams, the default deck per player count, and its options.

Everything here is a line of `docs/rules/witch.md` turned into data.
"""
from __future__ import annotations

from typing import Any

from kikimimi.game import anything, choice, number, Options, Phases, seat_table, whole

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


OPTIONS = Options(
    anything("roles", None, "the role deck (a list of role names, one per seat); default: by player count",
             by_players=default_deck),
    whole("chars_per_minute", 8, "a minute of the day per this many characters spoken", low=1),
    whole("allowance", 180, "each seat's speaking allowance per day (minutes)", low=1),
    whole("day_minutes", 720, "virtual minutes in a day", low=1),
    whole("night_minutes", 360, "virtual minutes in a night", low=1),
    number("token_chars_per_second", 8, "characters a second of the seat token on the microphone costs", low=1),
    number("night_seconds", 120, "seconds a night waits for every night action", low=1),
    # beyond docs/contract.md (table settings the rules file names)
    whole("overrun", 10, "minutes a last speech may exceed an allowance", low=0),
    whole("island_bonus", 30, "minutes of allowance added per player below 7", low=0),
    whole("advisory_min", 5, "the shortest speech-restraint advisory, in minutes", low=0),
    whole("advisory_max", 30, "the longest speech-restraint advisory, in minutes", low=0),
    whole("silence_minutes", 60, "virtual minutes a chosen silence lasts", low=1),
    choice("day_acts", ("together", "acts", "free"), "together: every motion of the day is one every living seat "
           "makes, in calls all answer (silence calls: SILENCE or PASS; the vote call: a day act, ADVISE, EXORCISE or "
           "PASS, then a seat token, and a ballot; the last word: one more seat token); acts: only the day act so, "
           "silence and ballots whenever a seat likes (the older rule, docs/witch.md); free: powers, "
           "silence and ballots as their holder likes"),
    seat_table("preferences", ROLES, "seats' role wishes, e.g. {\"1\": \"mirror\"}"),
    whole("seed", 0, "mixed into the lot (the table's secret: drawn when first served if unset)", low=0, high=2**62),
    at_most={"advisory_min": "advisory_max"},
)
DEFAULTS: dict[str, Any] = OPTIONS.defaults

