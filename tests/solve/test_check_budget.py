"""The check's solver budget (issue 47): the first plays searched side by side under a node cap, and a C play
counted 1/``native_weight`` of the budget. Both only change how far a budget goes: every deal they decide
agrees with the brute force and with the unbounded solver, and a deal still undecided says so."""

from __future__ import annotations

import pytest

from crewkit.analysis import check
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve import (
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    brute_force,
    native,
    replays_to_success,
    solve,
)
from crewkit.games import family_for
from crewkit.spec.bundled import mission_path
from tests.solve.test_condition_paths import PINKS, ROCKETS, small_deal

C = native.load() is not None


def check_deal(mission: str, players: int, i: int) -> Game:
    """Deal ``i`` the check gives its solver (seed ``check:i``), at the start of the game."""
    game = family_for("crew").open("crew", str(mission_path(mission)), players, f"check:{i}")
    engine = game.engine
    assert isinstance(engine, Game)
    return engine


def test_a_capped_solve_splits_the_first_plays() -> None:
    # a plain depth-first run spends the whole 20,000 plays under a bad first card (old: unknown); side by side,
    # another first card wins at once
    game = check_deal("planet-nine/46", 4, 4)
    result = solve(game, max_nodes=20_000)
    assert result.status == WINNABLE
    assert replays_to_success(game, result.line)
    assert result.nodes <= 20_000 + 300  # the cap holds (the C search stops within a few plays of it)
    assert solve(game).status == WINNABLE


@pytest.mark.skipif(not C, reason="the C search is not available")
def test_native_weight_gives_the_c_search_more_plays() -> None:
    game = check_deal("planet-nine/07", 5, 47)
    plain = solve(game, max_nodes=20_000)
    assert plain.status == UNKNOWN and plain.engine == "core-c"  # undecided is said so
    weighted = solve(game, max_nodes=20_000, native_weight=50)
    assert weighted.status == WINNABLE and 20_000 < weighted.nodes <= 50 * 20_000
    assert replays_to_success(game, weighted.line)
    assert solve(game).status == WINNABLE


@pytest.mark.skipif(not C, reason="the C search is not available")
def test_the_check_solves_with_the_weight() -> None:
    check._init_check(str(mission_path("planet-nine/07")), "crew", [5], "fast", "check", True, 20_000, 60)
    try:
        deal = check._check_one(((check.SOLVER, 5), 9))
    finally:
        check._CHECK.clear()
    assert isinstance(deal, check.SolvedDeal) and deal.status == WINNABLE  # old: unknown at 20,000 plays


def test_native_weight_does_not_stretch_the_python_search() -> None:
    # mission 12's neighbour draws keep trick 1 in the Python search (after the draw the C search takes the
    # rest, its plays counting 1/weight): the weight must not give the Python plays more room
    game = check_deal("planet-nine/12", 5, 44)
    for weight in (1, 50):
        result = solve(game, max_nodes=2_000, native_weight=weight)
        assert result.engine == "core"
        assert result.status == UNKNOWN and result.nodes <= 2_000 + 300


# small deals of the condition shapes on each path: the C tasks (46), the winner automaton in C (29, 34, 50), the
# program in the C search (26: it reads cards; 13, 44: after every play), with the seeds of
# test_condition_paths (both verdicts in each sample). Tiny caps make the split stop mid-way.
CASES = [
    ("planet-nine/13", 4, 4, ROCKETS, range(6), True),
    ("planet-nine/26", 4, 3, ("blue 1", "green 1"), range(10), True),
    ("planet-nine/29", 3, 6, (), (0, 1, 2, 3, 7, 17), False),
    ("planet-nine/34", 4, 5, (), range(10), False),
    ("planet-nine/44", 4, 4, ROCKETS, range(6), True),
    ("planet-nine/46", 4, 5, PINKS, range(10), False),
    ("planet-nine/50", 4, 5, (), (0, 1, 2, 3, 4, 28, 49), False),
]


@pytest.mark.parametrize(("mission", "players", "cards", "need", "seeds", "brute"), CASES,
                         ids=[c[0][-2:] for c in CASES])
def test_capped_and_weighted_verdicts_agree_with_the_slow_solver(mission: str, players: int, cards: int,
                                                                 need: tuple[str, ...], seeds: range,
                                                                 brute: bool) -> None:
    """Every verdict under a cap (weighted or not) is the unbounded slow path's (every condition through the
    DSL, no split) and, on the smallest deals, the brute force's."""
    verdicts = set()
    for seed in seeds:
        game = small_deal(mission, seed, cards, need, players=players)
        slow = solve(game, compile_conditions=False)
        assert slow.status != UNKNOWN
        if brute:
            assert (slow.status == WINNABLE) == brute_force(game)[0]
        verdicts.add(slow.status)
        assert solve(game).status == slow.status
        for cap in (5, 40, 400, 4_000):
            for weight in (1, 50):
                r = solve(game, max_nodes=cap, native_weight=weight)
                if r.status == UNKNOWN:
                    continue
                assert r.status == slow.status, (seed, cap, weight)
                if r.status == WINNABLE:
                    assert replays_to_success(game, r.line)
    assert verdicts == {WINNABLE, UNWINNABLE}
