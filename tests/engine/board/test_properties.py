"""Invariants of random Not Alone games (hypothesis): cards are conserved, tracks only move forward, the game
ends exactly when a track reaches its goal, will stays between 0 and its cap."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.families.not_alone.board import new_board_game

from .scenario import checked_random_play, totals


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 100_000), advanced=st.booleans())
def test_random_games_keep_the_invariants(players: int, seed: int, advanced: bool) -> None:
    g = new_board_game("not-alone-advanced" if advanced else "not-alone", players, seed=f"p{seed}")
    assert totals(g)[1:] == (20, 15)  # every hunt card and survival card is somewhere
    checked_random_play(g, seed)
