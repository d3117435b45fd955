"""The runtime's phase helper (`kikimimi.contract.phases.Phases`): its fast `fire` takes
exactly the transitions `transitions` itself takes, from every phase, for every trigger
and condition value; anything with a callback still goes through the machine; and a play
holds nothing but its phase.  Tested once, here, for every game on it (the Trident's rows,
the busiest, as the example)."""
from __future__ import annotations

import pytest
from transitions import Machine, MachineError

from kikimimi.contract.phases import Phases, plain_steps
from kikimimi_games.intrigue import machine as intrigue
from kikimimi_games.onisagashi import machine as onisagashi
from kikimimi_games.trident import TridentGame
from kikimimi_games.trident import machine as trident

MACHINES = {"trident": trident.PHASES, "onisagashi": onisagashi.PHASES, "intrigue": intrigue.PHASES}


class _Model:
    def __init__(self, state: str, has_drawn: bool) -> None:
        self.state = state
        self.has_drawn = has_drawn


def _slow(phases: Phases, state: str, has_drawn: bool, trigger: str) -> tuple[object, str]:
    """What the machine's own trigger does, on a model bound the `transitions` way."""
    model = _Model("x", has_drawn)
    phases.machine.add_model(model, initial=state)
    phases.machine.remove_model(model)
    try:
        result: object = getattr(model, trigger)()
    except MachineError:
        result = MachineError
    return result, model.state


def _fast(phases: Phases, state: str, has_drawn: bool, trigger: str) -> tuple[object, str]:
    model = _Model(state, has_drawn)
    try:
        result: object = phases.fire(model, trigger)
    except MachineError:
        result = MachineError
    return result, model.state


@pytest.mark.parametrize("game", list(MACHINES))
@pytest.mark.parametrize("has_drawn", [False, True])
def test_fire_takes_what_the_machine_takes(game, has_drawn):
    phases = MACHINES[game]
    for state in phases.states:
        for trigger in phases.triggers:
            assert _fast(phases, state, has_drawn, trigger) == _slow(phases, state, has_drawn, trigger), (state, trigger)


@pytest.mark.parametrize("game", list(MACHINES))
def test_every_trigger_of_every_phase_of_the_games_is_plain(game):
    """No game's transition has a callback, so none pays for the general path."""
    phases = MACHINES[game]
    assert set(phases.plain) == {(t, s) for t, ev in phases.machine.events.items() for s in ev.transitions}


def test_a_play_holds_only_its_phase_and_the_machine_holds_no_play():
    game = TridentGame(3, {})
    assert vars(game)["state"] == "dealing" and not trident.PHASES.machine.models
    assert not any(name in vars(game) or hasattr(TridentGame, name) for name in trident.PHASES.triggers)
    assert trident.PHASES.fire(game, "dealt") is True and game.state == "opening"
    with pytest.raises(MachineError):
        trident.PHASES.fire(game, "drew")  # not a trigger of the opening: a bug in the game, loudly


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

    rows = [{"trigger": "go", "source": "a", "dest": "b", "after": "note"},
            {"trigger": "go", "source": "b", "dest": "c"}]
    phases = Phases("a", rows, "c", states=["a", "b", "c"])
    assert phases.plain == {("go", "b"): (("c", ()),)}
    seen = Seen()
    assert phases.fire(seen, "go") is True and seen.state == "b" and calls == ["b"]  # the machine ran `note`
    assert phases.fire(seen, "go") is True and seen.state == "c" and calls == ["b"]
    assert plain_steps(Machine(model=None, states=["a"], initial="a", queued=True)) == {}


def test_the_drawing_is_the_rows_that_run():
    text = trident.mermaid()
    assert text.startswith("---\ntitle: The Trident") or "The Trident" in text
    assert "reset_done [has_drawn]" in text or "has_drawn" in text
