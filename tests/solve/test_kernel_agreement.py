"""One rules kernel: the solver (Python and C) judges tricks and task tokens as
crewkit.families.trick_taking.engine.kernel does.

The Python search takes the kernel's strength table and asks the kernel's ``token_violation``; the C search
receives the same table and has its own token check, so it is tested here against the engine itself (which
plays through the kernel) by an exhaustive search of small deals.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import small_game

from crewkit.families.trick_taking.engine.kernel import deck_strength_table
from crewkit.families.trick_taking.engine.setup import compile_game
from crewkit.families.trick_taking.solve import brute_force, native
from crewkit.families.trick_taking.solve.core import TrickSearch, Unsupported
from tests import native_marks

needs_c = native_marks.needs_c(native)


@pytest.mark.parametrize("mission", ["planet-nine/03", "planet-nine/10"])
def test_the_search_judges_tricks_by_the_kernels_strength_table(mission: str) -> None:
    game = small_game(mission, 7, cards=4, players=3)
    while game.phase != "tricks":
        game.apply(game.legal_actions()[0])
    search = TrickSearch(game, native=False)
    table = deck_strength_table(game.rules.deck, game.rules.precedence)
    assert [tuple(row) for row in search.power] == list(table)


def test_a_precedence_that_leaves_a_category_out_still_lets_it_win_in_the_search() -> None:
    """The engine's reading (kernel.strength_table): a category left out of ``trick_winner`` ranks below the
    listed ones but still wins over an off-suit card. The search used to give it no strength at all."""
    rules = compile_game("crew", "planet-nine/03", 3)
    table = deck_strength_table(rules.deck, ("led",))
    rocket = rules.deck.card("rocket 4").id
    blue = rules.deck.card("blue 9").id
    led_blue = 1 + rules.deck.card("blue 1").suit.index  # type: ignore[union-attr]
    assert table[led_blue][blue] > table[led_blue][rocket] > 0


@needs_c
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(
    mission=st.sampled_from(["planet-nine/03", "planet-nine/06", "planet-nine/08", "planet-nine/10",
                             "planet-nine/15"]),
    seed=st.integers(0, 10_000),
    cards=st.integers(2, 4),
)
def test_c_and_python_searches_agree_with_the_engine_on_token_order(mission: str, seed: int, cards: int) -> None:
    """Property: on small deals with task tokens, both searches' verdicts are the engine's (exhaustive)."""
    try:
        game = small_game(mission, seed, cards=cards, players=3)
    except ValueError:
        return  # the mission needs more task cards than this small deal holds
    rng = random.Random(seed)
    while game.phase != "tricks" and not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over():
        return
    expected, _ = brute_force(game, gold_frame=False)
    for use_c in (True, False):
        try:
            search = TrickSearch(game, native=use_c)
        except Unsupported:
            return
        assert search.run() == expected, f"{'C' if use_c else 'Python'} search disagrees with the engine"


def test_the_engine_view_and_the_search_view_share_one_protocol() -> None:
    from crewkit.dsl.view import View
    from crewkit.families.trick_taking.engine.view import EngineView

    game = small_game("planet-nine/03", 3, cards=4, players=3)
    while game.phase != "tricks":
        game.apply(game.legal_actions()[0])
    engine_view, search_view = EngineView(game), TrickSearch(game, native=False).view
    assert isinstance(engine_view, View) and isinstance(search_view, View)
    for name in ("seats", "commander", "total_tricks", "tricks", "current_plays"):
        a, b = getattr(engine_view, name)(), getattr(search_view, name)()
        assert (list(a) if not isinstance(a, int | None) else a) == (list(b) if not isinstance(b, int | None) else b)


@pytest.mark.parametrize("tricks_before", [0, 1, 2])
def test_the_engine_view_and_the_search_view_answer_alike(tricks_before: int) -> None:
    """Every member of the one ``View`` protocol, asked of the engine's view and of the search's, mid-game."""
    from crewkit.families.trick_taking.engine.blocks.tricks import Play

    game = small_game("planet-nine/03", 5, cards=4, players=3)
    while game.phase != "tricks":
        game.apply(game.legal_actions()[0])
    while len(game.tricks) < tricks_before:
        game.apply(next(a for a in game.legal_actions(game.to_act) if isinstance(a, Play)))
    engine_view, search_view = game.view(), TrickSearch(game, native=False).view

    def same(a: object, b: object) -> bool:
        return (list(a) if isinstance(a, list | tuple | range) else a) == (
            list(b) if isinstance(b, list | tuple | range) else b)

    for name in ("seats", "commander", "dealer", "mode", "total_tricks", "current_plays", "roles"):
        assert same(getattr(engine_view, name)(), getattr(search_view, name)()), name
    for seat in range(game.n):
        for name in ("tricks_won", "won_cards", "hand", "left_of", "right_of"):
            assert same(getattr(engine_view, name)(seat), getattr(search_view, name)(seat)), (name, seat)
    shape = [(t.number, t.leader, list(t.plays), t.winner, t.winning_card, t.led_suit) for t in engine_view.tricks()]
    assert shape == [(t.number, t.leader, list(t.plays), t.winner, t.winning_card, t.led_suit)
                     for t in search_view.tricks()]
    assert [(t.card, t.owner, t.token, t.done, t.trick) for t in engine_view.tasks()] == \
        [(t.card, t.owner, t.token, t.done, t.trick) for t in search_view.tasks()]
    for card in game.rules.deck.cards:
        a, b = engine_view.trick_of(card), search_view.trick_of(card)
        assert (a.number if a else None) == (b.number if b else None), card
