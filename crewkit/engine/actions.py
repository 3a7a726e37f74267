"""Actions: small frozen dataclasses with a stable JSON form (the ``actions`` of a game record).

This module holds what every action shares: the :class:`Action` base, the table of action types and their JSON
readers (:func:`register_action`), and :func:`action_from_json`. Each action is defined, with its reader, in
the module of the block that handles it (``play`` in
:mod:`crewkit.families.trick_taking.engine.blocks.tricks`, ``communicate`` and ``signal`` in
:mod:`~crewkit.families.trick_taking.engine.blocks.communication`, the setup steps' actions in
:mod:`crewkit.families.trick_taking.engine.steps`, ...), crewkit's own blocks and other packages' alike;
importing :mod:`crewkit.engine.registry` (as the engine does) registers crewkit's own.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, cast

from crewkit.cards import Card, CardError, Deck


@dataclass(frozen=True, slots=True)
class Action:
    seat: int

    type = "action"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type}


@dataclass(frozen=True, slots=True)
class CardAction(Action):
    """An action that names one card of the deck (``play``, ``take-task``, ``pass-card``, ``signal``): its JSON
    form is ``{seat, type, card}``; :func:`register_card_action` reads it back."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name}


@dataclass(frozen=True, slots=True)
class CardToSeatAction(Action):
    """An action that gives one card to a seat (``give-task``, ``hand-task``): its JSON form is
    ``{seat, type, card, to}``; :func:`register_card_to_seat_action` reads it back."""

    card: Card
    player: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name, "to": self.player}


class ActionFormatError(ValueError):
    """A JSON action that does not describe an action (unknown type, missing field, unknown card)."""


ActionReader = Callable[[dict[str, Any], int, Deck], Action]
"""Builds an action from its JSON form (``to_json``), given the acting seat (already checked) and the deck."""

ACTION_TYPES: dict[str, type[Action]] = {}
_READERS: dict[str, ActionReader] = {}


def register_action(cls: type[Action], reader: ActionReader) -> None:
    """Make a block's own action known by its ``type``: ``reader(obj, seat, deck)`` builds it from its JSON
    form (``to_json``) or raises :class:`ActionFormatError` saying what was expected and found."""
    if cls.type in ACTION_TYPES and ACTION_TYPES[cls.type] is not cls:
        raise ValueError(f"action type {cls.type!r} is already taken by {ACTION_TYPES[cls.type].__name__}")
    ACTION_TYPES[cls.type] = cls
    _READERS[cls.type] = reader


def register_card_action(cls: type[CardAction]) -> None:
    """:func:`register_action` for an action of one card, with the reader of its ``{seat, type, card}`` form."""
    register_action(cls, lambda obj, seat, deck: cls(seat, card_field(obj, cls.type, deck)))


def register_card_to_seat_action(cls: type[CardToSeatAction]) -> None:
    """:func:`register_action` for an action giving a card to a seat, reading its ``{seat, type, card, to}``."""
    register_action(cls, lambda obj, seat, deck: cls(seat, card_field(obj, cls.type, deck),
                                                     seat_field(obj, cls.type, "to")))


def card_field(obj: dict[str, Any], kind: str, deck: Deck | None, name: str = "card") -> Card:
    """The card named by ``obj[name]`` in a ``kind`` action's JSON form (``deck`` None: a game without a deck of
    playing cards, where no such action exists)."""
    if deck is None:
        raise ActionFormatError(f"a {kind} action names a playing card; this game has no deck of them")
    if name not in obj:
        raise ActionFormatError(f"a {kind} action needs a {name!r}")
    try:
        return deck.card(obj[name])
    except CardError as exc:
        raise ActionFormatError(str(exc)) from None


def seat_field(obj: dict[str, Any], kind: str, name: str) -> int:
    """The seat number ``obj[name]`` of a ``kind`` action's JSON form."""
    value = obj.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionFormatError(f"a {kind} action needs {name!r} (a seat number), found {value!r}")
    return value


def action_from_json(obj: Any, deck: Deck | None, types: Collection[str] | None = None) -> Action:
    """The action of a record's JSON form. ``types``: the action types the game takes (a game of another family
    than trick-taking takes only its blocks' own); a type it does not take is refused before its reader runs."""
    if not isinstance(obj, dict):
        raise ActionFormatError(f"expected an object with 'seat' and 'type', found {type(obj).__name__}")
    kind = obj.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if types is not None and isinstance(kind, str) and kind not in types:  # whether or not its family is loaded
        raise ActionFormatError(f"a {kind} action is not an action of this game; its actions: "
                                f"{', '.join(sorted(types))}")
    if reader is None:
        known = ", ".join(sorted(ACTION_TYPES if types is None else types))
        # the same words as the engine's refusal of a type whose reader another family registered in this process
        raise ActionFormatError(f"unknown action type {kind!r} (this rule set has no {kind!r} action); expected one "
                                f"of {known}")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ActionFormatError(f"'seat' must be an integer, found {seat!r}")
    # a game without playing cards passes no deck: its own readers need none, and the types it does not take
    # (whose readers would) were refused above
    return reader(obj, seat, cast(Deck, deck))
