"""A game's phases as data, on `transitions`: which phase may follow which, and what moves it.

Every game declares its phases one way: `Phases(first, moves, last)`, where a
move is a row of data, either `(from, to, why)` (a game that moves by naming
the next phase: `step(phase, "night")`) or `transitions`' own row
`{"trigger", "source", "dest", "conditions"/"unless"}` (a game that moves by
a named trigger: `fire(play, "drew")`).  The rows are one `transitions.Machine`,
shared by every play of the game: a play holds only its phase, never a
machine or a bound trigger, so a play dropped by an undo is freed at once.
`step` refuses a move the rows do not list and `fire` a trigger its phase
lacks (`PhaseError`, `transitions.MachineError`: a bug in the game, never an
input).  `kikimimi diagram` draws the same rows, so the drawing is the
machine that runs.

Speed is this module's, once for every game: a trigger through
`transitions`' general path costs ~11 us (event data, callback lists,
logging), a third of a Trident input, so `fire` takes the machine's own
transitions compiled into a table (`plain_steps`: check the conditions, set
the phase) wherever a transition runs no callback, and goes through the
machine for everything else.  tests/speed/test_engine_machine.py holds the
two to the same answer for every game, phase, trigger and condition value.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from transitions import Machine

#: A row: (from, to, why), or `transitions`' own (with an optional "why" for the drawing).
Row = tuple[str, str, str] | Mapping[str, Any]
#: One way through a trigger from one phase: (destination, ((condition, wanted value), ...)).
Step = tuple[str, tuple[tuple[str, bool], ...]]
#: `transitions`' keys a row may carry; "why" is the drawing's.
_ROW_KEYS = frozenset({"trigger", "source", "dest", "conditions", "unless", "before", "after", "prepare", "why"})


class PhaseError(RuntimeError):
    """A move the game's table of phases does not list: a bug in the game, never an input."""


@dataclass(frozen=True)
class Move:
    source: str
    dest: str
    why: str
    #: The trigger that makes the move: the destination's name, for a (from, to, why) row.
    trigger: str = ""


class Phases:
    """The phases of one game: the first, the moves between them, the last, on one machine."""

    def __init__(self, first: str, moves: Iterable[Row], last: str, *,
                 from_any: Iterable[tuple[str, str]] = (), states: Sequence[str] = (),
                 title: str = "", show_conditions: bool = False):
        """`from_any`: moves any phase may make, as (to, why) — the referee's `stop`, a game
        that ends the moment a seat wins — written once instead of a row per phase (an
        outside author listed 17).  They go from every phase the rows name but `to` and
        `last`, after the rows, and are drawn like them.  `states`: the phases in the
        order to draw them (default: as the rows name them).  `title`: the drawing is
        `transitions`' own (`GraphMachine`, with the conditions if `show_conditions`)."""
        self.first, self.last, self.title, self.show_conditions = first, last, title, show_conditions
        rows: list[Move] = []
        self.transitions: list[dict[str, Any]] = []
        for row in moves:
            if isinstance(row, Mapping):
                unknown = set(row) - _ROW_KEYS
                if unknown:
                    raise ValueError(f"a phase row has no key {sorted(unknown)[0]!r} (have: {', '.join(sorted(_ROW_KEYS))})")
                spec = {k: v for k, v in row.items() if k != "why"}
                sources = [row["source"]] if isinstance(row["source"], str) else list(row["source"])
                rows += [Move(s, row["dest"], str(row.get("why", row["trigger"])), row["trigger"]) for s in sources]
                self.transitions.append(spec)
            else:
                source, dest, why = row
                rows.append(Move(source, dest, why, dest))
                self.transitions.append({"trigger": dest, "source": source, "dest": dest})
        named = list(dict.fromkeys([first, *(p for m in rows for p in (m.source, m.dest))]))
        listed = {(m.source, m.dest) for m in rows}
        for dest, why in from_any:
            extra = [Move(p, dest, why, dest) for p in named if p not in (dest, last) and (p, dest) not in listed]
            rows += extra
            self.transitions += [{"trigger": dest, "source": m.source, "dest": dest} for m in extra]
        self.moves = tuple(rows)
        self._allowed = frozenset((m.source, m.dest) for m in self.moves)
        self.names = tuple(dict.fromkeys([first, *(p for m in self.moves for p in (m.source, m.dest)), last]))
        self.states = list(states) or list(self.names)
        self.machine = Machine(model=None, **self._kwargs())
        #: Every trigger the rows name.
        self.triggers = tuple(sorted({m.trigger for m in self.moves}))
        self.plain = plain_steps(self.machine)

    def _kwargs(self) -> dict[str, Any]:
        return dict(states=self.states, transitions=self.transitions, initial=self.first,
                    auto_transitions=False, ignore_invalid_triggers=False)

    # -- moving -----------------------------------------------------------------------
    def step(self, source: str, dest: str) -> str:
        """`dest`, if the table lets `source` move there (a game that holds its phase itself)."""
        if (source, dest) not in self._allowed:
            raise PhaseError(f"no move from phase {source!r} to {dest!r}")
        return dest

    def attach(self, play: Any, state: str | None = None) -> None:
        """A new play, in the first phase (or `state`): its `state` is all the machine needs."""
        play.state = self.first if state is None else state

    def fire(self, play: Any, trigger: str) -> bool:
        """`trigger` on `play`, as the machine takes it (True: the phase moved; a trigger its
        phase does not have is the machine's `MachineError`, a bug in the game)."""
        ways = self.plain.get((trigger, play.state))
        if ways is None:  # a callback to run, or not a trigger of this phase: the machine's way
            return bool(self.machine.events[trigger].trigger(play))
        for dest, conditions in ways:
            for name, wanted in conditions:
                value = getattr(play, name)
                if (value() if callable(value) else value) != wanted:
                    break
            else:
                play.state = dest
                return True
        return False

    # -- drawing ------------------------------------------------------------------------
    def mermaid(self) -> str:
        """The table as a Mermaid state diagram: the rows and their reasons, or, with a
        title, as `transitions` itself draws the machine (no graphviz needed)."""
        if self.title:
            from transitions.extensions import GraphMachine

            drawing = type("_Drawing", (), dict.fromkeys(self._conditions(), False))()  # a play's stand-in
            graph = GraphMachine(model=drawing, graph_engine="mermaid", title=self.title,
                                 show_conditions=self.show_conditions, **self._kwargs())
            return str(graph.get_graph().draw(None))
        return "\n".join(["stateDiagram-v2", f"    [*] --> {self.first}"]
                         + [f"    {m.source} --> {m.dest}: {m.why}" for m in self.moves]
                         + [f"    {self.last} --> [*]"])

    def _conditions(self) -> list[str]:
        names: list[str] = []
        for row in self.transitions:
            for key in ("conditions", "unless"):
                given = row.get(key) or []
                names += [given] if isinstance(given, str) else [c for c in given if isinstance(c, str)]
        return names


def plain_steps(machine: Machine) -> dict[tuple[str, str], tuple[Step, ...]]:
    """(trigger, phase) -> the machine's transitions to try, in its order, for
    the pairs where taking a transition runs no callback: nothing but its
    conditions (model attribute names) and the new phase.  A pair left out
    goes through the machine's own trigger."""
    if (machine.prepare_event or machine.before_state_change or machine.after_state_change
            or machine.finalize_event or machine.on_exception or machine.on_final
            or machine.send_event or machine.has_queue or machine.model_attribute != "state"):
        return {}
    quiet = {name for name, st in machine.states.items() if not (st.on_enter or st.on_exit or st.final)}
    table: dict[tuple[str, str], tuple[Step, ...]] = {}
    for trigger, ev in machine.events.items():
        for source, transitions in ev.transitions.items():
            steps: list[Step] = []
            for tr in transitions:
                if (tr.prepare or tr.before or tr.after or tr.dest is None or tr.dest not in quiet
                        or source not in quiet or not all(isinstance(c.func, str) for c in tr.conditions)):
                    break
                steps.append((tr.dest, tuple((c.func, c.target) for c in tr.conditions if isinstance(c.func, str))))
            else:
                table[(trigger, source)] = tuple(steps)
    return table
