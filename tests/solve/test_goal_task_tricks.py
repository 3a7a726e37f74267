"""The goal's count bound with tasks (issue 47, authored mission 12 "Low tide", goal_counts.py step 6): a task card
whose owner holds no trump goes to a trick that owner wins, a goal trick or a free trick without a trump, and the
free tricks without a trump are as few as the trumps leave. The Python and the C search cut the same nodes, and a
cut never changes a verdict: the brute force and the search without step 6 agree on random deals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crewkit.families.trick_taking.engine.blocks.draft import TakeTask
from crewkit.families.trick_taking.engine.blocks.tricks import Play
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import native
from crewkit.families.trick_taking.solve.core import TrickSearch
from crewkit.families.trick_taking.solve.reference import brute_force
from tests.solve.test_goal_counts import bound_cuts
from tests.solve.test_native_conditions import c_and_python, in_tricks

LOW_WINS_TASKS = """\
number: 95
title: Low winners with tasks
description: Two tasks in order, and tricks won by a low colour card.
rulesets: [crew]
tasks: {count: 2, tokens: ["1", "2"]}
symbols: {}
conditions:
  - id: low-wins
    done_if: "count(t in tricks: is_colour(t.winning_card) and t.winning_card.rank <= 4) >= %d"
"""


def mission(tmp_path: Path, k: int = 2) -> Path:
    path = tmp_path / f"low-tasks-{k}.yaml"
    path.write_text(LOW_WINS_TASKS % k, encoding="utf-8")
    return path


def random_deal(path: Path, seed: int, players: int, cards: int) -> Game:
    """``players`` hands of ``cards`` cards (rocket 4 among them), two colour cards of them the tasks, drafted as the
    solver's first answer does."""
    rules = compile_game("crew", str(path), players, None)
    deck = rules.deck
    rng = random.Random(seed)
    r4 = deck.card("rocket 4")
    rest = [c for c in deck.cards if c != r4]
    rng.shuffle(rest)
    chosen = [r4, *rest[: players * cards - 1]]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * cards:(i + 1) * cards]) for i in range(players))
    tasks = tuple(rng.sample([c for c in chosen if "rocket" not in str(c)], 2))
    return in_tricks(Game.new(rules, seed="goal-tasks", deal=Deal(hands, tasks), partial=True))


def without_step6(game: Game) -> TrickSearch:
    search = TrickSearch(game, native=False)
    search.goal_task_tricks = False  # the bound as before step 6
    return search


def test_a_task_won_with_a_plain_card_needs_a_free_trick_the_rockets_fill(tmp_path: Path) -> None:
    # two low wins in four tricks leave two free tricks, and the first hand's two rockets take both; the second
    # hand must win its own blue 6 (not a low card) with it, so in a free trick holding no rocket: none is left
    rules = compile_game("crew", str(mission(tmp_path)), 3, None)
    deck = rules.deck
    hands = (("blue 2", "pink 1", "rocket 2", "rocket 4"), ("blue 3", "blue 6", "green 9", "yellow 1"),
             ("green 1", "green 3", "yellow 6", "pink 9"))
    deal = Deal(tuple(tuple(deck.card(c) for c in h) for h in hands), (deck.card("blue 3"), deck.card("blue 6")))
    game = Game.new(rules, seed="goal-tasks", deal=deal, partial=True)
    game.apply(TakeTask(0, deck.card("blue 3")))
    game.apply(TakeTask(1, deck.card("blue 6")))
    assert game.phase == "tricks"
    search = TrickSearch(game, native=False)
    assert search.goal_counts and not search.run()
    assert search.nodes == 0  # old: 728 plays until every line failed
    old = without_step6(game)
    assert not old.run() and old.nodes > 0
    assert not brute_force(game)[0]
    if native.load() is not None:
        fast = TrickSearch(game, digest=False)
        assert fast.native and not fast.run() and fast.nodes == 0


def test_random_deals_keep_their_verdicts(tmp_path: Path) -> None:
    """Random deals of 3 players and 4 cards, 4 players and 3 cards (two tasks, two low wins): the search with step 6,
    the search without it and (on some) the brute force agree; step 6 saves plays in some."""
    path = mission(tmp_path)
    fewer = 0
    verdicts = set()
    for seed in range(24):
        players, cards = (3, 4) if seed % 3 else (4, 3)
        game = random_deal(path, seed, players, cards)
        search = TrickSearch(game, native=False)
        won = search.run()
        old = without_step6(game)
        assert old.run() == won, seed
        assert search.nodes <= old.nodes or won, seed
        if seed % 6 == 0:
            assert brute_force(game)[0] == won, seed
        fewer += search.nodes < old.nodes
        verdicts.add(won)
    assert fewer and verdicts == {True, False}


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), tricks=st.integers(0, 1), k=st.integers(1, 3))
def test_a_cut_position_is_lost(tmp_path: Path, seed: int, tricks: int, k: int) -> None:
    """At a trick start after random tricks (3 players, 5 cards each): where the bound cuts, the search without step 6
    finds no win."""
    path = mission(tmp_path, k)
    game = random_deal(path, seed, 3, 5)
    rng = random.Random(seed)
    for _ in range(3 * tricks):
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
    if search.goal_mask and search._goal_out_of_reach():
        assert not without_step6(game).run()


def at_trick_start(path: Path, seed: int, tricks: int, step6: bool = True) -> tuple[Game, bool]:
    """``random_deal(path, seed, 3, 5)`` after ``tricks`` random tricks, and whether the bound cuts there."""
    game = random_deal(path, seed, 3, 5)
    rng = random.Random(seed)
    for _ in range(3 * tricks):
        game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Play)]))
    return game, bound_cuts(game, goal_task_tricks=step6)


@pytest.mark.parametrize(("seed", "k", "tricks"), [(1, 3, 1), (8, 3, 1), (17, 3, 0), (39, 2, 1), (101, 3, 0)])
def test_positions_only_step6_cuts_are_lost(tmp_path: Path, seed: int, k: int, tricks: int) -> None:
    """Trick starts (found among random ones) the bound cuts with step 6 and not without it: lost (the search without
    step 6, and the brute force after a trick)."""
    path = mission(tmp_path, k)
    game, cut = at_trick_start(path, seed, tricks)
    assert cut  # old: not cut (the search tried its plays)
    assert not at_trick_start(path, seed, tricks, step6=False)[1]
    assert not without_step6(game).run()
    if tricks:
        assert not brute_force(game)[0]


@pytest.mark.skipif(native.load() is None, reason="the C search is not available here")
def test_same_nodes_in_c_and_python_where_step6_cuts(tmp_path: Path) -> None:
    path = mission(tmp_path)
    fewer = 0
    verdicts = set()
    for seed in range(8):
        game = random_deal(path, 200 + seed, 3, 5)
        verdicts.add(c_and_python(game))  # the same verdict, nodes and line in C and Python
        search = TrickSearch(game, native=False)
        search.run()
        old = without_step6(game)
        old.run()
        fewer += search.nodes < old.nodes
    assert fewer and verdicts == {True, False}
