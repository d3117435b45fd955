"""The one module a game imports: everything an author needs, from one place.

A game's package writes `from kikimimi.game import Declaration, Play, say, ...` the way an
OpenSpiel game writes `import pyspiel`: the declaration, the play and the events it returns,
speech, options, phases, choices, the deck, the kit, hints, console commands, the ear bots,
the seat sets its phrases name, and the base of its own figures for `kikimimi sim`.  docs/authoring.md walks through each.

What is not here is internal to the runtime and may change under a game.  Two layers are
for advanced games and are imported from their own packages, as the guide says:
`kikimimi.roles` (the hidden-role layer: deals by scanning, teams, votes, nights) and
`kikimimi.design` (the designer's tools beyond a game's own figures: `plot`, `duel`,
`confidence`).

This module only gathers names: it defines nothing, so a name's home module stays the place
its reason is written down.
"""
from __future__ import annotations

from kikimimi.bots.ear import Call, EarBot, EarTable, Handles, Heard, RefereeEar, SeatEar
from kikimimi.bots.observe import deliver
from kikimimi.contract import choices, deck, hints
from kikimimi.contract.commands import Command, dispatch, hint_command, refusal, stop_command
from kikimimi.contract.declaration import Declaration, OfficialSession
from kikimimi.contract.deck import Deck
from kikimimi.contract.hints import Line, line, situation
from kikimimi.contract.kit import deck_cards, own_set
from kikimimi.contract.options import Options, anything, choice, each_seat, number, seat, seat_table, whole
from kikimimi.contract.phases import Phases
from kikimimi.contract.phrases import Phrasebook, load_catalogue
from kikimimi.contract.protocol import (REFEREE, TABLE, Answer, Event, GameEvent, Input, Play, audiences_of,
                                        cancel_timer, error, event, reveal, say, seat_audience, set_timer,
                                        set_timer_after_heard, visible_to)
from kikimimi.contract.view import TableView, by_seat, pieces, short
from kikimimi.design.tuning import Ask, Log, Report, Row, Script, Trial, each_kind, outcome_measures
from kikimimi.voice.domains import MAX_VARIANTS, seat_sets

__all__ = [
    # what a game is, and one play of it (docs/authoring.md, "The declaration" and "The play")
    "Declaration", "Play", "Input", "Event", "GameEvent",
    # its official sessions' table, and its console view (docs/authoring.md, "The console's view")
    "OfficialSession", "TableView", "by_seat", "pieces", "short",
    # events and speech: who hears what
    "TABLE", "REFEREE", "say", "event", "error", "seat_audience", "audiences_of", "visible_to",
    "set_timer", "set_timer_after_heard", "cancel_timer", "reveal", "Answer",
    # options, declared once
    "Options", "anything", "choice", "each_seat", "number", "seat", "seat_table", "whole",
    # phases as data, on transitions
    "Phases",
    # a question for one seat (docs/choices.md), the deck, the kit, HINT
    "choices", "deck", "Deck", "deck_cards", "own_set", "hints", "Line", "line", "situation",
    # the referee's console commands
    "Command", "dispatch", "hint_command", "refusal", "stop_command",
    # phrase catalogues, and the seat sets a phrase may name
    "Phrasebook", "load_catalogue", "seat_sets", "MAX_VARIANTS",
    # bots that play by ear (docs/bots.md)
    "Call", "EarBot", "EarTable", "Handles", "Heard", "RefereeEar", "SeatEar", "deliver",
    # the game's own figures in `kikimimi sim GAME --games N` (docs/authoring.md, "Your game's report")
    "Report", "Trial", "Row", "Script", "Log", "Ask", "each_kind", "outcome_measures",
]
