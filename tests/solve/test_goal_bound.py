"""A sound bound for "at least K tricks won by a card of a set" (issue 47, mission 26 at 5 players): a goal card
weak outside its own suit, with no weaker card of its suit in another hand, wins only a trick its holder leads
once every other hand is void in its suit. When the goal cards left cannot win the tricks still needed in
distinct tricks, a trick start is lost before a card is tried, in the Python and the C search alike (the same
nodes), and the brute force agrees. A lead that would take a goal card its holder holds alone in the suit is tried
late, a trump (the others discard on it) early (move order)."""

from __future__ import annotations

import pytest

from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.solve import native, replays_to_success
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from tests.solve.test_goal_order import deal, names

needs_c = pytest.mark.skipif(native.load() is None, reason="the C search is not available here")


def lost_at_once(hands: list[list[str]]) -> None:
    game = deal(hands)
    slow = TrickSearch(game, native=False)
    assert not slow.run()
    assert slow.nodes == 0  # old: the plays were tried until the condition failed
    assert not brute_force(game)[0]
    if native.load() is not None:
        fast = TrickSearch(game, digest=False)
        assert fast.native and not fast.run() and fast.nodes == 0


def test_a_hand_too_long_in_the_suit_of_a_goal_card() -> None:
    # blue 1 wins only when led after the blue 5, 6, 7 are gone: three tricks before, and only three are left;
    # green 1 alone cannot make the two wins
    lost_at_once([["rocket 4", "blue 1", "green 1"], ["blue 5", "blue 6", "blue 7"],
                  ["green 7", "yellow 3", "yellow 4"]])


def test_two_goal_cards_of_two_holders_cannot_win_tricks_in_a_row() -> None:
    # both 1s can win only the second or the third trick (their holders do not lead the first), and the winner
    # of the second trick, the blue 1's holder, leads the third
    lost_at_once([["rocket 4", "yellow 2", "yellow 3"], ["blue 1", "yellow 9", "pink 2"],
                  ["green 1", "yellow 6", "pink 3"]])


def test_a_goal_card_beaten_by_a_hand_of_trumps() -> None:
    # the blue 1 could win the third trick after the blue 7 is gone, but the rockets left in that hand beat it;
    # the green 1 alone cannot make the two wins
    lost_at_once([["blue 1", "green 1", "yellow 5"], ["rocket 4", "rocket 3", "blue 7"],
                  ["yellow 2", "yellow 3", "pink 4"]])


def test_a_winnable_deal_is_not_cut() -> None:
    # the rocket draws a blue and a green, then the green 1 and the blue 1 win in turn (the green 1 first: the
    # blue 6 is discarded on it)
    game = deal([["rocket 4", "blue 1", "green 1"], ["blue 5", "blue 6", "yellow 2"],
                 ["green 7", "yellow 3", "yellow 4"]])
    slow = TrickSearch(game, native=False)
    assert slow.run() and brute_force(game)[0]


def counting(search: TrickSearch) -> list[bool]:
    """The bound's answers, recorded as ``search`` runs."""
    bound = search._goal_out_of_reach
    seen: list[bool] = []

    def answer() -> bool:
        seen.append(bound())
        return seen[-1]

    search._goal_out_of_reach = answer  # type: ignore[method-assign]
    return seen


@needs_c
def test_same_nodes_in_c_and_python_where_the_bound_cuts() -> None:
    from tests.solve.test_condition_paths import small_deal
    from tests.solve.test_native_conditions import c_and_python, in_tricks

    ones = ("blue 1", "green 1", "pink 1", "yellow 1")
    cuts = 0
    verdicts = set()
    for seed in range(6):
        game = in_tricks(small_deal("planet-nine/26", 2000 + seed, 4, ones[: 2 + seed % 3], players=3))
        won = c_and_python(game)  # the same nodes and line in C and Python
        verdicts.add(won)
        if seed in (1, 3):  # the brute force where it is quick
            assert brute_force(game)[0] == won
        search = TrickSearch(game, native=False)
        seen = counting(search)
        assert search.run() == won
        cuts += sum(seen)
    assert cuts and verdicts == {True, False}


def test_a_lead_that_takes_a_lone_goal_card_is_tried_late() -> None:
    # the blue 1 is its holder's only blue: a blue lead takes it (old: leading high in a goal card's suit first)
    game = deal([["rocket 4", "blue 5", "yellow 7"], ["blue 1", "green 3", "pink 2"],
                 ["green 1", "green 8", "yellow 3"]])
    assert names(game, TrickSearch(game, native=False).ordered_plays())[-1] == "blue 5"


def test_a_trump_is_led_first_while_a_goal_is_open() -> None:
    # the other hands, void in rockets, discard on it (old: the rocket last, the lowest lead first)
    game = deal([["rocket 4", "blue 5", "yellow 7"], ["blue 1", "blue 3", "pink 2"],
                 ["green 1", "green 8", "yellow 3"]])
    assert names(game, TrickSearch(game, native=False).ordered_plays())[0] == "rocket 4"


@needs_c
def test_the_checks_hard_deals_of_mission_26_are_decided() -> None:
    """Deals of `crewkit check planet-nine/26 --players 5` its solver left undecided (issue 47): now winnable at the
    check's budget, each line replayed through the engine. Deal 21 sacrifices the pink 1 in the first trick (a
    lead tried late), found by searching the second trick's leads side by side too (run_split)."""
    from crewkit.families.trick_taking.analysis import check
    from crewkit.families.trick_taking.solve import WINNABLE, replays_to_success, solve
    from tests.solve.test_check_budget import check_deal

    for i in (21, 44, 50):
        game = check_deal("planet-nine/26", 5, i)
        result = solve(game, max_nodes=20_000, native_weight=check.SOLVER_NATIVE_WEIGHT)
        assert result.status == WINNABLE  # old: unknown (stopped at the node budget)
        assert replays_to_success(game, result.line)


@needs_c
def test_the_next_tricks_leads_side_by_side_same_nodes_in_c_and_python() -> None:
    """run_split searches the leads of the second trick side by side too (budgets growing, a play whose budget ran
    out tried again later, its state restored): the C and the Python search still visit the same nodes."""
    from tests.solve.test_condition_paths import small_deal
    from tests.solve.test_native_conditions import in_tricks

    restored = 0
    for seed in range(4):
        game = in_tricks(small_deal("planet-nine/26", 3000 + seed, 5, ("blue 1", "green 1", "pink 1"), players=3))
        runs = []
        for use_c in (None, False):
            search = TrickSearch(game, digest=False, native=use_c)
            restore = search._restore
            count = [0]

            def counted(saved: tuple[object, ...], restore: object = restore, count: list[int] = count) -> None:
                count[0] += 1
                restore(saved)  # type: ignore[operator]

            search._restore = counted  # type: ignore[method-assign]
            # small budgets: the goal's bound (goal_counts.py step 7) wins these within 50 plays a lead
            verdict = search.run_split(first_budget=10, growth=3)
            runs.append((verdict, search.nodes, list(search.line)))
            restored += count[0]
            if verdict:
                cards = game.rules.deck.cards
                assert replays_to_success(game, [Play(seat, cards[cid]) for seat, cid in search.line])
        assert runs[0] == runs[1]
    assert restored  # the Python search met a lead whose budget ran out, and went on from the restored state
