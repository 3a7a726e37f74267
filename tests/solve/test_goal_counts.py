"""The goal's count bound (issue 47, authored mission 12 "Low tide"): "at least K tricks won by a low colour card"
is lost at a trick start when no order of the goal tricks lets every hand place its cards: trumps in free tricks,
a suit's high cards before the hand discards in that suit's goal tricks, a goal trick led by the last goal
trick's winner holding a low card of its suit (goal_counts.py). The Python and the C search cut the same nodes,
and a cut never changes a verdict: the brute force and the search without the bound agree on random deals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from tests.solve.test_native_conditions import c_and_python, in_tricks

LOW_WINS = """\
number: 94
title: Low winners
description: Tricks won by a low colour card.
rulesets: [crew]
tasks: {count: 0, tokens: []}
symbols: {}
conditions:
  - id: low-wins
    done_if: "count(t in tricks: is_colour(t.winning_card) and t.winning_card.rank <= 4) >= %d"
"""


def mission(tmp_path: Path, k: int = 2) -> Path:
    path = tmp_path / f"low-{k}.yaml"
    path.write_text(LOW_WINS % k, encoding="utf-8")
    return path


def deal(path: Path, hands: list[list[str]]) -> Game:
    rules = compile_game("crew", str(path), len(hands), None)
    cards = tuple(tuple(rules.deck.card(c) for c in h) for h in hands)
    return in_tricks(Game.new(rules, seed="goal-counts", deal=Deal(cards, ()), partial=True))


def bound_cuts(game: Game, **switches: bool) -> bool:
    """Whether the goal's bounds cut ``game``'s position (a trick start), the Python search's steps switched by
    ``switches`` (its attributes, e.g. ``goal_task_tricks=False``)."""
    search = TrickSearch(game, native=False)
    for name, on in switches.items():
        setattr(search, name, on)
    search._reset_position()
    rem = 0
    for hand in search.hands:
        rem |= hand
    search.remaining = rem
    return bool(search._goal_out_of_reach())


def random_deal(path: Path, seed: int, players: int, cards: int) -> Game:
    rules = compile_game("crew", str(path), players, None)
    deck = rules.deck
    rng = random.Random(seed)
    r4 = deck.card("rocket 4")
    rest = [c for c in deck.cards if c != r4]
    rng.shuffle(rest)
    chosen = [r4, *rest[: players * cards - 1]]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * cards:(i + 1) * cards]) for i in range(players))
    return in_tricks(Game.new(rules, seed="goal-counts", deal=Deal(hands, ()), partial=True))


def without_bound(game: Game) -> TrickSearch:
    search = TrickSearch(game, native=False)
    search.goal_counts = False  # the search as before the bound
    return search


def lost_at_once(game: Game, brute: bool = True) -> None:
    search = TrickSearch(game, native=False)
    assert search.goal_counts
    assert not search.run()
    assert search.nodes == 0  # old: the plays were tried until the goal failed
    old = without_bound(game)
    assert not old.run() and old.nodes > 0
    assert not brute or not brute_force(game)[0]
    if native.load() is not None:
        fast = TrickSearch(game, digest=False)
        assert fast.native and not fast.run() and fast.nodes == 0


def test_more_trumps_than_free_tricks(tmp_path: Path) -> None:
    # two low wins in three tricks leave one trick free, and the first hand's two rockets need a trick each
    lost_at_once(deal(mission(tmp_path), [["blue 4", "rocket 3", "rocket 4"], ["green 4", "yellow 8", "pink 6"],
                                          ["blue 8", "green 1", "yellow 2"]]))


def test_high_cards_of_two_suits_wait_for_each_other(tmp_path: Path) -> None:
    # the first hand's rockets take both free tricks; its green 8 and yellow 8 beat the low cards of their suits,
    # so each is discarded in a goal trick of the other suit (only green and yellow have low cards), once the
    # hand is void in that suit: the green 8 after the yellow 8 and the yellow 8 after the green 8
    lost_at_once(deal(mission(tmp_path), [
        ["green 8", "yellow 8", "rocket 3", "rocket 4"], ["blue 9", "green 3", "yellow 3", "pink 8"],
        ["blue 5", "blue 6", "yellow 1", "pink 7"]]), brute=False)


def test_a_goal_trick_is_led_by_the_last_goal_tricks_winner(tmp_path: Path) -> None:
    # the first hand leads and holds no low card, so the first trick is the free one; two pink wins in a row
    # need the pink 9 gone first, yet the rockets fill the free trick; the yellow 4's holder holds no pink to
    # lead after its win, the pinks' holder no yellow
    lost_at_once(deal(mission(tmp_path), [["blue 9", "pink 9", "rocket 4"], ["green 9", "yellow 4", "rocket 1"],
                                          ["pink 1", "pink 4", "pink 5"]]))


def test_random_deals_keep_their_verdicts(tmp_path: Path) -> None:
    """Random deals of 3 players and 4 cards (two low wins), 4 players and 3 cards: the search with the bound, the
    search without it and (on some) the brute force agree; the bound cuts in some."""
    path = mission(tmp_path)
    cuts = 0
    verdicts = set()
    for seed in range(40):
        players, cards = (3, 4) if seed % 2 else (4, 3)
        game = random_deal(path, seed, players, cards)
        search = TrickSearch(game, native=False)
        bound = search._goal_out_of_reach
        seen: list[bool] = []

        def answer(bound: object = bound, seen: list[bool] = seen) -> bool:
            seen.append(bound())  # type: ignore[operator]
            return seen[-1]

        search._goal_out_of_reach = answer  # type: ignore[method-assign]
        won = search.run()
        assert without_bound(game).run() == won, seed
        if seed % 8 == 0:
            assert brute_force(game)[0] == won, seed
        cuts += sum(seen)
        verdicts.add(won)
    assert cuts and verdicts == {True, False}


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 6), k=st.integers(1, 3))
def test_a_cut_position_is_lost(tmp_path: Path, seed: int, plays: int, k: int) -> None:
    """At a trick start after random plays (4 players, 4 cards each): where the bound cuts, the search without it
    finds no win."""
    path = mission(tmp_path, k)
    game = random_deal(path, seed, 4, 4)
    rng = random.Random(seed)
    from crewkit.families.trick_taking.engine.blocks.tricks import Play

    for _ in range(plays - plays % 4):  # whole tricks
        if game.is_over():
            return
        game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
    if game.is_over():
        return
    search = TrickSearch(game, native=False)
    search._reset_position()
    rem = 0
    for hand in search.hands:
        rem |= hand
    search.remaining = rem
    if search._goal_out_of_reach():
        assert not without_bound(game).run()


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_same_nodes_in_c_and_python_where_the_bound_cuts(tmp_path: Path) -> None:
    path = mission(tmp_path)
    cuts = 0
    verdicts = set()
    for seed in range(8):
        game = random_deal(path, 100 + seed, 3, 5)
        verdicts.add(c_and_python(game))  # the same verdict, nodes and line in C and Python
        search = TrickSearch(game, native=False)
        old = without_bound(game)
        old.run()
        search.run()
        cuts += search.nodes < old.nodes
    assert cuts and verdicts == {True, False}


def test_the_bound_stays_off_for_a_goal_of_trumps(tmp_path: Path) -> None:
    # a rocket wins whatever is led: its wins are not counted per led suit, so the bound does not apply
    path = tmp_path / "rockets.yaml"
    path.write_text((LOW_WINS % 2).replace("is_colour(t.winning_card) and t.winning_card.rank <= 4",
                                           "is_trump(t.winning_card)"), encoding="utf-8")
    game = deal(path, [["blue 4", "rocket 3", "rocket 4"], ["green 4", "yellow 8", "pink 6"],
                       ["blue 8", "green 1", "rocket 2"]])
    search = TrickSearch(game, native=False)
    assert search.goal_mask and not search.goal_counts
    assert search.run() == brute_force(game)[0]
