"""Several task assignments share a solve's budget in passes (300, 5,000, 100,000 plays each, then the rest):
a pass with a budget of its own searches each first card side by side with budgets growing tenfold, as the last
pass does, instead of one depth-first search below the first card (issue 47: authored mission 12, "Low tide",
three ordered tasks and three tricks won by a low card, left 5 of the check's 60 deals undecided at 4 players),
whether the search splits them itself (``TrickSearch.run_split``) or the solver steps them through the engine
(``_split_search``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.families.trick_taking.analysis import check
from crewkit.families.trick_taking.solve import WINNABLE, native, replays_to_success, solve
from crewkit.games import family_for
from crewkit.spec.bundled import mission_path

LOW_TIDE = Path(__file__).resolve().parents[2] / "benchmarks" / "authored" / "12-low-winners.yaml"


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
@pytest.mark.parametrize("seed", ["check:0", "check:20"])
def test_low_tide_deals_are_won_within_the_checks_budget(seed: str) -> None:
    game = family_for("crew").open("crew", str(LOW_TIDE), 4, seed).engine
    result = solve(game, max_nodes=20_000, native_weight=check.SOLVER_NATIVE_WEIGHT)
    assert result.starts == 6  # the three tasks' owners: one start each
    assert result.status == WINNABLE  # old: unknown, the budget spent below the first cards
    assert replays_to_success(game, result.line)


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_starts_whose_first_cards_the_engine_steps_split_them_too() -> None:
    # planet-nine 20 at 5 players: several starts, searched through the solver's own split (_split_search)
    game = family_for("crew").open("crew", str(mission_path("planet-nine/20")), 5, "check:34").engine
    result = solve(game, max_nodes=20_000, native_weight=check.SOLVER_NATIVE_WEIGHT)
    assert result.starts > 1
    assert result.status == WINNABLE  # old: unknown
    assert replays_to_success(game, result.line)
