"""A review's solver calls on the positions of a commander's hand-out (issue 44, item 4) reuse what an earlier
call proved: each such position searches every way the remaining tasks can still be given (its *starts*), and a
later position's starts are an earlier one's too. A start an earlier call decided (the same deal, tasks, owners
and conditions, from the same first trick: :func:`~crewkit.families.trick_taking.solve.solver.position_key`)
is not searched again. No verdict changes."""

from __future__ import annotations

from crewkit.families.trick_taking.engine.step_actions import Answer
from crewkit.families.trick_taking.review import positions_of, review
from crewkit.families.trick_taking.solve.solver import UNWINNABLE, SearchCache, position_key, solve
from tests.review.test_review_brute_force import random_attempt, small_game


def _handout(seed: int) -> tuple[list, list]:
    game = small_game("planet-nine/24", seed, cards=4)
    actions = random_attempt(game, seed)
    return positions_of(game, actions), actions


def test_handout_positions_agree_with_a_search_of_their_own() -> None:
    """Every hand-out position solved with one cache, from the last to the first, gets the verdict of a search
    of its own; a position whose starts a later one decided (it differs by an answer) searches nothing."""
    games, actions = _handout(3)
    setup = [i for i, g in enumerate(games) if g.phase != "tricks" and not g.is_over()]
    assert len(setup) > 10
    alone = {i: solve(games[i].clone()) for i in setup}
    cache = SearchCache()
    for i in setup[::-1]:
        assert solve(games[i].clone(), cache=cache).status == alone[i].status, i
    # the brief's case: position j lost, then j - 1 (before an answer: the same gifts left) asked
    pairs = [j for j in setup if j - 1 in setup and isinstance(actions[j - 1], Answer)
             and alone[j].status == UNWINNABLE and alone[j].nodes]
    assert pairs, "no lost hand-out position after an answer"
    for j in pairs[:3]:
        cache = SearchCache()
        solve(games[j].clone(), cache=cache)
        again = solve(games[j - 1].clone(), cache=cache)
        assert again.status == alone[j - 1].status == UNWINNABLE
        assert again.nodes == 0, j


def test_a_handout_review_is_the_same_with_shared_searches() -> None:
    games, actions = _handout(0)
    alone = review(games[0], actions, timeout=None, total=None, blame=False, closest=False, share=False)
    shared = review(games[0], actions, timeout=None, total=None, blame=False, closest=False)
    assert shared.status == alone.status and shared.positions == alone.positions
    assert shared.turning_point == alone.turning_point


def test_the_key_tells_owners_and_tricks_apart() -> None:
    games, _ = _handout(0)
    first = next(g for g in games if g.phase == "tricks")
    other = first.clone()
    t = next(t for t in other.tasks if t.owner is not None)
    t.owner = (t.owner + 1) % other.n
    assert position_key(other) != position_key(first)
    later = next(g for g in games if g.tricks)
    assert position_key(later) != position_key(first)
    assert position_key(first.clone()) == position_key(first)
