"""The setup steps' actions, with their JSON form (:mod:`crewkit.families.trick_taking.engine.steps` holds the
steps that take them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crewkit.cards import Card, CardError, Deck
from crewkit.engine.actions import (
    Action,
    ActionFormatError,
    CardToSeatAction,
    register_action,
    register_card_to_seat_action,
    seat_field,
)


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
class GiveTask(CardToSeatAction):
    """The commander gives a task to a player (commander's decision or distribution)."""

    type = "give-task"


@dataclass(frozen=True, slots=True)
class GiveAllTasks(Action):
    """Commander's decision: the face-down tasks all go to ``player`` (then they are revealed)."""

    player: int
    type = "give-all-tasks"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "to": self.player}


@dataclass(frozen=True, slots=True)
class GiveTaskCard(Action):
    """A drawn task card (by id) given to ``player`` (step ``distribute_tasks``; the crew's decision is recorded
    as the commander's action)."""

    task: str
    player: int
    type = "give-task-card"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "type": self.type, "task": self.task, "to": self.player}


def _read_give_task_card(obj: dict[str, Any], seat: int, deck: Deck) -> GiveTaskCard:
    task = obj.get("task")
    if not isinstance(task, str) or not task:
        raise ActionFormatError(f"a give-task-card action needs 'task' (a task card's id), found {task!r}")
    return GiveTaskCard(seat, task, seat_field(obj, GiveTaskCard.type, "to"))


def _read_answer(obj: dict[str, Any], seat: int, deck: Deck) -> Answer:
    answer = obj.get("answer")
    if not isinstance(answer, str):
        raise ActionFormatError(f"an answer action needs 'answer' (a string), found {answer!r}")
    return Answer(seat, answer)


def _read_choose_player(obj: dict[str, Any], seat: int, deck: Deck) -> ChoosePlayer:
    player = seat_field(obj, ChoosePlayer.type, "player")
    role = obj.get("role")
    if not isinstance(role, str):
        raise ActionFormatError(f"a choose-player action needs 'role', found {role!r}")
    return ChoosePlayer(seat, player, role)


def _read_swap_tokens(obj: dict[str, Any], seat: int, deck: Deck) -> SwapTokens:
    cards = obj.get("cards")
    if not isinstance(cards, list) or len(cards) != 2:
        raise ActionFormatError(f"a swap-tokens action needs 'cards': two task cards, found {cards!r}")
    try:
        return SwapTokens(seat, deck.card(cards[0]), deck.card(cards[1]))
    except CardError as exc:
        raise ActionFormatError(str(exc)) from None


def _read_move_token(obj: dict[str, Any], seat: int, deck: Deck) -> MoveToken:
    token = obj.get("token")
    if not isinstance(token, str):
        raise ActionFormatError(f"a move-token action needs 'token' (the token moved), found {token!r}")
    try:
        return MoveToken(seat, token, deck.card(obj.get("card")))
    except CardError as exc:
        raise ActionFormatError(f"a move-token action needs 'card', the task receiving the token: {exc}") from None


register_action(Answer, _read_answer)
register_action(ChoosePlayer, _read_choose_player)
register_action(SwapTokens, _read_swap_tokens)
register_action(MoveToken, _read_move_token)
register_action(Skip, lambda obj, seat, deck: Skip(seat))
register_card_to_seat_action(GiveTask)
register_action(GiveAllTasks, lambda obj, seat, deck: GiveAllTasks(seat, seat_field(obj, GiveAllTasks.type, "to")))
register_action(GiveTaskCard, _read_give_task_card)
