"""Every mission of the campaign loads and plays to the end with random bots at 3, 4 and 5 players, and
with JARVIS at 2 players (every mission fits)."""

from __future__ import annotations

import pytest

from crewkit.analysis.simulate import simulate
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.setup import new_game
from crewkit.families.trick_taking.family import play_game
from crewkit.spec.campaigns import load_campaign
from crewkit.spec.loader import load_mission
from tests.referee import assert_engine_agrees

MISSIONS = list(load_campaign("planet-nine").missions)


def test_campaign_has_fifty_missions_in_order() -> None:
    assert len(MISSIONS) == 50
    assert [load_mission(m).number for m in MISSIONS] == list(range(1, 51))


@pytest.mark.parametrize("mission", MISSIONS)
def test_mission_plays_at_every_player_count(mission: str) -> None:
    """Random and rule-following bots at 3, 4 and 5 players: each outcome is the independent referee's."""
    for players in (3, 4, 5):
        for bot in ("random", "rules"):
            game = new_game("crew", mission, players, seed=f"all-missions:{bot}")
            play_game(game, [make_bot(bot, seat, "all-missions") for seat in range(game.n)])
            assert_engine_agrees(game)
        result = simulate("crew", mission, players, games=2, bot="random", seed="all-missions")
        assert result.games == 2
        assert result.successes + result.failures == 2


def test_every_mission_plays_under_jarvis() -> None:
    """All 50 missions run with JARVIS (issue 11): none is refused, 5 games each with the default bot, as
    `crewkit simulate --ruleset crew-jarvis --players 2 --mission planet-nine/NN --games 5` plays them."""
    refused = [m for m in MISSIONS if (load_mission(m).data.get("unsupported") or {}).get("crew-jarvis")]
    assert refused == []
    for mission in MISSIONS:
        result = simulate("crew-jarvis", mission, 2, games=5, bot="heuristic", seed="jarvis")
        assert result.games == 5, mission
        assert result.successes + result.failures == 5, mission
        # the dummy seat plays and wins tricks like any seat: the referee judges its games the same way
        game = new_game("crew-jarvis", mission, 2, seed="jarvis")
        play_game(game, [make_bot("random", seat, "jarvis") for seat in range(game.n)])
        assert_engine_agrees(game)


@pytest.mark.parametrize("mission", ["planet-nine/10", "planet-nine/44", "planet-nine/46"])
def test_three_player_challenge(mission: str) -> None:
    for readings in ({}, {"challenge-rocket-1": "remove-rocket-1"}):
        game = new_game("crew-3p-challenge", mission, 3, seed="c", readings=readings)
        names = {c.name for c in game.rules.deck.cards}
        assert not any(n.startswith("green") for n in names)
        assert ("rocket 1" in names) == (not readings)
        assert all(t.card.suit is not None and t.card.suit.name != "green" for t in game.tasks)
        sizes = sorted(len(h) for h in game.deal.hands)
        assert sizes == ([10, 10, 11] if not readings else [10, 10, 10])
