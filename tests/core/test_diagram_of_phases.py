"""A hidden-role game's diagram drawn by the runtime from the phases (and clocks) it declares,
named by the declaration as `.game:TheGame.mermaid`: 闇に笑う魔女 and マフィア42 write none."""
from __future__ import annotations

import pytest

from kikimimi.contract.parts import diagram, part
from kikimimi.contract.registry import declaration
from kikimimi.roles.game import HiddenRoleGame


def test_the_drawing_is_the_declared_phases_and_each_clock():
    mafia = declaration("mafia42")
    assert mafia.diagram == ".game:Mafia42Game.mermaid"
    text = diagram(mafia)
    assert text.startswith("stateDiagram-v2\n    [*] --> deal")
    assert "    night: night, option night s" in text  # CLOCKS' notes beside the phases
    witch = declaration("witch")
    assert diagram(witch) == part(witch, ".game:WitchGame").PHASES.mermaid()  # no clocks drawn: none declared


def test_a_declaration_names_an_attribute_of_a_module_part():
    witch = declaration("witch")
    assert part(witch, ".game:WitchGame.mermaid")() == diagram(witch)
    with pytest.raises(AttributeError):
        part(witch, ".game:WitchGame.nothing")


def test_a_game_without_phases_has_nothing_to_draw():
    with pytest.raises(NotImplementedError, match="declares no PHASES"):
        HiddenRoleGame.mermaid()
