"""The solver's passes over several starts (task assignments): with a few starts the node budgets grow
threefold, so a start won within a few ten thousand plays is reached before every start has spent the larger
budget of the next pass, and within a start the first plays' budgets grow threefold too (issue 47, authored mission 12 "Low tide" at 5 players: three ordered tasks over three
seats give 6 starts, the check's budget is shared by them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.families.trick_taking.analysis.check import SOLVER_NATIVE_WEIGHT
from crewkit.families.trick_taking.solve import native, solve
from crewkit.families.trick_taking.solve.solver import (
    _BUDGETS,
    _BUDGETS_FEW,
    _FEW_STARTS,
    _SPLIT_GROWTH_FEW,
    _budgets,
)
from crewkit.games import family_for

LOW_TIDE = Path(__file__).resolve().parents[2] / "benchmarks" / "authored" / "12-low-winners.yaml"


def test_few_starts_get_small_growing_budgets() -> None:
    assert _budgets(1) == (None,)
    assert _budgets(_FEW_STARTS) == _BUDGETS_FEW
    assert _budgets(_FEW_STARTS + 1) == _BUDGETS
    steps = [b for b in _BUDGETS_FEW if b is not None]
    assert all(b < a * 4 for a, b in zip(steps, steps[1:], strict=False))
    assert _SPLIT_GROWTH_FEW < 4


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
@pytest.mark.parametrize("seed", ["check:10", "check:43", "check:55"])
def test_a_cheap_winning_assignment_is_reached_within_the_checks_budget(seed: str) -> None:
    game = family_for("crew").open("crew", str(LOW_TIDE), 5, seed)
    result = solve(game.engine, max_nodes=20_000, native_weight=SOLVER_NATIVE_WEIGHT)
    assert result.status == "winnable"
    assert result.starts == 6
    assert result.line  # replayed through the engine to the crew's success by solve
