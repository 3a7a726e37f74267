"""The solver with Mission Deep Sea's task cards: the draft of the cards (who takes which, passes, numbers, the
volunteers, the crew's distribution) is searched through the engine with every choice, and the verdict agrees
with the engine-driven brute force on small deals: decided or unknown, never wrong."""

from __future__ import annotations

import dataclasses
import random

import pytest

from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.engine.blocks.draft import TakeTaskCard
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.setup import compile_game, new_game
from crewkit.families.trick_taking.engine.taskcards import TaskDraw, draw_cards
from crewkit.families.trick_taking.solve import (
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    brute_force,
    replays_to_success,
    solve,
)


def small_game(mission: str, seed: int, players: int = 3, cards: int = 3, total: int | None = None) -> Game | None:
    """A random explicit deal of ``cards`` per seat (submarine 4 always dealt) with the mission's draw (or a
    draw to ``total``)."""
    rules = compile_game("crew-deep-sea", mission, players)
    if total is not None:
        rules = dataclasses.replace(rules, task_draw=TaskDraw(total))
    rng = random.Random(seed)
    deck = list(rules.deck.cards)
    rng.shuffle(deck)
    captain = rules.deck.card("submarine 4")
    chosen = [captain] + [c for c in deck if c != captain][: players * cards - 1]
    rng.shuffle(chosen)
    hands = tuple(tuple(chosen[i * cards:(i + 1) * cards]) for i in range(players))
    ids = draw_cards(rules.task_deck, rules.task_draw, rng)
    try:
        return Game.new(rules, seed=f"small:{seed}", deal=Deal(hands, (), task_cards=ids), partial=True)
    except SetupError:  # a card's redeal rule refuses these hands
        return None


@pytest.mark.parametrize(("mission", "players", "total"), [
    ("deep-sea/07", 3, None), ("deep-sea/10", 4, None), ("deep-sea/14", 3, None), ("deep-sea/04", 3, None),
    ("deep-sea/28", 3, 3),  # the crew's free distribution, on a smaller total
])
def test_the_solver_agrees_with_brute_force(mission: str, players: int, total: int | None) -> None:
    verdicts = set()
    for seed in range(4):
        game = small_game(mission, seed, players, total=total)
        if game is None:
            continue
        expected, _ = brute_force(game)
        result = solve(game, timeout=60)
        assert result.status in (WINNABLE, UNWINNABLE, UNKNOWN)
        if result.status != UNKNOWN:
            assert (result.status == WINNABLE) == expected, (mission, seed, [t.id for t in game.task_cards])
            verdicts.add(result.status)
        if result.status == WINNABLE:
            assert replays_to_success(game, result.line)
    assert verdicts, "no deal was decided"


def test_a_winning_line_takes_the_cards_and_replays_through_the_engine() -> None:
    game = new_game("crew-deep-sea", "deep-sea/05", 4, seed="s0")
    result = solve(game, timeout=60)
    assert result.status == WINNABLE
    assert any(isinstance(a, TakeTaskCard) for a in result.line)
    assert replays_to_success(game, result.line)
    assert game.phase == "draft" and not game.actions  # the game itself is untouched
