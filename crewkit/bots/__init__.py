"""Bots that play crewkit games from observations only, and the driver that runs them.

The names below are imported on first use, so that importing a family's bots (``crewkit.bots.board``) does not
import the driver of the other family's engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkit.bots.base import Bot, required_actions
    from crewkit.bots.driver import BotError, play_game
    from crewkit.bots.registry import UnknownBot, bot_names, make_bot

_MODULE_OF = {"Bot": "base", "required_actions": "base", "BotError": "driver", "play_game": "driver",
              "UnknownBot": "registry", "bot_names": "registry", "make_bot": "registry"}

__all__ = ["Bot", "BotError", "UnknownBot", "bot_names", "make_bot", "play_game", "required_actions"]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"crewkit.bots.{module}"), name)
    globals()[name] = value
    return value
