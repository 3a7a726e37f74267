"""Block ``gold-frame`` (cross-cutting): once per attempt, before the first trick, a task may be handed on."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewkit.engine.actions import (
    Action,
    CardToSeatAction,
    register_card_to_seat_action,
)
from crewkit.engine.errors import IllegalAction
from crewkit.engine.phase import TRICKS, Block, Handler, register
from crewkit.families.trick_taking.engine.rules import Rules
from crewkit.families.trick_taking.engine.state import Event

if TYPE_CHECKING:
    from crewkit.families.trick_taking.engine.game import Game


@dataclass(frozen=True, slots=True)
class HandTask(CardToSeatAction):
    """Gold frame (5 players): before trick 1 one player hands one of their tasks to another."""

    type = "hand-task"


register_card_to_seat_action(HandTask)


@register
class GoldFrame(Block):
    name = "gold-frame"
    order = 20

    def actions(self) -> dict[type, Handler]:
        return {HandTask: hand_task}  # type: ignore[dict-item]

    def optional(self, g: Game, seat: int) -> Iterable[Action]:
        if g.plays or not g.rules.gold_frame or g.rules.comm_window == "after-first-card" or g._outcome is not None:
            return ()
        if not gold_frame_open(g):
            return ()
        cards = [t.card for t in g.tasks if t.owner == seat]
        return [HandTask(seat, c, p) for c in cards for p in range(g.n) if p != seat]

    def needs(self, hook: str, rules: Rules) -> bool:
        # offered only before the first card of the first trick, never mid-trick
        return hook == "optional" and rules.gold_frame and rules.comm_window != "after-first-card"


def gold_frame_open(g: Game) -> bool:
    return g.rules.gold_frame and not g.gold_frame_used and not g.tricks and g.phase == TRICKS


def hand_task(g: Game, a: HandTask) -> None:
    if not g.rules.gold_frame:
        raise IllegalAction("no-gold-frame", "handing a task on is only allowed with 5 players on gold-frame missions")
    if g.gold_frame_used:
        raise IllegalAction("gold-frame-used", "a task was already handed on this attempt (only one is allowed)")
    if g.phase != TRICKS or g.tricks or g.plays:
        raise IllegalAction("gold-frame-closed", "a task can only be handed on before the first trick")
    task = g.task_of(a.card)
    if task is None or task.owner != a.seat:
        raise IllegalAction("not-your-task", f"seat {a.seat} has no task {a.card} to hand on")
    if a.player == a.seat or not 0 <= a.player < g.n:
        raise IllegalAction("bad-player", f"seat {a.seat} must hand the task to another player")
    task.owner = a.player
    g.gold_frame_used = True
    g.events.append(Event("task-handed", a.seat, a.card, f"to seat {a.player}"))
