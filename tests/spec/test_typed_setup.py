"""A mission's setup list and its triggers reach the engine typed (the spec model), never as the document."""

from __future__ import annotations

from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.spec.loader import load_mission
from crewkit.spec.model import Draw, SetupStep


def test_choose_roles_becomes_one_choose_step_per_role_each_distinct_from_the_earlier() -> None:
    mission = load_mission("planet-nine/50")
    assert [s.kind for s in mission.setup] == ["ask", "choose", "choose"]
    ask, opener, closer = mission.setup
    assert ask.params["answers"] == ("first four tricks", "tricks between", "last trick")
    assert ask.params["who"] == "all" and ask.params["id"] == "preferred-part"
    assert opener == SetupStep("choose", {"role": "opener", "by": "crew", "exclude": ()})
    assert closer == SetupStep("choose", {"role": "closer", "by": "crew", "exclude": ("opener",)})
    assert mission.draws == ()


def test_a_draw_is_a_trigger_not_a_step() -> None:
    mission = load_mission("planet-nine/12")
    assert mission.setup == () and mission.draws == (Draw(1, "right"),)
    game = new_game("crew", "planet-nine/12", 4, seed="typed")
    assert game.rules.draws == ((1, "right"),) and game.rules.setup_steps == ()


def test_the_commanders_distribution_adds_its_step_after_the_missions_own() -> None:
    mission = load_mission("planet-nine/24")
    assert mission.symbols.commander_distribution and not mission.symbols.commander_decision
    game = new_game("crew", "planet-nine/24", 4, seed="typed")
    assert [s.kind for s in game.rules.setup_steps][-1] == "distribution"
