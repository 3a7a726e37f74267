"""The frozen copy of a game's state that optional actions (communications, distress) are worked out from when
a bot asks (:func:`crewkit.families.trick_taking.engine.observation.observe` with ``lazy_optional``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crewkit.engine.actions import Action
    from crewkit.families.trick_taking.engine.game import Game

_new = object.__new__

# State that the optional-action hooks read and that later moves mutate in place: copied for the snapshot.
_MUTABLE = ("hands", "comm_used", "communications", "tricks", "plays", "roles", "passes", "tasks")


class _OptionalSnapshot:
    """A frozen copy of the game's state that the blocks' optional-action hooks read (plain attributes; no
    game method runs on it)."""


def optional_actions_of(state: Any, seat: int) -> list[Action]:
    """The actions ``seat`` may take out of turn, from the blocks' hooks (as ``Game.optional_actions``)."""
    out: list[Action] = []
    for optional in state.hooks.optional_in_trick if state.plays else state.hooks.optional:
        out.extend(optional(state, seat))
    return out


def optional_snapshot(game: Game) -> Any:
    shim = _new(_OptionalSnapshot)
    d = game.__dict__.copy()
    for name in _MUTABLE:
        v = d.get(name)
        if type(v) is list:
            d[name] = tuple(v)
        elif type(v) is dict:
            d[name] = v.copy()
    shim.__dict__ = d
    return shim
