"""The phases of a 鬼探し table as `transitions` data, on the runtime's `kikimimi.contract.phases.Phases`.

The phases are what the table waits for: the cards to be scanned into the
hands, three declaration tokens on the field, the raise-hand window after
the "have" answers, the granted seat's three answer tokens, the referee's
`deal` for the next round, and the end.  Legality lives in `game.py`.
"""
from __future__ import annotations

from typing import Any

from kikimimi.game import Phases

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


#: One machine for every play (the runtime's helper): a play holds only its `state`
#: and moves by `PHASES.fire(play, trigger)`.
PHASES = Phases("dealing", TRANSITIONS, "over", states=STATES)


def mermaid() -> str:
    """The phases as Mermaid source: each row, labelled by its trigger."""
    return PHASES.mermaid()
