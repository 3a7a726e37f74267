"""The final review starts from what the first answer decided (issue 44: "the table shows a first answer within
1 s and refines"): a position proven winnable or lost stays so whatever the budget, so the final answer takes
the first's decided positions as they are and searches only the others. The same turning point either way."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from lost_games import lost_game

from crewkit.families.trick_taking import review as reviews
from crewkit.families.trick_taking.solve.solver import UNWINNABLE, WINNABLE


@pytest.fixture(scope="module")
def attempt() -> tuple[Any, list[Any], str, reviews.Review]:
    """The failed attempt, its seed, and a first review of it (no fair blame, as the table's first answer)."""
    start, seed = reviews.start_of(lost_game())
    actions = list(lost_game().actions)
    return start, actions, seed, reviews.review(start, actions, seed=seed, blame=False, closest=False)


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reviews, "FINAL_WORLDS", 2)  # the fair blame's figures are the review's own tests'


def test_a_review_keeps_the_positions_it_decided(attempt: tuple[Any, list[Any], str, reviews.Review]) -> None:
    first = attempt[3]
    decided = {p["action_index"] for p in first.positions if p["winnable"] is not None}
    assert decided and set(first.solved) == decided
    assert all(r.status in (WINNABLE, UNWINNABLE) for r in first.solved.values())


def test_the_final_review_does_not_search_the_firsts_positions_again(
        attempt: tuple[Any, list[Any], str, reviews.Review]) -> None:
    start, actions, seed, first = attempt
    alone = reviews.final_review(start, actions, None, seed)
    after = reviews.final_review(start, actions, None, seed, first=first)
    assert first.status == alone.status == after.status == reviews.LOST
    assert after.turning_point == alone.turning_point  # the same answer, fair blame included
    assert after.positions == alone.positions
    # the bisection's solver calls: every one of them the first answer already made
    assert alone.solver_calls >= len(first.solved) > 0
    assert after.solver_calls == alone.solver_calls - len(first.solved)


def test_undecided_positions_of_the_first_are_searched_again(
        attempt: tuple[Any, list[Any], str, reviews.Review]) -> None:
    """A position the first answer could not decide (its small budget) is no proof: the final one searches it."""
    start, actions, seed, first = attempt
    some = dict(first.solved)
    last = max(some)
    some[last] = dataclasses.replace(some[last], status="unknown", line=[])  # as a search out of budget answers
    after = reviews.review(start, actions, seed=seed, blame=False, closest=False, solved=some)
    assert after.solver_calls == 1 and after.turning_point == first.turning_point
