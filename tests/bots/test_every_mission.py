"""Every campaign mission is played to its end by the bots that read conditions (a mission whose conditions
name a role still open while the setup weighs another, like mission 50, once stopped `compare --campaign`)."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.analysis.loading import game_spec, load_rules, start_game
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.family import play_game
from tests.referee import assert_engine_agrees

MISSIONS = [f"planet-nine/{n:02d}" for n in range(1, 51)]


@pytest.mark.parametrize("mission", MISSIONS)
def test_fast_bot_plays_every_mission_to_its_end(mission: str) -> None:
    rules = load_rules("crew", mission, 4)
    game = start_game(rules, game_spec("crew", mission, 4), "every-mission")
    play_game(game, [make_bot("fast", seat, "every-mission") for seat in range(game.n)])
    # the outcome is the one the rules give, judged again without the engine's objectives (tests/referee.py)
    assert_engine_agrees(game)


def test_heuristic_bot_weighs_roles_while_another_role_is_open() -> None:
    """Mission 50: the opener is chosen by play-outs while the closer is still unbound."""
    rules = load_rules("crew", "planet-nine/50", 4)
    game = start_game(rules, game_spec("crew", "planet-nine/50", 4), "crewkit:0")
    play_game(game, [make_bot("heuristic", seat, "crewkit:0") for seat in range(game.n)])
    assert set(game.roles) == {"opener", "closer"}
    assert game.roles["opener"] != game.roles["closer"]
    assert_engine_agrees(game)
