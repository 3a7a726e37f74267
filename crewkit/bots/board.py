"""Bots for board-family games (Not Alone): the interface, the registry by name, a random bot, the driver.

A bot sees only its seat's observation (:class:`~crewkit.engine.board_observation.BoardObservation`) and its
legal actions, and returns one of them. One bot object plays one seat (the Creature's seat 0 or a Hunted's);
a bot for one side only may refuse the other by raising :class:`UnknownBoardBot` from its factory.

Register a bot with :func:`register_board_bot` (``name -> factory(seat, seed)``); :func:`make_board_bot`
builds one, :func:`play_board_game` runs a game to its end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from crewkit.engine.actions import Action
from crewkit.engine.board import BoardGame
from crewkit.engine.board_observation import BoardObservation
from crewkit.errors import CrewkitError


class BoardBot(Protocol):
    seat: int

    def choose(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty), decided from ``obs`` only."""
        ...


class UnknownBoardBot(CrewkitError, ValueError):
    """A bot name that is not registered for board games (the message lists the names)."""


class RandomBoardBot:
    """Picks uniformly among the legal actions (seeded by the game seed and its seat)."""

    def __init__(self, seat: int, seed: str = "") -> None:
        self.seat = seat
        self.rng = random.Random(f"board-random:{seed}:{seat}")

    def choose(self, obs: BoardObservation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


BoardBotFactory = Callable[[int, str], BoardBot]
BOARD_BOTS: dict[str, BoardBotFactory] = {"random": RandomBoardBot}


def register_board_bot(name: str, factory: BoardBotFactory) -> None:
    BOARD_BOTS[name] = factory


def board_bot_names() -> list[str]:
    return sorted(BOARD_BOTS)


def make_board_bot(name: str, seat: int, seed: str = "") -> BoardBot:
    factory = BOARD_BOTS.get(name)
    if factory is None:
        raise UnknownBoardBot(f"unknown bot {name!r} for this game; bots: {', '.join(board_bot_names())}")
    return factory(seat, seed)


class BoardBotError(CrewkitError):
    """A bot returned an action that is not legal."""


def play_board_game(game: BoardGame, bots: Sequence[BoardBot], max_actions: int = 20_000) -> BoardGame:
    """Let ``bots[seat]`` act whenever the game waits for ``seat`` (the first waiting seat first, so a run is
    reproducible), until the game ends."""
    for _ in range(max_actions):
        if game.is_over():
            return game
        seat = game.waiting()[0]
        legal = game.legal_actions(seat)
        action = bots[seat].choose(game.observation(seat), legal)
        if action not in legal:
            raise BoardBotError(f"the bot of seat {seat} chose {action}, which is not legal now")
        game.apply(action)
    raise BoardBotError(f"the game did not end within {max_actions} actions")
