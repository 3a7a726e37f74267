"""The goal's count bound, step 7 (issue 47, goal_counts.py): a free trick's winner leads the next trick, and it holds
a card that beats a card the free trick's leader holds (in the trick being played, following suit). The Python and
the C search cut the same nodes, and a cut never changes a verdict (the search without step 7, the brute force)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from tests.solve.test_goal_counts import bound_cuts, mission, random_deal
from tests.solve.test_native_conditions import c_and_python


def without_step7(game: Game) -> TrickSearch:
    search = TrickSearch(game, native=False)
    search.goal_free_leaders = False  # the bound as before step 7
    return search


def at_trick_start(path: Path, seed: int, tricks: int, step7: bool = True) -> tuple[Game, bool]:
    """``random_deal(path, seed, 4, 4)`` after ``tricks`` random tricks, and whether the goal's bounds cut there."""
    game = random_deal(path, seed, 4, 4)
    rng = random.Random(seed)
    for _ in range(4 * tricks):
        game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
    return game, bound_cuts(game, goal_free_leaders=step7)


def test_a_deal_lost_at_once(tmp_path: Path) -> None:
    # two low wins in four tricks (four hands): the hands that may win a free trick cannot lead a goal trick after it
    game, cut = at_trick_start(mission(tmp_path), 19, 0)
    assert cut
    search = TrickSearch(game, native=False)
    assert not search.run() and search.nodes == 0  # old: 462 plays until every line failed
    old = without_step7(game)
    assert not old.run() and old.nodes > 0
    if native.load() is not None:
        fast = TrickSearch(game, digest=False)
        assert fast.native and not fast.run() and fast.nodes == 0


@pytest.mark.parametrize("seed", [25, 44, 368])
def test_positions_only_step7_cuts_are_lost(tmp_path: Path, seed: int) -> None:
    """Trick starts after one random trick (found among random ones) the bound cuts with step 7 and not without it:
    lost (the search without step 7, the brute force)."""
    path = mission(tmp_path)
    game, cut = at_trick_start(path, seed, 1)
    assert cut  # old: not cut
    assert not at_trick_start(path, seed, 1, step7=False)[1]
    assert not without_step7(game).run()
    assert not brute_force(game)[0]


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_same_nodes_in_c_and_python_where_step7_cuts(tmp_path: Path) -> None:
    path = mission(tmp_path)
    for seed in (19, 104, 345, 351):
        game = random_deal(path, seed, 4, 4)
        assert not c_and_python(game)  # the same verdict, nodes and line in C and Python
        search = TrickSearch(game, native=False)
        search.run()
        old = without_step7(game)
        old.run()
        assert search.nodes < old.nodes, seed
