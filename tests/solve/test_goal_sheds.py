"""The goal's count bound, steps 8 and 9 (issue 47, goal_counts.py): a hand's high cards of a suit leave before that
suit's goal tricks either following leads in the suit (then the goal trick's winner and leader hold more cards of
it) or after a void (which takes tricks first); a free trick is won by a card that is no goal card. The Python and
the C search cut the same nodes, and a cut never changes a verdict (the search without the steps, the brute force)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from tests.solve.test_goal_counts import mission, random_deal
from tests.solve.test_native_conditions import c_and_python


def search_with(game: Game, step8: bool, step9: bool) -> TrickSearch:
    search = TrickSearch(game, native=False)
    search.goal_sheds = step8  # False: the bound as before step 8
    search.goal_free_cards = step9  # likewise step 9
    return search


def at_trick_start(path: Path, seed: int, shape: tuple[int, int], tricks: int, step8: bool,
                   step9: bool) -> tuple[Game, bool]:
    """``random_deal(path, seed, *shape)`` after ``tricks`` random tricks, and whether the goal's bounds cut there."""
    game = random_deal(path, seed, *shape)
    rng = random.Random(seed)
    for _ in range(shape[0] * tricks):
        game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
    search = search_with(game, step8, step9)
    search._reset_position()
    rem = 0
    for hand in search.hands:
        rem |= hand
    search.remaining = rem
    return game, search._goal_out_of_reach()


def test_a_deal_lost_at_once(tmp_path: Path) -> None:
    # two low wins, three hands of four cards: a hand's high card of a suit cannot leave before that suit's goal trick
    game, cut = at_trick_start(mission(tmp_path), 575, (3, 4), 0, True, False)
    assert cut
    search = TrickSearch(game, native=False)
    assert not search.run() and search.nodes == 0
    old = search_with(game, False, False)
    assert not old.run() and old.nodes > 0  # old: plays until every line failed
    assert not brute_force(game)[0]
    if native.load() is not None:
        fast = TrickSearch(game, digest=False)
        assert fast.native and not fast.run() and fast.nodes == 0


@pytest.mark.parametrize(("seed", "step8", "step9"), [(559, True, False), (227, False, True), (520, False, True)])
def test_positions_only_the_steps_cut_are_lost(tmp_path: Path, seed: int, step8: bool, step9: bool) -> None:
    """Trick starts after one random trick (four hands of four cards; found among random ones) the bound cuts with
    one of the steps and not without both: lost (the search without them, the brute force)."""
    path = mission(tmp_path)
    game, cut = at_trick_start(path, seed, (4, 4), 1, step8, step9)
    assert cut
    assert not at_trick_start(path, seed, (4, 4), 1, False, False)[1]  # old: not cut
    assert not search_with(game, False, False).run()
    assert not brute_force(game)[0]


def test_random_deals_keep_their_verdicts(tmp_path: Path) -> None:
    """Random deals (four hands of four cards; two low wins): the same verdict with and without the steps, fewer plays
    in some."""
    path = mission(tmp_path)
    fewer = 0
    for seed in (*range(25), 307):
        game = random_deal(path, seed, 4, 4)
        new = TrickSearch(game, native=False)
        old = search_with(game, False, False)
        assert new.run() == old.run(), seed
        assert new.nodes <= old.nodes, seed
        fewer += new.nodes < old.nodes
    assert fewer


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_same_nodes_in_c_and_python_where_the_steps_cut(tmp_path: Path) -> None:
    path = mission(tmp_path)
    for seed, shape in ((575, (3, 4)), (307, (4, 4)), (559, (4, 4))):
        game = random_deal(path, seed, *shape)
        c_and_python(game)  # the same verdict, nodes and line in C and Python
