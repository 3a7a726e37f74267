"""A game played by fast bots up to a point the test names: the one loop the bot tests share."""

from __future__ import annotations

from collections.abc import Callable

from crewkit.families.trick_taking.analysis.loading import load_rules, start_game
from crewkit.families.trick_taking.bots import make_bot
from crewkit.families.trick_taking.engine.game import Game
from crewkit.families.trick_taking.engine.observation import observe


def fast_game_until(mission: str, seed: str, stop: Callable[[Game], bool], players: int = 4) -> Game:
    """``mission`` at ``players`` seats, dealt by ``seed`` and played by fast bots (seeded ``seed``) until ``stop``
    holds of the game."""
    game = start_game(load_rules("crew", mission, players), None, seed)
    bots = [make_bot("fast", s, seed) for s in range(game.n)]
    while not stop(game):
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(observe(game, seat)))
    return game


def at_tricks(game: Game) -> bool:
    return game.phase == "tricks"
