"""The your-turn bell of every family's table: when it becomes a person's turn while the terminal is not focused,
the bell (the ``bell`` setting) and a notification, once per turn."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.screen import Screen

__all__ = ["TurnBell"]


class TurnBell:
    """Rings at most once per turn: ``key`` names the turn (the same key again, as when a dialog opens again
    after the player looked at the table, rings nothing)."""

    def __init__(self) -> None:
        self._rang: Hashable = None

    def ring(self, screen: Screen[Any], key: Hashable) -> None:
        if self._rang == key or screen.app.app_focus:
            return
        self._rang = key
        settings = getattr(screen.app, "settings", None)
        if settings is None or settings.bell:
            screen.app.bell()
        screen.notify("Your turn.", title="crewkit", timeout=30)
