"""Actions: small frozen dataclasses with a stable JSON form (the ``actions`` of a game record)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crewkit.cards import Card, CardError, Deck


@dataclass(frozen=True, slots=True)
class Action:
    seat: int

    type = "action"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type}


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card
    type = "play"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name}


@dataclass(frozen=True, slots=True)
class TakeTask(Action):
    card: Card
    type = "take-task"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name}


@dataclass(frozen=True, slots=True)
class Communicate(Action):
    card: Card
    position: str | None  # top | bottom | only; None under a dead zone
    type = "communicate"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type, "card": self.card.name}
        if self.position is not None:
            out["position"] = self.position
        return out


@dataclass(frozen=True, slots=True)
class Distress(Action):
    direction: str  # left | right
    type = "distress"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "direction": self.direction}


@dataclass(frozen=True, slots=True)
class PassCard(Action):
    card: Card
    type = "pass-card"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name}


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls for cls in (Play, TakeTask, Communicate, Distress, PassCard)
}


class ActionFormatError(ValueError):
    """A JSON action that does not describe an action (unknown type, missing field, unknown card)."""


def action_from_json(obj: Any, deck: Deck) -> Action:
    if not isinstance(obj, dict):
        raise ActionFormatError(f"expected an object with 'seat' and 'type', found {type(obj).__name__}")
    kind = obj.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(ACTION_TYPES))
        raise ActionFormatError(f"unknown action type {kind!r}; expected one of {known}")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ActionFormatError(f"'seat' must be an integer, found {seat!r}")

    def card() -> Card:
        if "card" not in obj:
            raise ActionFormatError(f"a {kind} action needs a 'card'")
        try:
            return deck.card(obj["card"])
        except CardError as exc:
            raise ActionFormatError(str(exc)) from None

    if cls is Play:
        return Play(seat, card())
    if cls is TakeTask:
        return TakeTask(seat, card())
    if cls is PassCard:
        return PassCard(seat, card())
    if cls is Communicate:
        pos = obj.get("position")
        if pos not in (None, "top", "bottom", "only"):
            raise ActionFormatError(f"'position' must be top, bottom or only, found {pos!r}")
        return Communicate(seat, card(), pos)
    direction = obj.get("direction")
    if direction not in ("left", "right"):
        raise ActionFormatError(f"'direction' must be left or right, found {direction!r}")
    return Distress(seat, direction)
