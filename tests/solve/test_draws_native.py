"""Neighbour draws (mission 12) and the C search: once the last draw is made the rest is a plain deal, which the C
search takes from each trick start after it (``TrickSearch._after_draws``, issue 47). The verdicts are the
Python search's and the brute force's; the check's undecided deals of mission 12 at 5 players are decided."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.solve import (
    WINNABLE,
    TrickSearch,
    brute_force,
    native,
    replays_to_success,
    solve,
)
from tests.solve.test_check_budget import check_deal
from tests.solve.test_solver import small_game

C = native.load() is not None


@pytest.mark.skipif(not C, reason="the C search is not available")
def test_after_the_draws_the_c_search_agrees_with_python_and_brute_force() -> None:
    wins = losses = 0
    for seed in range(8):
        game = small_game("planet-nine/12", seed, cards=4, players=3)
        # the draft of a winning line when there is one (both verdicts in the sample), else the first choices
        found = solve(game)
        for action in found.line if found.status == WINNABLE else []:
            if not isinstance(action, Play):
                game.apply(action)
        while game.phase != "tricks":
            game.apply(game.legal_actions(game.to_act)[0])
        fast = TrickSearch(game)
        slow = TrickSearch(game, native=False)
        ok = fast.run()
        assert ok == slow.run() == brute_force(game)[0], seed
        assert fast.native_plays > 0 and slow.native_plays == 0  # the C search ran after the draw
        if ok:
            line = [Play(seat, game.rules.deck.cards[cid]) for seat, cid in fast.line]
            assert replays_to_success(game, line)
        wins += ok
        losses += not ok
    assert wins and losses


@pytest.mark.skipif(not C, reason="the C search is not available")
@pytest.mark.parametrize("deal", [38, 44, 47, 53])
def test_the_checks_mission_12_deals_at_5_players_are_decided(deal: int) -> None:
    # old: undecided at the check's budget (the whole deal in the Python search); winnable with more plays
    game = check_deal("planet-nine/12", 5, deal)
    result = solve(game, max_nodes=20_000, native_weight=50)
    assert result.status == WINNABLE
    assert replays_to_success(game, result.line)
    assert result.nodes <= 20_000 + 300  # C plays count 1/50: the budget holds
