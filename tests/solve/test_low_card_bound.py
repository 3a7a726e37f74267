"""The low-card bound (issue 47, mission 46's collector): the lowest card of a plain suit still in the hands is an
open task of its holder, so the owner's tasks of that suit in other hands are won under its own higher cards or
discarded on tricks of other suits it wins (``TrickSearch._low_card_bound``, ``low_card_bound`` in
``_native.c``). A sound bound: every position it proves lost is lost by the brute force; the C and the Python
search visit the same nodes with it."""

from __future__ import annotations

import random

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve import (
    UNWINNABLE,
    WINNABLE,
    TrickSearch,
    brute_force,
    native,
    replays_to_success,
    solve,
)
from tests.solve.test_check_budget import check_deal
from tests.solve.test_condition_paths import PINKS, small_deal

C = native.load() is not None


def at_tricks(game: Game) -> Game:
    while game.phase != "tricks":
        game.apply(game.legal_actions(game.to_act)[0])
    return game


def position(seed: int) -> Game | None:
    """A small deal of mission 46 (4 players, 5 cards, every pink dealt) after two random tricks that keep it
    open (3 cards left each: the brute force is cheap)."""
    base = at_tricks(small_deal("planet-nine/46", seed, 5, PINKS, players=4))
    rng = random.Random(seed)
    for _ in range(30):
        game = base.clone()
        while len(game.tricks) < 2 and not game.is_over():
            game.apply(rng.choice([a for a in game.legal_actions(game.to_act) if isinstance(a, Play)]))
        if not game.is_over():
            return game
    return None


def test_the_low_card_bound_proves_only_lost_positions() -> None:
    proved = told = 0
    for seed in range(90):
        game = position(seed)
        if game is None:
            continue
        search = TrickSearch(game, native=False)
        search._reset_position()
        for hand in search.hands:
            search.remaining |= hand
        with_bound = search._too_few_tricks()
        search.check_order = False  # the bound needs the standard trick rules: off, the old bounds alone
        if with_bound and not search._too_few_tricks():
            proved += 1
            assert not brute_force(game)[0], seed
            told += "with that card itself" in TrickSearch(game, native=False).root_loss()  # the solver's why names it
    assert proved >= 10 and told  # old: none (no such bound)


@pytest.mark.skipif(not C, reason="the C search is not available")
def test_c_and_python_visit_the_same_nodes_with_the_bound() -> None:
    verdicts = set()
    for seed in range(8):
        game = at_tricks(small_deal("planet-nine/46", seed, 5, PINKS, players=4))
        fast, slow = TrickSearch(game), TrickSearch(game, native=False)
        assert fast.native and not slow.native
        ok = fast.run()
        assert ok == slow.run() and fast.nodes == slow.nodes and fast.line == slow.line, seed
        verdicts.add(ok)
    assert verdicts == {True, False}


@pytest.mark.skipif(not C, reason="the C search is not available")
@pytest.mark.parametrize(("players", "deal", "status"), [(4, 16, WINNABLE), (4, 43, UNWINNABLE), (5, 0, WINNABLE),
                                                       (5, 5, WINNABLE), (5, 16, WINNABLE)])
def test_the_checks_mission_46_deals_are_decided(players: int, deal: int, status: str) -> None:
    # old: undecided at the check's budget (a million C plays); winnable after 1.4-3.4 million, or proved lost
    # after 8.9 million (deal 43 at 4 players)
    game = check_deal("planet-nine/46", players, deal)
    result = solve(game, max_nodes=20_000, native_weight=50)
    assert result.status == status
    if status == WINNABLE:
        assert replays_to_success(game, result.line)
