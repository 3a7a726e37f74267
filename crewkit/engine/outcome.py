"""The outcome of a game, shared by every family: success, failure, a competitive game finished, or still in
progress, with its reason in words (the trick-taking game and the phase machine both report one)."""

from __future__ import annotations

from dataclasses import dataclass

FINISHED = "finished"  # a competitive game played to its end: the winner is in the reason
SUCCESS = "success"
FAILURE = "failure"
IN_PROGRESS = "in-progress"


@dataclass(frozen=True, slots=True)
class Outcome:
    result: str  # success | failure | in-progress
    reason: str
    trick: int | None = None

    def __str__(self) -> str:
        return f"{self.result}: {self.reason}"
