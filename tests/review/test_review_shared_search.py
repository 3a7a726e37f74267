"""The review's solver calls share their searches (issue 44, item 4: "reusing the solver's caches"): a search
built for one position of the attempt, with its table of lost positions, compiled conditions and C context,
serves the later positions (:class:`crewkit.families.trick_taking.solve.solver.SearchCache`). Sharing never
changes a verdict: reviews with and without it agree position for position on many small deals, with and
without mission conditions."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.review import LOST, positions_of, review
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.solver import WINNABLE, SearchCache, solve
from tests.review.test_review_brute_force import random_attempt, small_game

# plain tasks, then missions with conditions (read by a winner automaton, compiled into search tasks or
# evaluated as programs: 5, 17, 26, 29, 33, 34, 41, 48, 50)
MISSIONS = ("planet-nine/06", "planet-nine/10", "planet-nine/05", "planet-nine/17", "planet-nine/26",
            "planet-nine/29", "planet-nine/33", "planet-nine/34", "planet-nine/41", "planet-nine/48",
            "planet-nine/50")


@pytest.mark.parametrize("mission", MISSIONS)
def test_sharing_keeps_every_verdict_and_the_turning_point(mission: str) -> None:
    reused = 0
    lost = 0
    for seed in range(8):
        game = small_game(mission, seed, cards=6)
        actions = random_attempt(game, seed)
        alone = review(game, actions, timeout=None, total=None, blame=False, closest=False, share=False)
        shared = review(game, actions, timeout=None, total=None, blame=False, closest=False)
        assert shared.status == alone.status, (seed, shared.reason, alone.reason)
        assert shared.positions == alone.positions, seed
        tp, tq = shared.turning_point, alone.turning_point
        assert (tp and tp["action_index"]) == (tq and tq["action_index"]), seed
        assert alone.reused == 0
        reused += shared.reused
        lost += shared.status == LOST
    assert lost, "no lost attempt: nothing bisected"
    assert reused > 0, "no solver call shared a search"


@pytest.mark.parametrize("search", ["core-c", "core"])
def test_a_later_position_reuses_the_table(search: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first position of the tricks, a later one takes fewer plays with the first search's table
    than alone: in the C search (its context, with its table, kept in the search) and in Python."""
    if search == "core":
        monkeypatch.setattr(native, "load", lambda: None)
    elif native.load() is None:
        pytest.skip(f"no C search here ({native.status()})")
    game = small_game("planet-nine/06", 2, cards=7)
    games = positions_of(game, random_attempt(game, 2))
    assert games[3].phase == "tricks" and games[2].phase != "tricks"
    cache = SearchCache()
    first = solve(games[3].clone(), cache=cache)
    assert first.status == WINNABLE and first.engine == search
    again = solve(games[6].clone(), cache=cache)
    fresh = solve(games[6].clone())
    assert again.status == fresh.status == WINNABLE and again.engine == fresh.engine == search
    assert cache.hits == 1 and cache.built == 1
    assert again.nodes < fresh.nodes


def test_a_search_with_conditions_is_not_used_for_an_earlier_position() -> None:
    """With mission conditions a search serves only positions after the one it was built at (what it compiled
    and keyed is about those); without conditions, any position of the deal."""
    for mission, reused in (("planet-nine/34", False), ("planet-nine/06", True)):
        game = small_game(mission, 3, cards=5)
        games = [g for g in positions_of(game, random_attempt(game, 3)) if g.phase == "tricks" and not g.is_over()]
        cache = SearchCache()
        solve(games[-1].clone(), cache=cache)
        solve(games[0].clone(), cache=cache)
        assert (cache.hits == 1) is reused, mission
        assert cache.built == (1 if reused else 2), mission


@pytest.mark.parametrize("mission", ["planet-nine/10", "planet-nine/17", "planet-nine/41"])
def test_a_won_games_closest_call_is_the_same_with_shared_searches(mission: str) -> None:
    """The closest call's solver calls (every other play of a position, backwards from the end) share a search
    built at the position: the same closest call as without."""
    found = 0
    for seed in range(6):
        game = small_game(mission, seed, cards=6)
        res = solve(game.clone())
        if res.status != WINNABLE:
            continue
        alone = review(game, res.line, timeout=None, blame=False, share=False)
        shared = review(game, res.line, timeout=None, blame=False)
        assert alone.status == shared.status == "won"
        assert shared.closest_call == alone.closest_call, seed
        found += alone.closest_call is not None
    assert found, "no closest call in these games"


@pytest.mark.parametrize("mission", ["planet-nine/06", "planet-nine/17", "planet-nine/29", "planet-nine/41",
                                     "planet-nine/50"])
def test_every_position_in_any_order_agrees_with_a_search_of_its_own(mission: str) -> None:
    """Every position of each attempt solved with one cache, from the last to the first and back (each search
    reused wherever the cache allows), gets the verdict a search of its own gives."""
    for seed in range(4):
        game = small_game(mission, seed, cards=6)
        games = positions_of(game, random_attempt(game, seed))
        alone = [solve(g.clone()).status for g in games]
        cache = SearchCache()
        order = list(range(len(games)))
        for i in order[::-1] + order:
            assert solve(games[i].clone(), cache=cache).status == alone[i], (seed, i)
