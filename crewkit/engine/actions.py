"""Actions: small frozen dataclasses with a stable JSON form (the ``actions`` of a game record)."""

from __future__ import annotations

from collections.abc import Callable
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


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """A seat's answer to the current setup question (answers are public)."""

    answer: str
    type = "answer"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "answer": self.answer}


@dataclass(frozen=True, slots=True)
class ChoosePlayer(Action):
    """The chooser (usually the commander) binds ``role`` to ``player``."""

    player: int
    role: str
    type = "choose-player"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "player": self.player, "role": self.role}


@dataclass(frozen=True, slots=True)
class SwapTokens(Action):
    """Swap the tokens of two revealed tasks before the draft."""

    first: Card
    second: Card
    type = "swap-tokens"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "cards": [self.first.name, self.second.name]}


@dataclass(frozen=True, slots=True)
class MoveToken(Action):
    """Move the token of one task onto a task that has none, before the draft."""

    token: str
    target: Card
    type = "move-token"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "token": self.token, "card": self.target.name}


@dataclass(frozen=True, slots=True)
class Skip(Action):
    """Decline an optional setup step (no token swap, no token move)."""

    type = "skip"


@dataclass(frozen=True, slots=True)
class GiveTask(Action):
    """The commander gives a task to a player (commander's decision or distribution)."""

    card: Card
    player: int
    type = "give-task"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name, "to": self.player}


@dataclass(frozen=True, slots=True)
class GiveAllTasks(Action):
    """Commander's decision: the face-down tasks all go to ``player`` (then they are revealed)."""

    player: int
    type = "give-all-tasks"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "to": self.player}


@dataclass(frozen=True, slots=True)
class HandTask(Action):
    """Gold frame (5 players): before trick 1 one player hands one of their tasks to another."""

    card: Card
    player: int
    type = "hand-task"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name, "to": self.player}


@dataclass(frozen=True, slots=True)
class ChooseDummySeat(Action):
    """Where the dummy (JARVIS) sits; decided by the players, recorded as the commander's action."""

    dummy_seat: int
    type = "choose-dummy-seat"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "dummy_seat": self.dummy_seat}


@dataclass(frozen=True, slots=True)
class ChooseMission(Action):
    """The dealer announces the round's mission card and mode (Hammer: penalty or challenge)."""

    mission: str
    mode: str
    type = "choose-mission"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "mission": self.mission, "mode": self.mode}


@dataclass(frozen=True, slots=True)
class Signal(Action):
    """In-trick signal (Persian reading): show a card of your hand with a token on it; it stays in hand."""

    card: Card
    type = "signal"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "card": self.card.name}


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Play, TakeTask, Communicate, Distress, PassCard, Answer, ChoosePlayer, SwapTokens, MoveToken, Skip,
        GiveTask, GiveAllTasks, HandTask, ChooseDummySeat, ChooseMission, Signal,
    )
}


class ActionFormatError(ValueError):
    """A JSON action that does not describe an action (unknown type, missing field, unknown card)."""


# actions that blocks of other packages add: type name -> reader of their JSON form (after 'seat' is checked)
ActionReader = Callable[[dict[str, Any], int, Deck], Action]
_READERS: dict[str, ActionReader] = {}


def register_action(cls: type[Action], reader: ActionReader) -> None:
    """Make a block's own action known by its ``type``: ``reader(obj, seat, deck)`` builds it from its JSON
    form (``to_json``) or raises :class:`ActionFormatError` saying what was expected and found."""
    if cls.type in ACTION_TYPES and ACTION_TYPES[cls.type] is not cls:
        raise ValueError(f"action type {cls.type!r} is already taken by {ACTION_TYPES[cls.type].__name__}")
    ACTION_TYPES[cls.type] = cls
    _READERS[cls.type] = reader


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

    reader = _READERS.get(kind)  # type: ignore[arg-type]
    if reader is not None:
        return reader(obj, seat, deck)

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
    if cls is Signal:
        return Signal(seat, card())
    if cls is Answer:
        answer = obj.get("answer")
        if not isinstance(answer, str):
            raise ActionFormatError(f"an answer action needs 'answer' (a string), found {answer!r}")
        return Answer(seat, answer)
    if cls in (ChoosePlayer, GiveTask, HandTask, GiveAllTasks):
        field_name = "player" if cls is ChoosePlayer else "to"
        player = obj.get(field_name)
        if not isinstance(player, int) or isinstance(player, bool):
            raise ActionFormatError(f"a {kind} action needs {field_name!r} (a seat number), found {player!r}")
        if cls is ChoosePlayer:
            role = obj.get("role")
            if not isinstance(role, str):
                raise ActionFormatError(f"a choose-player action needs 'role', found {role!r}")
            return ChoosePlayer(seat, player, role)
        if cls is GiveAllTasks:
            return GiveAllTasks(seat, player)
        if cls is GiveTask:
            return GiveTask(seat, card(), player)
        return HandTask(seat, card(), player)
    if cls is SwapTokens:
        cards = obj.get("cards")
        if not isinstance(cards, list) or len(cards) != 2:
            raise ActionFormatError(f"a swap-tokens action needs 'cards': two task cards, found {cards!r}")
        try:
            return SwapTokens(seat, deck.card(cards[0]), deck.card(cards[1]))
        except CardError as exc:
            raise ActionFormatError(str(exc)) from None
    if cls is MoveToken:
        token = obj.get("token")
        if not isinstance(token, str):
            raise ActionFormatError(f"a move-token action needs 'token' (the token moved), found {token!r}")
        try:
            return MoveToken(seat, token, deck.card(obj.get("card")))
        except CardError as exc:
            raise ActionFormatError(f"a move-token action needs 'card', the task receiving the token: {exc}") from None
    if cls is Skip:
        return Skip(seat)
    if cls is ChooseMission:
        mission, mode = obj.get("mission"), obj.get("mode")
        if not isinstance(mission, str) or mode not in ("penalty", "challenge"):
            raise ActionFormatError(
                f"a choose-mission action needs 'mission' and 'mode' (penalty or challenge), found {mission!r}, {mode!r}"
            )
        return ChooseMission(seat, mission, mode)
    if cls is ChooseDummySeat:
        where = obj.get("dummy_seat")
        if not isinstance(where, int) or isinstance(where, bool):
            raise ActionFormatError(f"a choose-dummy-seat action needs 'dummy_seat' (a seat number), found {where!r}")
        return ChooseDummySeat(seat, where)
    if cls is Communicate:
        pos = obj.get("position")
        if pos not in (None, "top", "bottom", "only"):
            raise ActionFormatError(f"'position' must be top, bottom or only, found {pos!r}")
        return Communicate(seat, card(), pos)
    direction = obj.get("direction")
    if direction not in ("left", "right"):
        raise ActionFormatError(f"'direction' must be left or right, found {direction!r}")
    return Distress(seat, direction)
