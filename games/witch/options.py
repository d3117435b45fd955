"""闇に笑う魔女's table options: the one schema its play, its bots and its ear bots parse.

Kept apart from the game, as every game keeps its `OPTIONS` in `options.py`,
so the bots read them without importing the play.
"""
from __future__ import annotations

from kikimimi.game import Options, anything, choice, number, seat_table, whole

from .rules import ROLES, default_deck

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
