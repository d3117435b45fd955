"""The steps of an Intrige turn as a `transitions` machine, declared once as data.

A turn is income (instant), then the offers for the garden's advisors, then
the owner's placements, then the dispatch of two advisors; a step with
nothing to do is skipped, and the last round has no dispatch.  Which act is
legal inside a step lives in `game.py`.
"""
from __future__ import annotations

from typing import Any

from transitions import Machine

STATES = ["turn", "offers", "placing", "dispatching", "over"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "begin_turn", "source": ["turn", "placing", "dispatching"], "dest": "turn"},
    {"trigger": "call_offers", "source": "turn", "dest": "offers"},
    {"trigger": "call_placing", "source": "offers", "dest": "placing"},
    {"trigger": "call_dispatch", "source": ["turn", "placing"], "dest": "dispatching"},
    {"trigger": "finish", "source": STATES[:-1], "dest": "over"},
]


def _machine_kwargs() -> dict[str, Any]:
    return dict(states=STATES, transitions=TRANSITIONS, initial="turn", auto_transitions=False)


def attach(model: Any) -> Machine:
    """Give `model` a `state` and one method per trigger."""
    return Machine(model=model, **_machine_kwargs())


def mermaid() -> str:
    """The steps of a turn as Mermaid source, drawn by `transitions` itself."""
    from transitions.extensions import GraphMachine

    class _Drawing:
        pass

    graph = GraphMachine(model=_Drawing(), graph_engine="mermaid", title="Intrige: a turn", **_machine_kwargs())
    return str(graph.get_graph().draw(None))
