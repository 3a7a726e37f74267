"""The goal "the last trick is won by a card of a set" (issue 47, authored mission 14): read off the words
(condshapes.match_last_trick_won_by_cards), searched as the goal of one win, in the last trick: its cards kept
back until then (move order), and the goal bound at trick starts (no goal card can still win the last trick:
lost). The Python and the C search visit the same nodes; the brute force agrees."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewkit.dsl import parse
from crewkit.families.trick_taking.condshapes import match_last_trick_won_by_cards
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from tests.solve.test_goal_order import deal, names

needs_c = pytest.mark.skipif(native.load() is None, reason="the C search is not available here")

LAST_BY_A_ONE = """\
number: 94
title: Small finish
description: The last trick must be won by a colour 1.
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: last-by-a-one
    fail_if: >-
      last_trick != none
      and not (is_colour(last_trick.winning_card) and last_trick.winning_card.rank == 1)
"""


@pytest.fixture
def mission(tmp_path: Path) -> Path:
    path = tmp_path / "last.yaml"
    path.write_text(LAST_BY_A_ONE, encoding="utf-8")
    return path


def test_the_shape_is_read_off_the_words() -> None:
    for text in ("last_trick != none and not (last_trick.winning_card.rank == 1)",
                 "not is_trump(last_trick.winning_card) and none != last_trick",
                 "last_trick.is_last and not (last_trick.winning_card.rank == 1)"):
        assert match_last_trick_won_by_cards(parse(text)) is not None, text
    for text in ("last_trick != none and last_trick.winner != commander",  # a seat, not a card
                 "last_trick != none and not (last_trick.winner == commander)",
                 "last_trick != none or not (last_trick.winning_card.rank == 1)"):
        assert match_last_trick_won_by_cards(parse(text)) is None, text


def lost_at_once(game: Game) -> None:
    slow = TrickSearch(game, native=False)
    assert slow.goal_last
    assert not slow.run()
    assert slow.nodes == 0  # old: the plays were tried until the last trick
    assert not brute_force(game)[0]
    if native.load() is not None:
        fast = TrickSearch(game, digest=False)
        assert fast.native and not fast.run() and fast.nodes == 0


def test_a_hand_of_the_goal_cards_suit_alone_is_lost_at_once(mission: Path) -> None:
    # the middle hand holds blues only: its last card beats the blue 1, and no other 1 is dealt
    lost_at_once(deal([["blue 1", "rocket 4", "yellow 3"], ["blue 5", "blue 6", "blue 7"],
                       ["green 7", "yellow 4", "pink 4"]], mission))


def test_a_hand_of_trumps_is_lost_at_once(mission: Path) -> None:
    # the middle hand's last card is a rocket
    lost_at_once(deal([["blue 1", "rocket 4", "yellow 3"], ["rocket 1", "rocket 2", "rocket 3"],
                       ["green 7", "yellow 4", "pink 4"]], mission))


def test_a_goal_card_is_kept_back_before_the_last_trick(mission: Path) -> None:
    # leading the blue 1 wins the first trick (nobody holds a blue) but spends it: tried last (old: first)
    game = deal([["blue 1", "rocket 4", "pink 5"], ["green 3", "yellow 6", "pink 2"],
                 ["green 1", "yellow 4", "pink 4"]], mission)
    order = names(game, TrickSearch(game, native=False).ordered_plays())
    assert order[-1] == "blue 1"


@needs_c
def test_same_nodes_in_c_and_python_and_the_brute_force_agrees(mission: Path) -> None:
    from tests.solve.test_condition_paths import small_deal
    from tests.solve.test_native_conditions import c_and_python, in_tricks

    ones = ("blue 1", "green 1", "pink 1", "yellow 1")
    cuts = 0
    verdicts = set()
    for cards, seed in [(3, s) for s in range(10)] + [(4, s) for s in range(8)]:
        game = in_tricks(small_deal(mission, 4000 + seed, cards, ones[: 1 + seed % 3], players=3))
        won = c_and_python(game)
        verdicts.add(won)
        if cards == 3 or seed == 7:  # the brute force where it is quick
            assert brute_force(game)[0] == won
        search = TrickSearch(game, native=False)
        bound = search._goal_out_of_reach
        seen: list[bool] = []

        def answer(bound: object = bound, seen: list[bool] = seen) -> bool:
            seen.append(bound())  # type: ignore[operator]
            return seen[-1]

        search._goal_out_of_reach = answer  # type: ignore[method-assign]
        assert search.run() == won
        cuts += sum(seen)
    assert cuts and verdicts == {True, False}


@needs_c
def test_the_checks_deals_at_four_players_are_decided() -> None:
    """Deals 0 and 1 of `crewkit check benchmarks/authored/14-last-by-a-one.yaml --players 4`: winnable after 6-7
    million C plays before, now within the check's budget; each line replayed through the engine."""
    from crewkit.families.trick_taking.analysis import check
    from crewkit.families.trick_taking.solve import WINNABLE, replays_to_success, solve
    from crewkit.games import family_for

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "authored" / "14-last-by-a-one.yaml"
    for i in (0, 1):
        game = family_for("crew").open("crew", str(path), 4, f"check:{i}").engine
        assert isinstance(game, Game)
        result = solve(game, max_nodes=20_000, native_weight=check.SOLVER_NATIVE_WEIGHT)
        assert result.status == WINNABLE  # old: unknown (stopped at the node budget)
        assert replays_to_success(game, result.line)


def test_every_cut_of_the_bound_along_random_lines_is_lost_by_the_brute_force(mission: Path) -> None:
    import random

    from crewkit.families.trick_taking.solve.reference import search_actions
    from tests.solve.test_condition_paths import small_deal
    from tests.solve.test_native_conditions import in_tricks

    ones = ("blue 1", "green 1", "pink 1", "yellow 1")
    cuts = 0
    for seed in range(16):
        game = in_tricks(small_deal(mission, 5000 + seed, 4, ones[: 1 + seed % 4], players=3))
        rng = random.Random(seed)
        while game.phase == "tricks":
            if not game.plays:  # a trick start
                search = TrickSearch(game, native=False)
                search.remaining = 0
                for h in search.hands:
                    search.remaining |= h
                if search._goal_out_of_reach():
                    cuts += 1
                    assert not brute_force(game)[0]
            game.apply(rng.choice(search_actions(game)))
    assert cuts
