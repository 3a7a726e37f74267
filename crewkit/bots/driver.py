"""The trick-taking bots at the one driver (:func:`crewkit.games.driver.play_out`): each bot behind a
:class:`BotSeat`, which shows it its seat's observation only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from crewkit.bots.base import OPTIONAL_TYPES, Bot
from crewkit.engine.actions import Action
from crewkit.engine.observation import observe
from crewkit.games.driver import BotError, play_out
from crewkit.games.protocol import GameInPlay

if TYPE_CHECKING:
    from crewkit.engine.game import Game
    from crewkit.families.trick_taking.family import TrickTakingGame

__all__ = ["BotError", "BotSeat", "play_game"]


class BotSeat:
    """A trick-taking bot (:class:`~crewkit.bots.base.Bot`) for the one driver: it reads its seat's
    observation only; an optional action from ``act`` while a required one is due, or a required one from
    ``optional``, is a bug of the bot (:class:`~crewkit.games.driver.BotError`)."""

    __slots__ = ("bot", "seat")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seat = bot.seat

    def act(self, game: GameInPlay) -> Action:
        obs = cast("TrickTakingGame", game).seat_observation(self.seat)
        action = self.bot.act(obs)
        if type(action) in OPTIONAL_TYPES and obs.required:
            raise BotError(f"the bot of seat {self.seat} returned the optional {action!r} from act()")
        return action

    def offer(self, game: GameInPlay) -> Action | None:
        g = cast("TrickTakingGame", game)
        obs = observe(g.engine, self.seat, lazy_optional=True, table=g.table())
        action = self.bot.optional(obs)
        if action is not None and type(action) not in OPTIONAL_TYPES:
            raise BotError(f"the bot of seat {self.seat} returned {action!r} from optional(): not optional")
        return action



def play_game(game: Game, bots: Sequence[Bot], max_actions: int = 10_000) -> Game:
    """Play an engine game to its end with one bot per seat, through the one driver; returns the game."""
    from crewkit.families.trick_taking.family import TrickTakingGame

    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a {game.n}-player game")
    play_out(TrickTakingGame(game), [BotSeat(b) for b in bots], max_actions)
    return game
