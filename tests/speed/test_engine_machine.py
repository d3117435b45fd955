"""The Trident's fast trigger (`machine.step`) takes exactly the transitions
`transitions` itself takes, from every phase, for every trigger and condition
value; and anything with a callback still goes through the machine."""
from __future__ import annotations

from functools import partial

import pytest
from transitions import Machine, MachineError

from kikimimi_games.trident import TridentGame, machine


class _Model(machine.PhaseModel):
    def __init__(self, state: str, has_drawn: bool) -> None:
        self.state = state
        self.has_drawn = has_drawn


def _slow(state: str, has_drawn: bool, trigger: str) -> tuple[object, str]:
    """What the machine's own trigger does (a fresh model bound the transitions way)."""
    model = _Model("dealing", has_drawn)
    machine.MACHINE.add_model(model, initial=state)
    machine.MACHINE.remove_model(model)
    try:
        result: object = getattr(model, trigger)()
    except MachineError:
        result = MachineError
    return result, model.state


def _fast(state: str, has_drawn: bool, trigger: str) -> tuple[object, str]:
    model = _Model(state, has_drawn)
    try:
        result: object = machine.step(model, trigger)
    except MachineError:
        result = MachineError
    return result, model.state


@pytest.mark.parametrize("state", machine.STATES)
@pytest.mark.parametrize("trigger", machine.TRIGGERS)
@pytest.mark.parametrize("has_drawn", [False, True])
def test_step_takes_what_the_machine_takes(state, trigger, has_drawn):
    assert _fast(state, has_drawn, trigger) == _slow(state, has_drawn, trigger)


def test_every_trigger_of_every_phase_is_plain_and_a_game_binds_step():
    """No transition here has a callback, so none pays for the general path;
    binding a game (which could add `on_enter_*` callbacks) changes nothing."""
    assert set(machine.PLAIN) == {(t, s) for t, ev in machine.MACHINE.events.items() for s in ev.transitions}
    game = TridentGame(3, {})
    assert machine.plain_steps(machine.MACHINE) == machine.PLAIN
    assert game.drew.func is machine.step and game.drew.args == (game, "drew")
    assert game.may_drew() is False and game.is_dealing()  # the machine's other bindings stay


def _bindings(model: object) -> dict[str, object]:
    """A model's bindings, comparable across models: a partial as (function, its arguments, the model marked)."""
    out: dict[str, object] = {}
    for name, value in vars(model).items():
        if isinstance(value, partial):
            out[name] = (value.func, tuple("MODEL" if a is model else a for a in value.args), value.keywords)
        else:
            out[name] = value
    return out


def test_a_later_game_is_bound_as_the_machine_binds_one():
    """`attach` learns from a class's first game what `add_model` binds and
    binds the next ones the same (the machine's bookkeeping cost ~40 us a game)."""
    first, later = TridentGame(3, {}), TridentGame(3, {})
    by_machine = _Model("turn", False)
    machine.MACHINE.add_model(by_machine, initial="dealing")
    machine.MACHINE.remove_model(by_machine)
    for trigger in machine.TRIGGERS:
        setattr(by_machine, trigger, partial(machine.step, by_machine, trigger))
    game_only = (set(vars(first)) - set(vars(by_machine))) | {"has_drawn"}  # the game's own state
    assert _bindings(later).keys() == _bindings(first).keys()
    assert {k: v for k, v in _bindings(later).items() if k not in game_only} == \
        {k: v for k, v in _bindings(by_machine).items() if k not in game_only}
    assert len(_bindings(by_machine)) == 27 and machine._BINDINGS[TridentGame]
    later.drew  # noqa: B018 - bound
    assert later.is_dealing() and not later.may_drew() and later.state == "dealing"
    assert not machine.MACHINE.models


def test_a_callback_sends_the_pair_through_the_machine():
    calls: list[str] = []

    class Seen:
        state = "a"

        def note(self) -> None:
            calls.append(self.state)

    m = Machine(model=None, states=["a", "b", "c"], initial="a", auto_transitions=False,
                transitions=[{"trigger": "go", "source": "a", "dest": "b", "after": "note"},
                             {"trigger": "go", "source": "b", "dest": "c"}])
    assert machine.plain_steps(m) == {("go", "b"): (("c", ()),)}
    assert machine.plain_steps(Machine(model=None, states=["a"], initial="a", queued=True)) == {}
