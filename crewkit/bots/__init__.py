"""Bots that play crewkit games from observations only, and the driver that runs them."""

from crewkit.bots.base import Bot, required_actions
from crewkit.bots.driver import BotError, play_game
from crewkit.bots.registry import UnknownBot, bot_names, make_bot

__all__ = ["Bot", "BotError", "UnknownBot", "bot_names", "make_bot", "play_game", "required_actions"]
