"""鬼探し's table options and their check, apart from the game so the bots
and the ear bots can read them without importing the game that loads them."""
from __future__ import annotations

from kikimimi.game import choice, each_seat, number, Options, seat, whole

MODES = ("off", "matrix", "full")
OPTIONS = Options(
    choice("rules", ("beginner", "advanced"), "the rules file's beginner or advanced game"),
    each_seat("assistant", MODES, "full", "the deduction assistant's mode (full: hints too; matrix: the grid only)"),
    whole("rounds", 3, "rounds played (unless target ends the game first)", low=1, optional=True),
    whole("target", None, "points that end the game", low=1, optional=True),
    seat("first", 1, "the seat that declares first"),
    number("raise_window", 8.0, "seconds the raise-hand window stays open", low=0.001),
    number("settle", 3.0, "seconds three declaration tokens lie on the field before the declaration is said",
           low=0.001),
)
