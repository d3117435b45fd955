"""The steps of an Intrige turn as `transitions` data, on the runtime's `kikimimi.contract.phases.Phases`.

A turn is income (instant), then the offers for the garden's advisors, then
the owner's placements, then the dispatch of two advisors; a step with
nothing to do is skipped, and the last round has no dispatch.  Which act is
legal inside a step lives in `game.py`.
"""
from __future__ import annotations

from typing import Any

from kikimimi.game import Phases

STATES = ["turn", "offers", "placing", "dispatching", "over"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "begin_turn", "source": ["turn", "placing", "dispatching"], "dest": "turn"},
    {"trigger": "call_offers", "source": "turn", "dest": "offers"},
    {"trigger": "call_placing", "source": "offers", "dest": "placing"},
    {"trigger": "call_dispatch", "source": ["turn", "placing"], "dest": "dispatching"},
    {"trigger": "finish", "source": STATES[:-1], "dest": "over"},
]


#: One machine for every play (the runtime's helper): a play holds only its `state`
#: and moves by `PHASES.fire(play, trigger)`.
PHASES = Phases("turn", TRANSITIONS, "over", states=STATES, title="Intrige: a turn")


def mermaid() -> str:
    """The steps of a turn as Mermaid source, drawn by `transitions` itself."""
    return PHASES.mermaid()
