"""Bots that play crewkit games from observations only (the trick-taking family's; Not Alone's are in
:mod:`crewkit.families.not_alone.bots`). The one driver that runs any family's bots is
:mod:`crewkit.games.driver`."""

from crewkit.families.trick_taking.bots.base import Bot, required_actions
from crewkit.families.trick_taking.bots.registry import UnknownBot, bot_names, make_bot
from crewkit.games.driver import BotError

__all__ = ["Bot", "BotError", "UnknownBot", "bot_names", "make_bot", "required_actions"]
