"""The machine runs the board family (Not Alone) to its end: random legal play for 2 to 7 players."""

from __future__ import annotations

import random

import pytest

from crewkit.engine.errors import IllegalAction
from crewkit.engine.machine import Pick
from crewkit.families.not_alone.board import BoardGame, new_board_game


def random_game(players: int, seed: int, ruleset: str = "not-alone") -> BoardGame:
    g = new_board_game(ruleset, players, seed=f"t{seed}")
    rng = random.Random(seed)
    for _ in range(5000):
        if g.is_over():
            return g
        seat = rng.choice(g.waiting())
        g.apply(rng.choice(g.legal_actions(seat)))
    raise AssertionError("the game did not end in 5000 actions")


@pytest.mark.parametrize("players", range(2, 8))
def test_random_games_end_with_a_side_winning(players: int) -> None:
    for seed in range(3):
        g = random_game(players, seed)
        assert g.winners in ((0,), tuple(range(1, players)))
        assert g.outcome().result == "success"
        assert g.legal_actions() == [] and g.waiting() == ()


def test_advanced_variant_runs() -> None:
    g = random_game(4, 1, "not-alone-advanced")
    assert g.is_over()


def test_the_creature_chooses_the_board_side_first() -> None:
    g = new_board_game("not-alone", 3, seed="x")
    assert g.waiting() == (0,)
    assert g.legal_actions() == [Pick(0, "a"), Pick(0, "b")]
    with pytest.raises(IllegalAction) as err:
        g.apply(Pick(1, "a"))
    assert err.value.code == "choice-pending"
    g.apply(Pick(0, "b"))
    assert g.choice("board_side") == "b"


def test_clone_is_independent() -> None:
    g = new_board_game("not-alone", 4, seed="c")
    g.apply(Pick(0, "a"))
    other = g.clone()
    rng = random.Random(0)
    while not other.is_over():
        seat = rng.choice(other.waiting())
        other.apply(rng.choice(other.legal_actions(seat)))
    assert not g.is_over() and g.round == 1
