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
    assert game.drew.__func__ is TridentGame.drew and "drew" not in vars(game)  # the class's trigger
    assert game.may_drew() is False and game.is_dealing()  # the machine's other bindings stay


def test_a_trigger_goes_by_step(monkeypatch):
    taken: list[tuple[object, str]] = []
    real = machine.step

    def spy(model: machine.PhaseModel, trigger: str) -> bool:
        taken.append((model, trigger))
        return real(model, trigger)

    game = TridentGame(3, {})
    monkeypatch.setattr(machine, "step", spy)
    assert game.dealt() is True and game.state == "opening"
    assert taken == [(game, "dealt")]


def _bindings(model: object, names: list[str]) -> dict[str, object]:
    """A model's bindings, comparable across models: a partial as (function, its arguments, the model marked)."""
    out: dict[str, object] = {}
    for name in names:
        value = getattr(model, name)
        if isinstance(value, partial):
            out[name] = (value.func, tuple("MODEL" if a is model else a for a in value.args), value.keywords)
        else:
            out[name] = value
    return out


def test_a_later_game_is_bound_as_the_machine_binds_one():
    """`attach` learns from a class's first game what `add_model` binds and
    puts it on the class: every game reads each binding as the machine's own
    (the machine's bookkeeping cost ~40 us a game), and holds only its phase."""
    first, later = TridentGame(3, {}), TridentGame(3, {})
    by_machine = _Model("turn", False)
    machine.MACHINE.add_model(by_machine, initial="dealing")
    machine.MACHINE.remove_model(by_machine)
    bound = [name for name in vars(by_machine) if name not in machine.TRIGGERS and name != "has_drawn"]
    assert len(bound) + len(machine.TRIGGERS) == 26 and machine._BINDINGS[TridentGame]
    assert _bindings(first, bound) == _bindings(later, bound) == _bindings(by_machine, bound)
    for game in (first, later):
        assert vars(game)["state"] == "dealing"
        assert not any(isinstance(value, partial) for value in vars(game).values())  # no cycle through itself
        assert all(getattr(game, t).__func__ is getattr(TridentGame, t) for t in machine.TRIGGERS)
    assert later.is_dealing() and not later.may_drew() and later.state == "dealing"
    assert not machine.MACHINE.models


def test_a_game_dropped_is_freed_at_once():
    """A game holds no reference to itself: dropped, it is freed then, not by the
    garbage collector later (bindings per game made each game a cycle)."""
    import gc
    import weakref

    gc.disable()
    try:
        game = TridentGame(3, {})
        gone = weakref.ref(game)
        del game
        assert gone() is None
    finally:
        gc.enable()


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
