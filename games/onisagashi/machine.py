"""The phases of a 鬼探し table as a `transitions` machine, declared once as data.

The phases are what the table waits for: the cards to be scanned into the
hands, three declaration tokens on the field, the raise-hand window after
the "have" answers, the granted seat's three answer tokens, the referee's
`deal` for the next round, and the end.  Legality lives in `game.py`.
"""
from __future__ import annotations

from typing import Any

from transitions import Machine

STATES = ["dealing", "declaring", "window", "answering", "between", "over"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "dealt", "source": "dealing", "dest": "declaring"},
    {"trigger": "declared", "source": "declaring", "dest": "window"},
    {"trigger": "nobody_raised", "source": "window", "dest": "declaring"},
    {"trigger": "granted", "source": "window", "dest": "answering"},
    {"trigger": "judged", "source": "answering", "dest": "between"},
    {"trigger": "redeal", "source": ["dealing", "between"], "dest": "dealing"},
    {"trigger": "finish", "source": STATES[:-1], "dest": "over"},
]


#: One machine for every game: a game takes its triggers from it and is released
#: at once (`remove_model` keeps them), so no game outlives its last reference.
MACHINE = Machine(model=None, states=STATES, transitions=TRANSITIONS,
                  initial="dealing", auto_transitions=False)


def attach(model: Any) -> None:
    """Give `model` a `state` (`dealing`) and one method per trigger."""
    MACHINE.add_model(model, initial="dealing")
    MACHINE.remove_model(model)


def mermaid() -> str:
    lines = ["stateDiagram-v2", "    [*] --> dealing"]
    for t in TRANSITIONS:
        sources = t["source"] if isinstance(t["source"], list) else [t["source"]]
        lines += [f"    {s} --> {t['dest']}: {t['trigger']}" for s in sources]
    lines.append("    over --> [*]")
    return "\n".join(lines)
