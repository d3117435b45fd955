"""The Trident's phases as a `transitions` machine, declared once as data.

The phases are what the table is waiting for: the deal, the opening piece,
a turn (play or draw), a turn after a draw (play or pass), a suit choice
after change-draw-4, the "everyone forgot" reset piece, and the end.  The
rules that decide *whether* a move is legal live in `game.py`; this module
only says which phase follows which, so the diagram tells a player the shape
of the game at a glance.

One machine is shared by every game: building a `Machine` per game costs
more than a whole game's worth of inputs.  A game is bound to it and at once
released (`remove_model` keeps the bound triggers, as transitions documents),
so the shared machine never holds a game: a game dropped by an undo, a resume
or a `new` is freed like any object, with no hook to remember to call.

A phase change is a few microseconds of the game's own work but ~11 us
through `transitions`' general trigger (event data, callback lists, logging),
about a third of a Trident input.  So `attach` binds each trigger to `step`,
which takes the machine's own transitions compiled into a table (`PLAIN`):
where a transition has no callbacks (none does here), taking it is only
"check its conditions, set the phase", done directly; anything else (a
callback added later, an invalid trigger) goes through the machine's trigger.
A test holds `step` to the machine's trigger for every phase and trigger.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from transitions import Machine

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

#: The triggers the model class must declare (checked by a test against TRANSITIONS).
TRIGGERS = sorted({t["trigger"] for t in TRANSITIONS})


class _Unbound(RuntimeError):
    pass


class PhaseModel:
    """Triggers declared on the class so type checkers and readers see them;
    the shared machine replaces them per instance (`model_override=True`)."""

    state: str
    has_drawn: bool = False

    def dealt(self) -> bool: raise _Unbound("dealt")
    def opened(self) -> bool: raise _Unbound("opened")
    def drew(self) -> bool: raise _Unbound("drew")
    def pass_turn(self) -> bool: raise _Unbound("pass_turn")
    def choose(self) -> bool: raise _Unbound("choose")
    def all_agreed(self) -> bool: raise _Unbound("all_agreed")
    def reset_done(self) -> bool: raise _Unbound("reset_done")
    def finish(self) -> bool: raise _Unbound("finish")

    # Declared too, so the machine binds them instead of logging a warning per game.
    def may_dealt(self) -> bool: raise _Unbound("may_dealt")
    def may_opened(self) -> bool: raise _Unbound("may_opened")
    def may_drew(self) -> bool: raise _Unbound("may_drew")
    def may_pass_turn(self) -> bool: raise _Unbound("may_pass_turn")
    def may_choose(self) -> bool: raise _Unbound("may_choose")
    def may_all_agreed(self) -> bool: raise _Unbound("may_all_agreed")
    def may_reset_done(self) -> bool: raise _Unbound("may_reset_done")
    def may_finish(self) -> bool: raise _Unbound("may_finish")
    def trigger(self, trigger: str) -> bool: raise _Unbound("trigger")
    def may_trigger(self, trigger: str) -> bool: raise _Unbound("may_trigger")
    def is_dealing(self) -> bool: raise _Unbound("is_dealing")
    def is_opening(self) -> bool: raise _Unbound("is_opening")
    def is_turn(self) -> bool: raise _Unbound("is_turn")
    def is_drawn(self) -> bool: raise _Unbound("is_drawn")
    def is_choosing(self) -> bool: raise _Unbound("is_choosing")
    def is_resetting(self) -> bool: raise _Unbound("is_resetting")
    def is_over(self) -> bool: raise _Unbound("is_over")


def _machine_kwargs() -> dict[str, Any]:
    return dict(
        states=STATES, transitions=TRANSITIONS, initial="dealing",
        auto_transitions=False, model_override=True, ignore_invalid_triggers=False,
    )


MACHINE = Machine(model=None, **_machine_kwargs())

#: One way through a trigger from one phase: (destination, ((condition, wanted value), ...)).
Step = tuple[str, tuple[tuple[str, bool], ...]]


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


PLAIN = plain_steps(MACHINE)


def step(model: PhaseModel, trigger: str) -> bool:
    """`trigger` on `model`, as the machine would take it (True: the phase moved)."""
    ways = PLAIN.get((trigger, model.state))
    if ways is None:  # a callback to run, or not a trigger of this phase: the machine's way
        return bool(MACHINE.events[trigger].trigger(model))
    for dest, conditions in ways:
        for name, wanted in conditions:
            value = getattr(model, name)
            if (value() if callable(value) else value) != wanted:
                break
        else:
            model.state = dest
            return True
    return False


#: Per model class: what `MACHINE.add_model` set on its first game, as
#: (name, function, arguments before the model, after it), or a plain value
#: (the initial phase).  None: that class's bindings are not all of that
#: shape, so each of its games goes through add_model.
_BINDINGS: dict[type, list[tuple[str, Any, tuple[Any, ...], tuple[Any, ...]] | tuple[str, Any]] | None] = {}


def _learn(model: PhaseModel) -> list[tuple[str, Any, tuple[Any, ...], tuple[Any, ...]] | tuple[str, Any]] | None:
    """Bind `model` the machine's way and note what that set, so the
    model's class can hold the same bindings once for all its games
    (the machine's per-state and per-trigger bookkeeping is ~40 us a game)."""
    before = dict(vars(model))
    MACHINE.add_model(model, initial="dealing")
    MACHINE.remove_model(model)
    out: list[tuple[str, Any, tuple[Any, ...], tuple[Any, ...]] | tuple[str, Any]] = []
    for name, value in vars(model).items():
        if (name in before and before[name] is value) or name in TRIGGERS:  # triggers: bound to `step` below
            continue
        if isinstance(value, partial):
            at = [i for i, arg in enumerate(value.args) if arg is model]
            if len(at) != 1 or value.keywords or any(arg is model for arg in value.keywords.values()):
                return None
            out.append((name, value.func, value.args[:at[0]], value.args[at[0] + 1:]))
        elif isinstance(value, str):
            out.append((name, value))
        else:
            return None
    return out


class _ModelBound:
    """A binding the machine makes per model (`partial(func, *head, model, *tail)`),
    held once by the model's class: a game reads it as the machine's own."""

    __slots__ = ("func", "head", "tail")

    def __init__(self, func: Any, head: tuple[Any, ...], tail: tuple[Any, ...]) -> None:
        self.func, self.head, self.tail = func, head, tail

    def __get__(self, model: Any, owner: type | None = None) -> Any:
        if model is None:
            return self
        return partial(self.func, *self.head, model, *self.tail)


def _trigger(name: str) -> Any:
    def fire(model: PhaseModel) -> bool:
        return step(model, name)
    fire.__name__ = fire.__qualname__ = name
    return fire


def _bind_class(cls: type, bindings: list[tuple[str, Any, tuple[Any, ...], tuple[Any, ...]] | tuple[str, Any]]) -> None:
    """Put the machine's bindings and the triggers (by `step`) on the class itself."""
    for binding in bindings:
        if len(binding) == 4:
            name, func, head, tail = binding
            setattr(cls, name, _ModelBound(func, head, tail))
    for trigger in TRIGGERS:
        setattr(cls, trigger, _trigger(trigger))


def attach(model: PhaseModel) -> None:
    """Give a new game the shared machine's triggers, in the `dealing` phase,
    without the machine keeping a reference to it; the triggers go by `step`.

    The bindings live on the game's class, learned from its first game: a
    game holds only its phase, so binding it is one store, and a game holds
    no reference to itself (bindings per game made each game a reference
    cycle, left for the garbage collector rather than freed when dropped)."""
    cls = type(model)
    if cls not in _BINDINGS:
        learned = _BINDINGS[cls] = _learn(model)
        if learned is not None:
            for name in [*(b[0] for b in learned if len(b) == 4), *TRIGGERS]:
                vars(model).pop(name, None)  # the class holds it now
            _bind_class(cls, learned)
    bindings = _BINDINGS[cls]
    if bindings is None:  # bindings of another shape: the machine's way, per game
        MACHINE.add_model(model, initial="dealing")
        MACHINE.remove_model(model)
        for trigger in TRIGGERS:
            setattr(model, trigger, partial(step, model, trigger))
        return
    for binding in bindings:
        if len(binding) == 2:
            setattr(model, binding[0], binding[1])


def mermaid() -> str:
    """The phase diagram as Mermaid source (no graphviz binaries needed)."""
    from transitions.extensions import GraphMachine

    class _Drawing:
        has_drawn = False

    gm = GraphMachine(model=_Drawing(), graph_engine="mermaid", title="The Trident",
                      show_conditions=True, **_machine_kwargs())
    return str(gm.get_graph().draw(None))
