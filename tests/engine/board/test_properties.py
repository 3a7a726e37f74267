"""Invariants of random Not Alone games (hypothesis): cards are conserved, tracks only move forward, the game
ends exactly when a track reaches its goal, will stays between 0 and its cap."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from crewkit.engine.board import BoardGame, new_board_game
from crewkit.engine.boardstate import LONE, CardsState, PilesState, ResourceState, TracksState


def totals(g: BoardGame) -> tuple[int, int, int]:
    piles, cards = g.state(PilesState), g.state(CardsState)
    places = len(piles.reserve) + sum(
        len(piles.hand[s]) + len(piles.discard[s]) + len(piles.played[s]) for s in range(g.n)
    )
    survival = len(cards.draw["survival"]) + len(cards.discard["survival"]) + sum(len(h) for h in cards.hands["survival"])
    hunt = len(cards.hands["hunt"][0]) + len(cards.draw["hunt"]) + len(cards.discard["hunt"])
    return places, survival, hunt


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 100_000), advanced=st.booleans())
def test_random_games_keep_the_invariants(players: int, seed: int, advanced: bool) -> None:
    g = new_board_game("not-alone-advanced" if advanced else "not-alone", players, seed=f"p{seed}")
    rng = random.Random(seed)
    start = totals(g)
    assert start[1:] == (15, 20)
    tracks = g.state(TracksState)
    before = dict(tracks.position)
    for _ in range(5000):
        if g.is_over():
            break
        seat = rng.choice(g.waiting())
        g.apply(rng.choice(g.legal_actions(seat)))
        tracks = g.state(TracksState)
        assert totals(g) == start
        for name, pos in tracks.position.items():
            assert before[name] <= pos <= tracks.goal[name]  # forward only, never past the goal
        before = dict(tracks.position)
        reached = [name for name, pos in tracks.position.items() if pos == tracks.goal[name]]
        assert g.is_over() == bool(reached)  # the game ends exactly when a track reaches its goal
        res = g.state(ResourceState)
        assert all(0 <= res.value[s] <= res.cap for s in g.other_seats())
        piles = g.state(PilesState)
        assert all(
            len(set(piles.hand[s] + piles.discard[s] + piles.played[s]))
            == len(piles.hand[s] + piles.discard[s] + piles.played[s])
            for s in g.other_seats()
        )  # one of each
    assert g.is_over()
    reached = [name for name, pos in tracks.position.items() if pos == tracks.goal[name]]
    assert len(reached) == 1
    assert g.winners == ((LONE,) if reached == ["assimilation"] else tuple(g.other_seats()))
