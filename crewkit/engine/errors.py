"""The one error type for refused actions."""

from __future__ import annotations

from crewkit.errors import CrewkitError


class IllegalAction(CrewkitError):
    """An action the rules do not allow now.

    ``code`` is stable (tests and tools match on it); ``message`` is a sentence naming the rule, e.g.
    ``"seat 2 must follow pink: holds pink 3"``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"


class SetupError(CrewkitError, ValueError):
    """A game that cannot be set up: bad player count, a deal that does not fit the rule set, ..."""


class DealerError(SetupError):
    """A first dealer the rule set does not allow (a seat that does not exist, or one the seed did not draw)."""
