"""The bot protocol: bots see only an :class:`~crewkit.families.trick_taking.engine.observation.Observation`,
never the game."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from crewkit.engine.actions import Action
from crewkit.families.trick_taking.engine.observation import OPTIONAL_TYPES, Observation

__all__ = ["OPTIONAL_TYPES", "Bot"]


@runtime_checkable
class Bot(Protocol):
    """A player. One bot object plays one seat of one game (it may keep memory between calls)."""

    seat: int

    def act(self, obs: Observation) -> Action:
        """The required action: one of ``obs.legal``, never a Communicate or Distress unless only those are legal."""
        ...

    def optional(self, obs: Observation) -> Action | None:
        """At a communication window: a Communicate or Distress from ``obs.legal``, or None to pass."""
        ...


def required_actions(obs: Observation) -> tuple[Action, ...]:
    """The actions ``act`` may return: the non-optional legal actions (all legal ones if there are none)."""
    req = obs.required
    return req if req else obs.legal


def optional_actions(obs: Observation) -> tuple[Action, ...]:
    return tuple(a for a in obs.legal if isinstance(a, OPTIONAL_TYPES))
