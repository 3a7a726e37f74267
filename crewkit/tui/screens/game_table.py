"""The frame of every family's table screen: what the app shell reads of the table in play (its session, the bot
delay, the settings it follows) without knowing the family (:mod:`crewkit.tui.family`)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.screen import Screen


class GameTableScreen(Screen[None]):
    """A family's table. ``session``: its game (the shell reads ``session.game`` and ``session.ruleset``);
    ``delay``: seconds per bot move (the shell sets it when the settings change)."""

    SETTINGS: ClassVar[tuple[str, ...]] = ("bot_delay", "bell")  # the settings this table follows (``o``)
    #: the table's actions the command palette's table entries reach (``action_<name>``); others say "only at
    #: the table, during a mission"
    PALETTE_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    session: Any
    delay: float

    def advance(self) -> None:
        """Go on after a dialog closed (a bot's move due, a stop the new settings no longer make)."""

    def logbook_ruleset(self) -> str | None:
        """The rule set whose results the logbook opens on from this table (a game of sides: each side's wins),
        else None (the campaign's missions)."""
        return None
