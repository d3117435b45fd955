"""The Trident's phases as `transitions` data, on the runtime's `kikimimi.contract.phases.Phases`.

The phases are what the table is waiting for: the deal, the opening piece,
a turn (play or draw), a turn after a draw (play or pass), a suit choice
after change-draw-4, the "everyone forgot" reset piece, and the end.  The
rules that decide *whether* a move is legal live in `game.py`; this module
only says which phase follows which, so the diagram tells a player the shape
of the game at a glance.  A play moves by `PHASES.fire(play, trigger)`.
"""
from __future__ import annotations

from typing import Any

from kikimimi.game import Phases

STATES = ["dealing", "opening", "turn", "drawn", "choosing", "resetting", "over"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "dealt", "source": "dealing", "dest": "opening"},
    {"trigger": "opened", "source": "opening", "dest": "turn"},
    {"trigger": "drew", "source": "turn", "dest": "drawn"},
    {"trigger": "pass_turn", "source": ["turn", "drawn", "choosing"], "dest": "turn"},
    {"trigger": "choose", "source": ["turn", "drawn"], "dest": "choosing"},
    {"trigger": "all_agreed", "source": ["turn", "drawn"], "dest": "resetting"},
    {"trigger": "reset_done", "source": "resetting", "dest": "drawn", "conditions": "has_drawn"},
    {"trigger": "reset_done", "source": "resetting", "dest": "turn", "unless": "has_drawn"},
    {"trigger": "finish", "source": ["dealing", "opening", "turn", "drawn", "choosing", "resetting"], "dest": "over"},
]

PHASES = Phases("dealing", TRANSITIONS, "over", states=STATES, title="The Trident", show_conditions=True)


def mermaid() -> str:
    """The phase diagram as Mermaid source (no graphviz binaries needed)."""
    return PHASES.mermaid()
