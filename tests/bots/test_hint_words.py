"""A hint's reason fits the mission (issue 42, item 9): no "tasks" where the mission has none."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.bots.explain import explain
from crewkit.families.trick_taking.engine.blocks.communication import Communicate
from crewkit.families.trick_taking.engine.blocks.distress import Distress
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.setup import new_game


def reasons_at_the_first_lead(ruleset: str, mission: str) -> list[str]:
    """The reason for every card the first leader may lead."""
    game = new_game(ruleset, mission, 4, seed="hint-words")
    while game.phase != "tricks":
        seat = game.to_act
        game.apply([a for a in game.legal_actions(seat) if not isinstance(a, Communicate | Distress)][0])
    obs = game.observation(game.to_act)
    return [explain(obs, a) for a in obs.legal if isinstance(a, Play)]


@pytest.mark.parametrize(("ruleset", "mission", "goal"), [
    ("crew", "planet-nine/13", "the mission's conditions"),  # no tasks: a condition only
    ("crew-deep-sea", "deep-sea/01", "the task cards"),  # task cards with objectives, no colour-card tasks
    ("crew", "planet-nine/01", "the tasks"),
])
def test_a_lead_is_explained_by_what_the_mission_asks(ruleset: str, mission: str, goal: str) -> None:
    reasons = reasons_at_the_first_lead(ruleset, mission)
    low = [r for r in reasons if "a low " in r]
    assert low and all(r.endswith(f"keeps your high cards for {goal}") for r in low), low
    if goal != "the tasks":
        assert not any("the tasks" in r or "no task needs" in r for r in reasons), reasons
